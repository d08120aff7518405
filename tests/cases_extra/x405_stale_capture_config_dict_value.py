# case: x405_stale_capture_config_dict_value
# source: synthesised from https://www.tensorflow.org/guide/function#depending_on_python_global_and_free_variables
# category: stale-capture
# expect: warning
# raises on TF 2.21: nothing
# line: 17
# also: 22
# fix: A dict value read while tracing is frozen into the graph; keep the temperature in a tf.Variable or pass it as a tensor argument.

import tensorflow as tf

config = {"temperature": 1.0}


@tf.function
def soften(logits):
    return tf.nn.softmax(logits / config["temperature"])


logits = tf.constant([1.0, 2.0, 3.0])
print(soften(logits))
config["temperature"] = 10.0
print(soften(logits))
