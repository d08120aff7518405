import tensorflow as tf


class MyObj:
    def __init__(self):
        self.value = tf.Variable(0)


obj = MyObj()


@tf.function
def with_py_side_effect(tensorflow_stuff, o):
    o.value.assign_add(1)
    return tensorflow_stuff


for i in range(5):
    with_py_side_effect(tf.constant(i), obj)
print(obj.value.numpy())
