# case: b310_range_tensor_index_float_weight
# source: https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/control_flow.md
# category: dtype-mismatch
# expect: error
# raises on TF 2.21: TypeError
# line: 16
# also: 15
# fix: range(tensor) becomes tf.range, so i is an int32 tensor: cast it first, e.g. decay ** tf.cast(i, tf.float32).

import tensorflow as tf


def discounted_sum(rewards, horizon, gamma=0.9):
    total = 0.0
    for i in range(horizon):
        weight = gamma ** i
        total += weight * rewards[i]
    return total


@tf.function
def episode_return(rewards):
    horizon = tf.shape(rewards)[0]
    return discounted_sum(rewards, horizon)


if __name__ == "__main__":
    r = tf.constant([1.0, 0.0, 2.0, 1.0])
    print(discounted_sum(r, 4))       # eager, horizon is a Python int: works
    print(episode_return(r))
