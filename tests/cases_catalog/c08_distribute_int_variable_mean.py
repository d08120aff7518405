# case: c08_distribute_int_variable_mean
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: distribute
# expect: error
# raises on TF 2.21: ValueError
# line: 14
# fix: MEAN aggregation needs a float variable; use ONLY_FIRST_REPLICA or SUM for an integer counter.


import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
with strategy.scope():
    step = tf.Variable(0, trainable=False, aggregation=tf.VariableAggregation.MEAN)
print(step)
