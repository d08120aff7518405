# case: x201_retrace_python_int_step_in_module_method
# source: https://github.com/keiohta/tf2rl/issues/99
# category: retracing
# expect: warning
# raises on TF 2.21: nothing
# line: 27
# also: 17,18
# fix: A Python int argument is part of the trace key, so every new step number traces the method again; pass the step as a tensor (tf.constant(step)) or keep it in a tf.Variable.

import tensorflow as tf


class Policy(tf.Module):
    def __init__(self):
        self.w = tf.Variable(tf.ones([3, 2]))

    @tf.function
    def act(self, obs, step):
        noise = 1.0 / (1.0 + step)
        return tf.matmul(obs, self.w) + noise


policy = Policy()
obs = tf.ones([1, 3])
actions = []
for step in range(6):
    actions.append(policy.act(obs, step))
print(policy.act.experimental_get_tracing_count())
