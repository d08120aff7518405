# case: c18_distribute_set_strategy_inside_scope
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: distribute
# expect: error
# raises on TF 2.21: RuntimeError
# line: 15
# fix: Set the default strategy outside any strategy scope.


import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
with strategy.scope():
    model_weights = tf.Variable(tf.zeros([3]))
    tf.distribute.experimental_set_strategy(strategy)
