import tensorflow as tf

x = tf.ones([1])
y = tf.ones([1])


@tf.function
def f(x, y):
    return x + y


print(f(x, y).numpy())
