"""Keras' loop state read at the error: ``compile()`` run while ``fit`` runs.

``compile()`` sets the model's step functions back to None; Keras' loop then calls None. The
proof is the loop's own frame (the attribute its line calls is None on its model), the cause
is the ``compile()`` call in a callback the loop holds. Near misses: a None the user's own
code calls, and a step function the user calls after compiling.
"""
import inspect

import numpy as np
import pytest
import tensorflow as tf

import tfdebug
from tfdebug.diagnosis import diagnose

keras = tf.keras


def _model():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, trainable=False),
                              keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


class _Unfreeze(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 0:
            self.model.layers[0].trainable = True
            self.model.compile(optimizer="adam", loss="mse")  # <- recompiled


class _CallsItsHook(keras.callbacks.Callback):
    hook = None

    def on_epoch_end(self, epoch, logs=None):
        self.hook()  # <- own None


def _line(obj, marker):
    lines, start = inspect.getsourcelines(obj)
    return start + next(i for i, text in enumerate(lines) if marker in text)


def _fit(callback):
    with pytest.raises(TypeError) as info, tfdebug.explain():
        _model().fit(np.ones((8, 4)), np.ones((8, 1)), epochs=2, verbose=0, callbacks=[callback])
    return diagnose(info.value)


@pytest.mark.smoke
def test_compile_in_a_callback_during_fit_is_keras_misuse_at_the_compile():
    d = _fit(_Unfreeze())
    assert d is not None and d.recipe is not None and d.recipe.id == "TFD191", d
    assert d.category == "keras-misuse" and d.line == _line(_Unfreeze, "<- recompiled"), d


def test_a_none_the_users_callback_calls_is_not_keras_misuse():
    d = _fit(_CallsItsHook())
    assert d is None or d.recipe is None or d.recipe.id != "TFD191", d


def test_the_user_calling_a_step_function_compile_reset_is_not_keras_misuse():
    model = _model()
    model.fit(np.ones((8, 4)), np.ones((8, 1)), epochs=1, verbose=0)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(TypeError) as info, tfdebug.explain():
        model.train_function(iter([]))
    d = diagnose(info.value)
    assert d is None or d.recipe is None or d.recipe.id != "TFD191", d
