# case: x211_stale_capture_global_threshold
# source: http://ishangsf.com:8100/ishangsf/rspec/raw/branch/rule/S6549-add-kotlin/rules/S6911/python/rule.adoc
# category: stale-capture
# expect: warning
# raises on TF 2.21: nothing
# line: 17
# also: 22
# fix: A global read in a tf.function is frozen at its value when the function was traced; pass it as an argument (a tensor) or keep it in a tf.Variable.

import tensorflow as tf

threshold = 0.5


@tf.function
def detect(scores):
    return tf.reduce_sum(tf.cast(scores > threshold, tf.int32))


scores = tf.constant([0.2, 0.4, 0.6, 0.8])
print("threshold 0.5:", int(detect(scores)))
threshold = 0.3
print("threshold 0.3:", int(detect(scores)))
print("threshold 0.3 (tf.function ignores it):", int(detect(scores + 0.0)))
