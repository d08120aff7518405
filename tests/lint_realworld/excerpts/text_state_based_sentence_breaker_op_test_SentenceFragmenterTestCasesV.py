# Excerpt (trimmed) of tensorflow/text @ 17c38bf014810b80abbb7c13ff1c2ac3cd9f710f: tensorflow_text/python/ops/state_based_sentence_breaker_op_test.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function
from absl.testing import parameterized
import numpy as np
import tensorflow as tf
import tensorflow_text as tf_text
from tensorflow.lite.python import interpreter
from tensorflow.python.framework import constant_op
from tensorflow.python.ops import array_ops
from tensorflow.python.ops import string_ops
from tensorflow.python.platform import test
from tensorflow_text.python.ops import state_based_sentence_breaker_op


class Model(tf.keras.Model):

  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.sb = tf_text.StateBasedSentenceBreaker()

  @tf.function(input_signature=[
      tf.TensorSpec(shape=[None], dtype=tf.string, name="input")
  ])
  def call(self, input_tensor):
    return {"result": self.sb.break_sentences(input_tensor).flat_values}
