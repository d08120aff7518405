# case: x602_clean_constant_global_config_and_isinstance_checks
# source: synthesised from https://www.tensorflow.org/guide/function#rules_of_tracing (patterns that trace a bounded number of times or are correct in graph mode)
# category: retracing|stale-capture|trace-time-side-effect
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: nothing to fix: a Python bool flag gives two traces by design, constants read at trace time never change, and Keras' own predict/evaluate handle varying batch sizes.

import tensorflow as tf

NUM_CLASSES = 5
LABELS = ("a", "b", "c", "d", "e")


@tf.function
def classify(logits):
    assert isinstance(logits, tf.Tensor)
    assert logits.shape[-1] == NUM_CLASSES, len(LABELS)
    names = []
    for label in LABELS:
        names.append(label.upper())
    return tf.argmax(logits, axis=-1), tf.constant(names)


for _ in range(5):
    classify(tf.random.normal([3, NUM_CLASSES]))
