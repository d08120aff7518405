# case: x101_bool_builtin_max_in_module_method
# source: synthesised from TF AutoGraph reference (builtins other than len/range/print/... are not converted); cf. https://github.com/tensorflow/tensorflow/issues/40916
# category: tensor-as-bool
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 21
# also: -
# fix: Python's max() compares its arguments and needs a real bool; AutoGraph does not convert it. Use tf.maximum(peak, self.floor).

import tensorflow as tf


class Normalizer(tf.Module):
    def __init__(self, floor):
        super().__init__()
        self.floor = floor

    @tf.function
    def __call__(self, x):
        peak = tf.reduce_max(tf.abs(x))
        scale = max(peak, self.floor)
        return x / scale


print(Normalizer(1.0)(tf.constant([0.5, -2.0, 1.5])))
