# Excerpt (trimmed) of tensorflow/docs @ 7c3650212740204359d4ceae481abc79345541be: site/en/guide/random_numbers.ipynb
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import tensorflow as tf


g = tf.random.Generator.from_seed(1)

g = tf.random.Generator.from_seed(1)


g = tf.random.Generator.from_seed(1)

@tf.function
def foo():
  global g
  if g is None:
    g = tf.random.Generator.from_seed(1)
  return g.normal([])

@tf.function
def foo(g):
  global num_traces
  num_traces += 1
  return g.normal([])

@tf.function
def foo(v):
  global num_traces
  num_traces += 1
  return v.read_value()

g = tf.random.Generator.from_seed(1)

with strat.scope():
  g = tf.random.Generator.from_seed(1)
  print(strat.run(lambda: g.normal([])))
  print(strat.run(lambda: g.normal([])))

with strat.scope():
  def f():
    g = tf.random.Generator.from_seed(1)
    a = g.normal([])
    b = g.normal([])
    return tf.stack([a, b])
  print(strat.run(f))
  print(strat.run(f))

g = tf.random.Generator.from_seed(1)


with strat.scope():
  g = tf.random.Generator.from_seed(1)
  cp = tf.train.Checkpoint(my_generator=g)
  print(strat.run(lambda: g.normal([])))


