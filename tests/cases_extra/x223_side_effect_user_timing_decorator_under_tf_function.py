# case: x223_side_effect_user_timing_decorator_under_tf_function
# source: https://github.com/tensorflow/tensorflow/issues/46012
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: nothing
# line: 23
# also: 21,22
# fix: A user decorator placed under @tf.function runs only while tracing, so it times (and records) the trace once, not each step; put the decorator outside @tf.function (or time with tf.timestamp()).

import functools
import time

import tensorflow as tf

timings = []


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        start = time.perf_counter()
        out = fn(*args)
        timings.append(time.perf_counter() - start)
        return out
    return wrapper


@tf.function
@timed
def train_step(x):
    return tf.reduce_sum(x * x)


for _ in range(4):
    train_step(tf.ones([3]))
print(len(timings), "timings for 4 steps")
