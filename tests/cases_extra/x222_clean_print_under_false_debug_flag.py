# case: x222_clean_print_under_false_debug_flag
# source: https://github.com/tensorflow/tensorflow/issues/38555
# category: trace-time-side-effect
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: the print and the history append sit under Python flags that are off while tracing, so they never run.

import tensorflow as tf

VERBOSE = False


class Config:
    keep_history = False


cfg = Config()
history = []


@tf.function
def step(x):
    y = x * 2.0
    if VERBOSE:
        print("tracing step with", x)
    if cfg.keep_history:
        history.append(y)
    return y


for i in range(3):
    step(tf.constant(float(i)))
print(len(history))
