# Excerpt (trimmed) of tensorflow/probability @ c847a4160de33119ec44cf47ebc750d9659cb515: tensorflow_probability/python/experimental/nn/util/random_variable_test.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import tensorflow.compat.v2 as tf
from tensorflow_probability.python.distributions import bernoulli
from tensorflow_probability.python.distributions import distribution
from tensorflow_probability.python.distributions import normal
from tensorflow_probability.python.experimental.nn.util import random_variable
from tensorflow_probability.python.internal import tensorshape_util
from tensorflow_probability.python.internal import test_util


@test_util.test_all_tf_execution_regimes
class RandomVariableTest(test_util.TestCase):

  def test_nested_graphs(self):
    if tf.config.functions_run_eagerly():
      self.skipTest('Graph mode test only.')
    x = random_variable.RandomVariable(
        normal.Normal(0, 1), distribution.Distribution.mean, name='rv')
    @tf.function(autograph=False, jit_compile=True)
    def run():
      @tf.function(autograph=False, jit_compile=True)
      def _inner():
        return tf.convert_to_tensor(x, name='inner')
      y = _inner()
      z = tf.convert_to_tensor(x, name='outer')
      return y, z
    with self.assertRaisesRegex(ValueError, r'different graph context'):
      run()
