# case: x510_clean_custom_loop_with_training_flags_and_metrics
# source: synthesised from https://keras.io/guides/writing_a_training_loop_from_scratch/ (a correct custom loop)
# category: keras-training-flag|trace-time-side-effect|retracing|stale-capture
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: nothing to fix: training= is explicit, metrics and the optimizer hold the state, and the batch shape never changes.

import keras
import tensorflow as tf

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8), keras.layers.Dropout(0.2),
                          keras.layers.BatchNormalization(), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam(1e-3)
loss_metric = keras.metrics.Mean()


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    loss_metric.update_state(loss)
    return loss


@tf.function
def eval_step(x):
    return model(x, training=False)


ds = tf.data.Dataset.from_tensor_slices((tf.ones([64, 4]), tf.ones([64, 1]))).batch(16, drop_remainder=True)
for epoch in range(2):
    loss_metric.reset_state()
    for x, y in ds:
        train_step(x, y)
    eval_step(tf.ones([16, 4]))
print(float(loss_metric.result()))
