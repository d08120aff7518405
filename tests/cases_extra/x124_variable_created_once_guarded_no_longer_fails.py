# case: x124_variable_created_once_guarded_no_longer_fails
# source: https://github.com/tensorflow/tensorflow/issues/33689
# category: variable-creation
# expect: none
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: No fix needed: creating the variable on the first call only, guarded by `if self.v is None`, is supported. A tool must NOT flag this.

import tensorflow as tf


class Accumulator(tf.Module):
    def __init__(self):
        super().__init__()
        self.total = None

    @tf.function
    def __call__(self, x):
        if self.total is None:
            self.total = tf.Variable(tf.zeros_like(x))
        self.total.assign_add(x)
        return self.total.read_value()


acc = Accumulator()
acc(tf.constant([1.0, 2.0]))
print(acc(tf.constant([1.0, 2.0])))
