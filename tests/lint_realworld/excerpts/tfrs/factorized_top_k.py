# Excerpt (trimmed) of tensorflow/recommenders @ cf1dafa988f223ed5f30b68cb9aed518484b3a1d: tensorflow_recommenders/layers/factorized_top_k.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).
import abc
import contextlib

import tensorflow as tf

@contextlib.contextmanager
def _wrap_batch_too_small_error(k: int):
  """Context manager that provides a more helpful error message."""

  try:
    yield
  except tf.errors.InvalidArgumentError as e:
    error_message = str(e)
    if "input must have at least k columns" in error_message:
      raise ValueError(
          "Tried to retrieve k={k} top items, but the candidate "
          "dataset batch size is too small. This may be because "
          "your candidate batch size is too small or the last "
          "batch of your dataset is too small. "
          "To resolve this, increase your batch size, set the "
          "drop_remainder argument to True when batching your "
          "candidates, or set the handle_incomplete_batches "
          "argument to True in the constructor. ".format(k=k)
      ) from e
    else:
      raise


class TopK(tf.keras.Model, abc.ABC):
  pass


class Streaming(TopK):

  def call(self, queries, k=None):
    k = k if k is not None else self._k
    candidates = self._candidates
    initial_state = (
        tf.zeros((tf.shape(queries)[0], 0), dtype=tf.float32),
        tf.zeros((tf.shape(queries)[0], 0), dtype=tf.int32),
    )

    with _wrap_batch_too_small_error(k):
      results = (
          candidates
          .map(self._top_scores, num_parallel_calls=self._num_parallel_calls)
          .reduce(initial_state, self._top_k)
      )

    return results
