# category: keras-misuse
# line: 14
# mechanism: a Keras initializer (reached through tf.keras) given a shape built from
# tf.shape(x) in a tf.function: Python's int() refuses the graph tensor inside Keras' code
# (its fan computation), called from the user's line
import tensorflow as tf

init = tf.keras.initializers.HeNormal(seed=0)


@tf.function
def project(x):
    rows = tf.shape(x)[1]
    kernel = init(shape=(rows, 4))
    return tf.matmul(x, kernel)


print(project(tf.ones([2, 3])))
