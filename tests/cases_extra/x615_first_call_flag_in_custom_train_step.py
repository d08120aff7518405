# case: x615_first_call_flag_in_custom_train_step
# source: https://github.com/andreped/GradientAccumulator/issues/102
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: -
# line: 29
# also: 30, 31
# fix: A Python flag checked in train_step is evaluated once while Keras traces the train function, so the reset is baked into every step; keep such state in a tf.Variable and branch with tf.cond, or reset the accumulators outside train_step (e.g. in a callback).

import numpy as np
import keras
import tensorflow as tf

ACCUM_STEPS = 2


class AccumModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.first_call = True
        self.accum_count = tf.Variable(0, trainable=False)

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        if self.first_call:
            self.accum_count.assign(0)
            self.first_call = False
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
        grads = tape.gradient(loss, self.trainable_variables)
        self.accum_count.assign_add(1)

        def apply():
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return tf.constant(True)

        tf.cond(self.accum_count % ACCUM_STEPS == 0, apply, lambda: tf.constant(False))
        return {"loss": loss}


model = AccumModel()
model.compile(optimizer=keras.optimizers.SGD(0.1))
model(np.zeros((1, 3), "float32"))
model.optimizer.build(model.trainable_variables)
x = np.random.rand(32, 3).astype("float32")
y = np.random.rand(32, 1).astype("float32")
model.fit(x, y, batch_size=4, epochs=2, verbose=0)
print("batches: 16, optimizer updates applied:", int(model.optimizer.iterations.numpy()))
