# category: variable-creation|distribute
# line: 10
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])

@tf.function
def step(x):
    def replica_fn(x):
        v = tf.Variable(1.0)  # <-
        return v * x
    return strategy.run(replica_fn, args=(x,))

with strategy.scope():
    step(tf.constant(1.0))
