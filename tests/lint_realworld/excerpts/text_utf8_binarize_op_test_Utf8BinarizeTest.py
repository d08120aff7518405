# Excerpt (trimmed) of tensorflow/text @ 17c38bf014810b80abbb7c13ff1c2ac3cd9f710f: tensorflow_text/python/ops/utf8_binarize_op_test.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import numpy as np
import tensorflow as tf
import tensorflow_text as tf_text
from tensorflow.lite.python import interpreter
from tensorflow.python.framework import test_util
from tensorflow.python.platform import test


class Model(tf.keras.Model):

  @tf.function(input_signature=[
      tf.TensorSpec(shape=[None], dtype=tf.string, name='input')
  ])
  def call(self, input_tensor):
    return {'result': tf_text.utf8_binarize(input_tensor, word_length=3,
                                            bits_per_char=4)}
