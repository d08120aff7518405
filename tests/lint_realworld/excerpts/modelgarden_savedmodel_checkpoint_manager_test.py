# Excerpt (trimmed) of tf-models-official @ 2.20.0 (PyPI wheel): official/core/savedmodel_checkpoint_manager_test.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import tensorflow as tf, tf_keras

class _ModelForTest(tf_keras.Model):
  def __init__(self, hidden_size: int = 8):
    super().__init__()
    self.dense = tf_keras.layers.Dense(hidden_size)

  @tf.function(input_signature=[tf.TensorSpec([None, 16])])
  def call(self, inputs):
    return self.dense(inputs)

  @property
  def saved_model_signatures(self):
    # Build SavedModel signatures.
    return dict(serving_default=self.call)

