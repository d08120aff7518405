# case: x604_side_effect_module_attribute_cache
# source: synthesised from https://www.tensorflow.org/guide/function#executing_python_side_effects (a counter attribute on a tf.Module)
# category: trace-time-side-effect|out-of-scope-tensor
# expect: warning
# raises on TF 2.21: nothing
# line: 20
# also: -
# fix: self.calls += 1 runs once per trace, so it stays at 1; keep the count in a tf.Variable (self.calls = tf.Variable(0) and self.calls.assign_add(1)).

import tensorflow as tf


class Tracker(tf.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    @tf.function
    def __call__(self, x):
        self.calls += 1
        return x * 2


t = Tracker()
for _ in range(4):
    t(tf.constant(1.0))
print("calls counted:", t.calls)
