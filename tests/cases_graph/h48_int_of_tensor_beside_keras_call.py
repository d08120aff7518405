# category: generic:-
# line: 14
# mechanism: near miss of h46: Python refuses the graph tensor in the user's own int()
# (AutoGraph does not convert the function), at a line that also calls a Keras initializer:
# not Keras' refusal, so not keras-misuse
import keras
import tensorflow as tf

init = keras.initializers.GlorotUniform(seed=0)


@tf.autograph.experimental.do_not_convert
def project(x):
    return tf.matmul(x, init(shape=(int(tf.shape(x)[1]), 4)))


print(tf.function(project)(tf.ones([2, 3])))
