# Excerpt (trimmed) of deepmind/sonnet @ 5a465696383f967d5bffb6599347d9e6c15cef4b: sonnet/src/conformance/optimizer_test.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import tensorflow as tf


class OptimizerConformanceTest(test_utils.TestCase, parameterized.TestCase):

  @test_utils.combined_named_parameters(
      BATCH_MODULES + RECURRENT_MODULES,
      test_utils.named_bools("construct_module_in_function"),
  )
  def test_variable_order_is_constant(self, module_fn, input_shape, dtype,
                                      construct_module_in_function):
    """Test that variable access order is consistent in built in modules."""
    logged_variables = []
    mod = [None]
    if not construct_module_in_function:
      mod[0] = module_fn()

    x = tf.zeros(input_shape, dtype=dtype)

    @tf.function(autograph=False)
    def f():
      with tf.GradientTape() as tape:
        if not mod[0]:
          mod[0] = module_fn()
        mod[0](x)  # pylint: disable=not-callable

      # Leak out the variables that were used.
      logged_variables.append(
          [(id(v), v.name) for v in tape.watched_variables()])

    # NOTE: This will run `f` twice iff `f` creates params.
    f()

    if len(logged_variables) == 1:
      self.skipTest("Module did not create variables in forward pass.")
    else:
      assert len(logged_variables) == 2
      self.assertCountEqual(logged_variables[0], logged_variables[1])
