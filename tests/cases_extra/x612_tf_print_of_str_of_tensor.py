# case: x612_tf_print_of_str_of_tensor
# source: https://github.com/tensorflow/tensorflow/issues/37522
# category: string-format
# expect: warning
# raises on TF 2.21: -
# line: 24
# also: -
# fix: str() of a symbolic tensor is a trace-time placeholder name; pass the tensor itself to tf.print (tf.print("step", step, "loss", loss)).

import tensorflow as tf

model = tf.keras.layers.Dense(1)
opt = tf.keras.optimizers.SGD(0.1)
x = tf.random.normal([16, 3])
y = tf.reduce_sum(x, axis=1, keepdims=True)


@tf.function
def train_step(step):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    tf.print("step " + str(step) + " loss " + str(loss))
    return loss


for step in tf.range(3):
    train_step(step)
