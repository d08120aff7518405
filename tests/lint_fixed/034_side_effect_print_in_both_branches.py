import tensorflow as tf


@tf.function
def foo(a):
    if a[0] > 3:
        tf.print("here in first condition")
        b = a * 2
    else:
        tf.print("here in second condition")
        b = a * 3
    return b


print(foo(tf.constant([5, 2, 3])))
