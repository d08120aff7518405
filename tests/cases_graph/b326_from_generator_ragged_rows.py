# case: b326_from_generator_ragged_rows
# source: https://github.com/tensorflow/tensorflow/issues/46835
# category: data-pipeline
# expect: error
# raises on TF 2.21: InvalidArgumentError
# line: 31
# also: 23
# fix: Declare the variable-length dimension as None in output_signature (tf.TensorSpec(shape=(None,), ...)) and pad with padded_batch.

import numpy as np
import tensorflow as tf

MAX_LEN = 6


class SentenceSource:
    def __init__(self, n):
        rng = np.random.default_rng(0)
        self.sentences = [rng.integers(1, 100, size=rng.integers(2, 9)) for _ in range(n)]

    def __call__(self):
        for s in self.sentences:
            yield s.astype(np.int32), np.int32(len(s))


def make_dataset():
    src = SentenceSource(10)
    ds = tf.data.Dataset.from_generator(
        src,
        output_signature=(
            tf.TensorSpec(shape=(MAX_LEN,), dtype=tf.int32),
            tf.TensorSpec(shape=(), dtype=tf.int32),
        ),
    )
    return ds.batch(2)


if __name__ == "__main__":
    for tokens, lengths in make_dataset():
        print(tokens.shape, lengths.numpy())
