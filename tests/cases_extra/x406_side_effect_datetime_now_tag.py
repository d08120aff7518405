# case: x406_side_effect_datetime_now_tag
# source: synthesised from https://www.tensorflow.org/guide/function#executing_python_side_effects
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: nothing
# line: 17
# also: -
# fix: datetime.now() runs once per trace and its value is frozen into the graph; use tf.timestamp() for a per-call time.

import datetime

import tensorflow as tf


@tf.function
def stamp(x):
    started = datetime.datetime.now().timestamp()
    return x + started * 0.0


for _ in range(3):
    stamp(tf.constant(1.0))
