# Excerpt (trimmed) of tensorflow/text @ 17c38bf014810b80abbb7c13ff1c2ac3cd9f710f: tensorflow_text/python/ragged/ragged_tensor_to_tensor_test.py
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


class TokenizerModel(tf.keras.Model):

  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.fwp = tf_text.FastWordpieceTokenizer(['minds', 'apart', '[UNK]'])

  @tf.function(input_signature=[
      tf.TensorSpec(shape=[None], dtype=tf.string, name='input')
  ])
  def call(self, input_tensor):
    return {'tokens': self.fwp.tokenize(input_tensor).to_tensor()}
