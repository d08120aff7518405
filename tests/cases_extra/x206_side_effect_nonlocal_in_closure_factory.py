# case: x206_side_effect_nonlocal_in_closure_factory
# source: https://github.com/tensorflow/tensorflow/issues/33689
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: nothing
# line: 19
# also: 18
# fix: A nonlocal counter in a traced closure is updated once per trace, not per call; count with a tf.Variable created in the factory.

import tensorflow as tf


def make_step(model_scale):
    steps_done = 0

    @tf.function
    def step(x):
        nonlocal steps_done
        steps_done += 1
        return x * model_scale

    return step, lambda: steps_done


step, done = make_step(2.0)
for _ in range(5):
    step(tf.constant(1.0))
print("steps done:", done())
