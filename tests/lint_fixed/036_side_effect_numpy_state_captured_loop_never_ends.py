import numpy as np
import tensorflow as tf


class Test:
    @tf.function
    def tf_func(self, counter):
        return tf.reduce_sum(counter) == 5


t = Test()
flags = []
for i in range(1, 8):
    flags.append(bool(t.tf_func(tf.constant(np.ones(i)))))
print(flags)
