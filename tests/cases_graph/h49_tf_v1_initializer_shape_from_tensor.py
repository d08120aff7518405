# category: generic:-
# line: 12
# mechanism: near miss of h46: the same int() refusal raised in TensorFlow's own code (the
# v1 initializer's fan computation), not in Keras': not keras-misuse
import tensorflow as tf

init = tf.compat.v1.glorot_uniform_initializer(seed=0)


@tf.function
def project(x):
    kernel = init((tf.shape(x)[1], 4))
    return tf.matmul(x, kernel)


print(project(tf.ones([2, 3])))
