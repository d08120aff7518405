# case: x610_map_print_under_eager_switch
# source: https://github.com/tensorflow/tensorflow/issues/39320
# category: data-pipeline
# expect: warning
# raises on TF 2.21: -
# line: 18
# also: 12, 19
# fix: tf.data traces map functions once as graphs even with run_functions_eagerly(True); use tf.print for per-element output, or tf.data.experimental.enable_debug_mode() while debugging.

import tensorflow as tf

tf.config.run_functions_eagerly(True)  # "so that I can debug the pipeline"

seen = []


def read_tfrecord(x):
    print("Dummy function, element:", x)
    seen.append(x)
    return x * 2


dataset = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5])
dataset = dataset.map(lambda x: read_tfrecord(x))
values = [int(v) for v in dataset]
print("elements produced:", values)
print("python body ran", len(seen), "time(s) for", len(values), "elements")
