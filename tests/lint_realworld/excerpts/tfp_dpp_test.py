# Excerpt (trimmed) of tensorflow/probability @ c847a4160de33119ec44cf47ebc750d9659cb515: tensorflow_probability/python/distributions/dpp_test.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import tensorflow as tf

from tensorflow_probability.python.distributions import dpp as dpp_lib
from tensorflow_probability.python.internal import test_util


class _DppTest(test_util.TestCase):


  def testXLASample(self):
    self.skip_if_no_xla()

    _, eigvals, eigvecs = kernel_over_unit_square(20, dtype=self.param_dtype)
    for n in 1, 5:
      @tf.function(jit_compile=True)
      def f(eigvals):
        return dpp_lib.DeterminantalPointProcess(eigvals, eigvecs).sample(
            n, seed=test_util.test_seed())  # pylint: disable=cell-var-from-loop
      self.evaluate(f(eigvals))
