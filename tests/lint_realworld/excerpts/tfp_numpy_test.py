# Excerpt (trimmed) of tensorflow/probability @ c847a4160de33119ec44cf47ebc750d9659cb515: tensorflow_probability/python/internal/backend/numpy/numpy_test.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import functools

from absl import flags
from absl import logging
from absl.testing import parameterized

import hypothesis as hp
import hypothesis.extra.numpy as hnp
import hypothesis.strategies as hps
import mock
import six
import tensorflow.compat.v1 as tf1
import tensorflow.compat.v2 as tf

import numpy as np  # Rewritten by script to import jax.numpy
import numpy as onp  # pylint: disable=reimported
import scipy.special as scipy_special

from tensorflow_probability.python.internal import dtype_util
from tensorflow_probability.python.internal import hypothesis_testlib as tfp_hps
from tensorflow_probability.python.internal import test_util
from tensorflow_probability.python.internal.backend import numpy as nptf
from tensorflow_probability.python.internal.backend.numpy import functional_ops as np_pfor
from tensorflow.python.ops.parallel_for import control_flow_ops as tf_pfor_control_flow_ops  # pylint: disable=g-direct-tensorflow-import

FLAGS = flags.FLAGS
JAX_MODE = False


class NumpyTest(test_util.TestCase):

  @parameterized.named_parameters(NUMPY_TEST_CASES)
  def testConsistency(self,
                      tensorflow_function,
                      numpy_function,
                      strategy_list,
                      atol=1e-5,
                      rtol=1e-5,
                      disabled=False,
                      xla_disabled=False,
                      xla_atol=None,
                      xla_rtol=None,
                      xla_const_args=(),
                      assert_shape_only=False,
                      post_processor=None,
                      jax_kwargs=lambda: {},
                      name=None):
    if disabled:
      self.skipTest('Test is disabled.')
    if name in FLAGS.xla_disabled:
      xla_disabled = True
    if (xla_disabled ^ FLAGS.only_disabled) and FLAGS.test_mode == 'xla':
      self.skipTest('Test is disabled.')
    if FLAGS.test_mode == 'xla':
      rtol = rtol if xla_rtol is None else xla_rtol
      atol = atol if xla_atol is None else xla_atol
    for strategy in strategy_list:
      @tfp_hps.tfp_hp_settings(max_examples=10, derandomize=True)
      @hp.given(strategy)
      def check_consistency(tf_fn, np_fn, args):
        # If `args` is a single item, put it in a tuple
        if isinstance(args, (onp.ndarray, np.ndarray)) or tf.is_tensor(args):
          args = (args,)
        kwargs = {}
        if isinstance(args, Kwargs):
          kwargs = args
          args = ()
        tensorflow_value = self.evaluate(
            tf_fn(*_maybe_convert_to_tensors(args),
                  **_maybe_convert_to_tensors(kwargs)))

        if FLAGS.test_mode == 'xla':
          zero = tf.zeros([])
          const_args = tuple(
              [a if i in xla_const_args else None for i, a in enumerate(args)])
          nonconst_args = tuple(
              [zero if i in xla_const_args else a for i, a in enumerate(args)])
          const_kwargs = {
              k: v for k, v in kwargs.items() if k in xla_const_args}
          nonconst_kwargs = {
              k: zero if k in xla_const_args else v for k, v in kwargs.items()}
          args = _maybe_convert_to_tensors(nonconst_args)
          kwargs = _maybe_convert_to_tensors(nonconst_kwargs)
          def const_closure(*args, **kwargs):
            args = [const_args[i] if i in xla_const_args else arg
                    for i, arg in enumerate(args)]
            kwargs = dict(kwargs, **const_kwargs)
            return tf_fn(*args, **kwargs)

          tpu_strategy = self.tpu_strategy()
          if tpu_strategy is None:
            alt_value = self.evaluate(
                tf.function(
                    lambda args, kwargs: const_closure(*args, **kwargs),
                    jit_compile=True)(nonconst_args, nonconst_kwargs))
          else:
            alt_value = self.evaluate(
                tpu_strategy.run(tf.function(const_closure),
                                 args=nonconst_args, kwargs=nonconst_kwargs))
            alt_value = tf.nest.map_structure(lambda t: t.values[0], alt_value)
        else:
          kwargs.update(jax_kwargs() if JAX_MODE else {})
          alt_value = np_fn(*args, **kwargs)

        def assert_same_dtype(x, y):
          self.assertEqual(dtype_util.as_numpy_dtype(x.dtype),
                           dtype_util.as_numpy_dtype(y.dtype))
        tf.nest.map_structure(assert_same_dtype, tensorflow_value, alt_value)

        if post_processor is not None:
          alt_value = post_processor(alt_value)
          tensorflow_value = post_processor(tensorflow_value)

        if assert_shape_only:
          def assert_same_shape(x, y):
            self.assertAllEqual(x.shape, y.shape)

          tf.nest.map_structure(assert_same_shape, tensorflow_value, alt_value)
        else:
          for i, (tf_val, alt_val) in enumerate(six.moves.zip_longest(
              tf.nest.flatten(tensorflow_value), tf.nest.flatten(alt_value))):
            self.assertAllCloseAccordingToType(
                tf_val, alt_val, atol=atol, rtol=rtol,
                msg='output {}'.format(i))

      check_consistency(tensorflow_function, numpy_function)
