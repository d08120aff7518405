# category: distribute
# line: 10
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])

@tf.function
def step(x):
    def replica_fn(x):
        return strategy.reduce("SUM", x, axis=None)  # <-
    return strategy.run(replica_fn, args=(x,))

step(tf.constant(1.0))
