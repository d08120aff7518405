# case: x105_out_of_scope_tensor_cached_on_self
# source: https://github.com/tensorflow/tensorflow/issues/57756
# category: out-of-scope-tensor
# expect: error
# raises on TF 2.21: TypeError
# line: 20
# also: 25
# fix: A tensor made inside one tf.function and kept on `self` belongs to that function's graph; store it in a tf.Variable (self.mean.assign(...)) or return it.

import tensorflow as tf


class Standardizer(tf.Module):
    def __init__(self):
        super().__init__()
        self.mean = None

    @tf.function
    def adapt(self, x):
        self.mean = tf.reduce_mean(x)
        return self.mean

    @tf.function
    def __call__(self, x):
        return (x - self.mean) / 2.0


s = Standardizer()
s.adapt(tf.constant([1.0, 2.0, 3.0]))
print(s(tf.constant([4.0])))
