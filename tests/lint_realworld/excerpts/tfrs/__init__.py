# Excerpt (trimmed) of tensorflow/recommenders @ cf1dafa988f223ed5f30b68cb9aed518484b3a1d: tensorflow_recommenders/__init__.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).


def _check_keras_version():
  import tensorflow as tf

  keras_version_fn = getattr(tf.keras, "version", None)
  if keras_version_fn:  # Not present in tf.keras for v2 / before TF 2.16.
    keras_version = keras_version_fn()
    if keras_version.startswith("3."):
      raise ImportError(
          "Package tensorflow_recommenders requires tf.keras to be Keras"
          f" version 2 but got version {keras_version}. "
          "For open-source TensorFlow 2.16 and above, "
          "set the environment variable TF_USE_LEGACY_KERAS=1 to fix. "
      )


_check_keras_version()
del _check_keras_version
