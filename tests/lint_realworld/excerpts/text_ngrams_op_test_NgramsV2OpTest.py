# Excerpt (trimmed) of tensorflow/text @ 17c38bf014810b80abbb7c13ff1c2ac3cd9f710f: tensorflow_text/python/ops/ngrams_op_test.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function
import numpy as np
import tensorflow as tf
import tensorflow_text as tf_text
from tensorflow.lite.python import interpreter
from tensorflow.python.framework import constant_op
from tensorflow.python.framework import errors
from tensorflow.python.framework import test_util
from tensorflow.python.ops.ragged import ragged_factory_ops
from tensorflow.python.platform import test
from tensorflow_text.core.pybinds import tflite_registrar
from tensorflow_text.python.ops import ngrams_op


class NgramModel(tf.keras.Model):

  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.tokenizer = tf_text.WhitespaceTokenizer()

  @tf.function(input_signature=[
      tf.TensorSpec(shape=[1], dtype=tf.string, name="input")
  ])
  def call(self, input_tensor):
    input_tensor = self.tokenizer.tokenize(input_tensor)
    x = ngrams_op.ngrams(input_tensor, width=2, axis=-1,
                         reduction_type=ngrams_op.Reduction.STRING_JOIN,
                         string_separator="|")
    return {"result": x.flat_values}
