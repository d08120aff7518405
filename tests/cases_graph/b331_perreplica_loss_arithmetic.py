# case: b331_perreplica_loss_arithmetic
# source: https://github.com/leondgarse/Keras_insightface/issues/68
# category: distribute
# expect: error
# raises on TF 2.21: TypeError
# line: 31
# also: 30, 32
# fix: strategy.run returns PerReplica values; combine them with strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None) before doing arithmetic.

import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

with strategy.scope():
    emb = tf.Variable(tf.random.normal([4, 2]))


def replica_eval(x):
    logits = x @ emb
    return tf.reduce_mean(tf.nn.softmax(logits)[:, 0]), tf.cast(tf.shape(x)[0], tf.float32)


@tf.function
def eval_epoch(dist_ds):
    total = tf.constant(0.0)
    count = tf.constant(0.0)
    for batch in dist_ds:
        score, n = strategy.run(replica_eval, args=(batch,))
        total = total + score * n
        count = count + n
    return total / count


if __name__ == "__main__":
    ds = tf.data.Dataset.from_tensor_slices(tf.random.normal([16, 4])).batch(8)
    print(eval_epoch(strategy.experimental_distribute_dataset(ds)))
