# case: x611_step_made_per_fold_with_remainder_batches
# source: https://github.com/Eriri/brb/issues/2
# category: retracing
# expect: warning
# raises on TF 2.21: -
# line: 34
# also: 35, 49
# fix: Define the @tf.function step once at module/class level (taking model and optimizer state it needs as captured objects) instead of re-creating it inside training(), which is called in a loop.

import numpy as np
import tensorflow as tf

strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
trace_count = [0]

x_all = np.random.rand(120, 6).astype("float32")
y_all = np.random.randint(0, 2, size=(120,)).astype("float32")


def training(train_idx, epochs=2):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((6,)),
                                     tf.keras.layers.Dense(1, activation="sigmoid")])
        opt = tf.keras.optimizers.Adam(0.01)
    ds = tf.data.Dataset.from_tensor_slices((x_all[train_idx], y_all[train_idx])).batch(20)
    dist_ds = strategy.experimental_distribute_dataset(ds)

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.keras.losses.binary_crossentropy(y[:, None], model(x, training=True)))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    @tf.function
    def dist_train_step(x, y):
        trace_count[0] += 1
        per_replica = strategy.run(train_step, args=(x, y))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    for _ in range(epochs):
        for x, y in dist_ds:
            loss = dist_train_step(x, y)
    return float(loss)


folds = np.array_split(np.arange(120), 5)
for k in range(5):
    train_idx = np.concatenate([f for i, f in enumerate(folds) if i != k])
    print("fold", k, "loss", round(training(train_idx), 4))
print("dist_train_step traced", trace_count[0], "times for 5 folds")
