# case: x214_clean_module_counter_variable_and_tf_print
# source: https://github.com/google-research/seed_rl/issues/52
# category: trace-time-side-effect
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: state kept in tf.Variables updated with assign_add and output through tf.print run on every call.

import tensorflow as tf


class Trainer(tf.Module):
    def __init__(self):
        self.steps = tf.Variable(0, dtype=tf.int64)
        self.total = tf.Variable(0.0)
        self.w = tf.Variable(2.0)

    @tf.function
    def step(self, x):
        loss = tf.reduce_mean(tf.square(self.w * x))
        self.steps.assign_add(1)
        self.total.assign_add(loss)
        tf.print("step", self.steps, "loss", loss)
        return loss


t = Trainer()
for _ in range(3):
    t.step(tf.constant([1.0, 2.0]))
print(int(t.steps), float(t.total))
