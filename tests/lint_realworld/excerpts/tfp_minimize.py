# Excerpt (trimmed) of tensorflow/probability @ c847a4160de33119ec44cf47ebc750d9659cb515: tensorflow_probability/python/math/minimize.py
# Licensed under the Apache License, Version 2.0 (Copyright the original authors);
# kept as test data for tfdebug lint's real-world precision (tests/lint_realworld).

import functools

import tensorflow.compat.v2 as tf

from tensorflow_probability.python.math.gradient import value_and_gradient


def _minimize_common(num_steps,
                     optimizer_step_fn,
                     initial_parameters,
                     initial_optimizer_state,
                     convergence_criterion,
                     batch_convergence_reduce_fn,
                     trace_fn,
                     return_full_length_trace=True,
                     jit_compile=False,
                     seed=None,
                     name='minimize'):
  """General-purpose optimization loop."""
  if jit_compile:
    # Run the entire minimization inside a jit-compiled function. This is
    # typically faster than jit-compiling the individual steps.
    kwargs = dict(locals())
    kwargs['jit_compile'] = False
    @tf.function(autograph=False, jit_compile=True)
    def run_jitted_minimize():
      return _minimize_common(**kwargs)
    return run_jitted_minimize()

  return _run_optimization(num_steps, optimizer_step_fn, initial_parameters)


def _make_stateless_optimizer_step_fn(loss_fn, optimizer):
  """Constructs a single step of a pure functional optimizer."""

  @tf.function(autograph=False)
  def optimizer_step(parameters, optimizer_state, seed=None):
    """Runs a single optimization step."""
    try:
      loss, grads = value_and_gradient(functools.partial(loss_fn, seed=seed),
                                       parameters)
    except TypeError:
      loss, grads = value_and_gradient(loss_fn, parameters)
    # Coerce grads to the same sequence type (e.g., namedtuple) as parameters.
    grads = tf.nest.pack_sequence_as(parameters, tf.nest.flatten(grads))
    updates, optimizer_state = optimizer.update(grads,
                                                optimizer_state,
                                                parameters)
    # Apply updates.
    parameters = tf.nest.map_structure(lambda a, b: a + b, parameters, updates)
    return loss, grads, parameters, optimizer_state
  return optimizer_step



def minimize_stateless(loss_fn,
                       init,
                       num_steps,
                       optimizer,
                       convergence_criterion=None,
                       batch_convergence_reduce_fn=tf.reduce_all,
                       trace_fn=None,
                       return_full_length_trace=True,
                       jit_compile=False,
                       seed=None,
                       name='minimize_stateless'):
  return _minimize_common(
      num_steps=num_steps,
      optimizer_step_fn=_make_stateless_optimizer_step_fn(
          loss_fn=loss_fn, optimizer=optimizer),
      initial_parameters=init,
      initial_optimizer_state=optimizer.init(init),
      convergence_criterion=convergence_criterion,
      batch_convergence_reduce_fn=batch_convergence_reduce_fn,
      trace_fn=trace_fn,
      return_full_length_trace=return_full_length_trace,
      jit_compile=jit_compile,
      seed=seed,
      name=name)
