# case: x205_side_effect_global_counter_in_helper
# source: https://github.com/google-research/seed_rl/issues/52
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: nothing
# line: 17
# also: 22
# fix: A global assigned in a helper of a tf.function changes only while tracing; keep the count in a tf.Variable (counter.assign_add(1)).

import tensorflow as tf

inference_calls = 0


def record_call():
    global inference_calls
    inference_calls += 1


@tf.function
def inference(obs):
    record_call()
    return tf.nn.softmax(obs)


for _ in range(4):
    inference(tf.constant([[1.0, 2.0]]))
print("calls:", inference_calls)
