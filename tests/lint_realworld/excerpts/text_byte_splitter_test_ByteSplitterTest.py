# Excerpt (trimmed) of tensorflow/text @ 17c38bf014810b80abbb7c13ff1c2ac3cd9f710f: tensorflow_text/python/ops/byte_splitter_test.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function
import numpy as np
import tensorflow as tf
import tensorflow_text as tf_text
from tensorflow.lite.python import interpreter
from tensorflow.python.framework import test_util
from tensorflow.python.platform import test


class Model(tf.keras.Model):

  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.bs = tf_text.ByteSplitter()

  @tf.function(input_signature=[
      tf.TensorSpec(shape=[None], dtype=tf.string, name='input')
  ])
  def call(self, input_tensor):
    return {'result': self.bs.split(input_tensor).flat_values}


class Model(tf.keras.Model):

  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.bs = tf_text.ByteSplitter()

  @tf.function(input_signature=[
      tf.TensorSpec(shape=[None], dtype=tf.string, name='input')
  ])
  def call(self, input_tensor):
    return {'result': self.bs.split(input_tensor).flat_values}
