# case: x209_side_effect_log_file_write_in_train_step
# source: https://github.com/tensorflow/tensorflow/issues/38555
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: nothing
# line: 23
# also: 24
# fix: Python file writes in a tf.function happen once, at trace time (and write the symbolic tensor); write logs with tf.print(..., output_stream="file://...") or tf.summary, or write outside the function.

import os
import tempfile

import tensorflow as tf

LOG = os.path.join(tempfile.mkdtemp(), "train.log")
w = tf.Variable(1.0)


@tf.function
def train_step(x):
    loss = tf.square(w * x - 1.0)
    w.assign_sub(0.1 * loss)
    with open(LOG, "a") as f:
        f.write(f"loss {loss}\n")
    return loss


for _ in range(4):
    train_step(tf.constant(0.5))
print(open(LOG).read().count("\n"), "log lines for 4 steps")
