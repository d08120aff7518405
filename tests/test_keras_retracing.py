"""TensorFlow's own count of frequent traces, for Keras' step functions made per model.

Keras keeps the traced predict function on the model: a model built per call traces it each
time. TensorFlow's detector counts those traces (by the step function's code) and warns; the
trace logger turns that into a warning at the user's line that made the calls. Near misses:
one model reused, and a few models each traced once, which TensorFlow does not count as
frequent.
"""
import warnings

import numpy as np
import pytest
import tensorflow as tf

from conftest import line_of
from tfdebug import trace_logger
from tfdebug.trace_log import RetracingWarning

HERE = __file__
keras = tf.keras


def _model():
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])


_SERVED = []  # kept alive, so the warning can tell new models from compile() again


def _serve_new(features):
    model = _model()
    _SERVED.append(model)
    return model.predict(features, verbose=0)  # <- predict per model


_KEPT = []


def _serve_kept(features):
    if not _KEPT:
        _KEPT.append(_model())
    return _KEPT[0].predict(features, verbose=0)


def _ensemble(models):
    def serve(features):
        return [m.predict(features, verbose=0) for m in models]
    return serve


def _warnings(serve, calls):
    with warnings.catch_warnings(record=True) as caught, trace_logger():
        warnings.simplefilter("always")
        for _ in range(calls):
            serve(np.ones((2, 4), np.float32))
    return [w for w in caught if issubclass(w.category, RetracingWarning) and "TFD209" in str(w.message)]


@pytest.mark.smoke
def test_a_model_built_per_call_and_predicted_is_warned_at_the_predict():
    found = _warnings(_serve_new, 6)
    assert len(found) == 1, found
    assert found[0].lineno == line_of(HERE, "# <- predict per model")
    assert "a new Sequential each time" in str(found[0].message)


_RECOMPILING = """
import numpy as np, warnings, keras, tfdebug
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
with tfdebug.trace_logger():
    for _ in range(6):
        model.compile(loss="mse")  # drops the traced predict function
        model.predict(np.ones((2, 4), np.float32), verbose=0)
"""


def test_one_model_compiled_before_each_predict_is_warned_without_claiming_new_models(tmp_path):
    """compile() drops the earlier step functions: which of a new model or compile() made
    them is not known, and the warning says both. In a process of its own: TensorFlow's
    detector warns at most twice per step function code in a process, and the test above
    has used that up in this one."""
    import subprocess
    import sys
    script = tmp_path / "recompiling.py"
    script.write_text(_RECOMPILING)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "TFD209" in proc.stderr and "a new model, or compile() again" in proc.stderr, \
        proc.stderr[-2000:]


@pytest.mark.parametrize("serve, calls", [(_serve_kept, 6), (_ensemble([_model() for _ in range(3)]), 2)],
                         ids=["one-model", "three-models-twice"])
def test_models_traced_once_each_are_not_warned(serve, calls):
    assert _warnings(serve, calls) == []
