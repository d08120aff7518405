# case: x620_returned_global_batch_share_averaged
# source: https://github.com/keras-team/keras/pull/16922
# category: distribute
# expect: warning
# raises on TF 2.21: none
# line: 30
# also:
# fix: Per-replica losses scaled by the global batch size must be combined with ReduceOp.SUM, not MEAN (MEAN divides by the number of replicas a second time).

import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
GLOBAL_BATCH = 8

with strategy.scope():
    w = tf.Variable([[2.0], [-1.0]])


def step_fn(x, y):
    per_example = tf.reduce_sum(tf.square(tf.matmul(x, w) - y), axis=1)
    return tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)


@tf.function
def distributed_loss(batch):
    per_replica = strategy.run(step_fn, args=batch)
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)


x = np.random.rand(GLOBAL_BATCH, 2).astype("float32")
y = np.random.rand(GLOBAL_BATCH, 1).astype("float32")
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
dist_ds = strategy.experimental_distribute_dataset(ds)
expected = float(np.mean(np.sum((x @ np.array([[2.0], [-1.0]]) - y) ** 2, axis=1)))
for batch in dist_ds:
    print("reported loss:", float(distributed_loss(batch)), "true mean loss:", round(expected, 5))
