# case: x204_retrace_new_config_object_per_call
# source: https://github.com/YosefLab/epitome/issues/43
# category: retracing
# expect: warning
# raises on TF 2.21: nothing
# line: 27
# also: 18,19
# fix: A new Python object is a new trace key (objects are compared by identity); create the config once and reuse it, or pass its values as tensors.

import tensorflow as tf


class EvalConfig:
    def __init__(self, threshold):
        self.threshold = threshold


@tf.function
def predict_step(x, cfg):
    return tf.cast(x > cfg.threshold, tf.int32)


x = tf.constant([0.1, 0.6, 0.9])
counts = []
for batch in range(6):
    cfg = EvalConfig(0.5)
    counts.append(int(tf.reduce_sum(predict_step(x, cfg))))
print(counts, predict_step.experimental_get_tracing_count())
