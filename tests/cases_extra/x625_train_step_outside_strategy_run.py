# case: x625_train_step_outside_strategy_run
# source: https://github.com/tensorflow/tensorflow/issues/43974
# category: distribute
# expect: error
# raises on TF 2.21: ValueError
# line: 32
# also: -
# fix: Under MirroredStrategy the per-replica step (forward pass, gradients, apply_gradients) must run in replica context: call it through strategy.run(train_step, args=...) inside a tf.function instead of calling it directly.

import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(
    cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
mirrored_strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

with mirrored_strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


with mirrored_strategy.scope():
    print(train_step(tf.ones((4, 3)), tf.ones((4, 1))))
