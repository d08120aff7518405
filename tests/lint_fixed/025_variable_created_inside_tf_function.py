import tensorflow as tf

b = tf.Variable(12.)


@tf.function
def f():
    a = tf.constant([[10, 10], [11., 1.]])
    x = tf.constant([[1., 0.], [0., 1.]])
    y = tf.matmul(a, x) + b
    return y


print(f())
