"""A Keras optimizer's callable learning rate is the user's code the trace runs.

Keras 3 calls a plain callable learning rate each time the optimizer reads its rate
(``BaseOptimizer._get_current_learning_rate``): a traced step that applies gradients calls it
once and keeps the number. A global it reads that changes later is a stale capture, warned
at the callable's line; a step that never applies gradients never called it.
"""
import warnings

import numpy as np
import pytest
import tensorflow as tf

from conftest import line_of
from tfdebug import trace_logger
from tfdebug.trace_log import StaleCaptureWarning

HERE = __file__
RATE = 0.1


def _rate():
    return RATE  # <- rate


def _steps(step, change: bool):
    global RATE
    try:
        with warnings.catch_warnings(record=True) as caught, trace_logger() as log:
            warnings.simplefilter("always")
            step()
            if change:
                RATE = 0.01
            step()
    finally:
        RATE = 0.1
    return [(s.label, s.line) for s in log.stale_captures], \
        any(w.category is StaleCaptureWarning for w in caught)


def _applying_step():
    w = tf.Variable(1.0)
    optimizer = tf.keras.optimizers.SGD(learning_rate=_rate)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = w * w
        optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))

    return step


@pytest.mark.parametrize("change", [False, True])
def test_a_callable_rate_an_applying_step_called_is_a_stale_capture_when_its_global_changes(change):
    stale, warned = _steps(_applying_step(), change)
    assert stale == ([("RATE", line_of(HERE, "# <- rate"))] if change else [])
    assert warned == change


def test_a_step_that_never_applies_gradients_never_called_the_rate():
    w = tf.Variable(1.0)
    optimizer = tf.keras.optimizers.SGD(learning_rate=_rate)
    optimizer.build([w])

    @tf.function
    def step():
        return w + tf.cast(optimizer.iterations, tf.float32)

    assert _steps(step, True) == ([], False)


class _Lower(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        global RATE
        RATE = 0.01


def test_the_rate_of_a_compiled_optimizer_is_read_in_keras_train_function():
    global RATE
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=_rate), loss="mse")
    try:
        with warnings.catch_warnings(record=True), trace_logger() as log:
            warnings.simplefilter("always")
            model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[_Lower()])
    finally:
        RATE = 0.1
    assert [(s.label, s.line) for s in log.stale_captures] == [("RATE", line_of(HERE, "# <- rate"))]
