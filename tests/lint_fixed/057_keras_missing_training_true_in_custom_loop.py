import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.BatchNormalization(), keras.layers.Dense(1)])
opt = keras.optimizers.SGD(0.1)
bn = model.layers[0]


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = tf.reduce_mean((pred - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


x = tf.random.normal([16, 3]) + 5.0
for _ in range(3):
    train_step(x, tf.ones([16, 1]))
print(bn.moving_mean.numpy())
