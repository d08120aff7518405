# case: x114_branch_var_missing_in_elif_of_module_method
# source: synthesised from TF AutoGraph reference (control_flow.md: a variable used after a tensor if must be defined in every branch); cf. https://github.com/tensorflow/tensorflow/issues/40916
# category: branch-mismatch
# expect: error
# raises on TF 2.21: ValueError
# line: 18
# also: 16,17,19,20
# fix: An if/elif without a final else leaves `gain` undefined on one path; add `else: gain = 1.0` (or set gain before the if).

import tensorflow as tf


class AutoGain(tf.Module):
    @tf.function
    def __call__(self, x):
        if tf.reduce_mean(x) > 1.0:
            gain = 0.5
        elif tf.reduce_mean(x) < -1.0:
            gain = 2.0
        return x * gain


print(AutoGain()(tf.constant([3.0, 4.0])))
