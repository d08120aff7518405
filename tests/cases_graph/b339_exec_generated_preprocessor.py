# case: b339_exec_generated_preprocessor
# source: https://github.com/tensorflow/tensorflow/issues/24759
# category: autograph-conversion
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 23
# also: 15, 32
# fix: AutoGraph can't read the source of exec-generated functions, so their `if` stays Python; define the helper in a real module/file, or use tf.cond / tf.where explicitly.

import tensorflow as tf

PREPROCESS_TEMPLATE = """
def {name}(x):
    lo = tf.reduce_min(x)
    if lo < 0.0:
        x = x - lo
    return x / (tf.reduce_max(x) + 1e-6)
"""


def compile_preprocessor(name):
    namespace = {"tf": tf}
    exec(PREPROCESS_TEMPLATE.format(name=name), namespace)
    return namespace[name]


shift_and_scale = compile_preprocessor("shift_and_scale")


@tf.function
def preprocess_batch(batch):
    return tf.map_fn(shift_and_scale, batch)


if __name__ == "__main__":
    print(shift_and_scale(tf.constant([-1.0, 2.0])))   # eager: works
    print(preprocess_batch(tf.constant([[-1.0, 2.0], [3.0, 4.0]])))
