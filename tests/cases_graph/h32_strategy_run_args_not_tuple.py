# category: generic:distribute
# line: 12
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])

def replica_fn(x, y):
    return x + y

@tf.function
def step(x, y):
    return strategy.run(replica_fn, args=[x], kwargs=y)  # <-

step(tf.constant(1.0), tf.constant(2.0))
