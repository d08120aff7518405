# case: x623_logging_inside_tf_function_loop_logs_once
# source: https://github.com/YosefLab/epitome/issues/44
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: -
# line: 49
# also: -
# fix: Python logging inside tf.function runs only while tracing; use tf.print for in-graph logging, or return the loss and log from the eager Python loop.

import logging

import numpy as np
import tensorflow as tf
import keras


class Counter(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = 0

    def emit(self, record):
        self.records += 1


logger = logging.getLogger("trainer")
logger.setLevel(logging.INFO)
counter = Counter()
logger.addHandler(counter)

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.01)

x = np.random.rand(400, 4).astype("float32")
y = np.random.rand(400, 1).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)


@tf.function
def train(dataset):
    current_step = tf.constant(0, tf.int64)
    for xb, yb in dataset:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(xb, training=True) - yb))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        current_step += 1
        if current_step % 10 == 0:
            logger.info("step %s loss %s", current_step, loss)
    return current_step


steps = train(dataset)
print("steps:", int(steps), "log records:", counter.records, "expected:", int(steps) // 10)
