"""trace_logger() with Keras training and tf.distribute: traces land on the user's lines."""
import json
import os
import textwrap
import warnings

import numpy as np
import pytest
import tensorflow as tf

keras = pytest.importorskip("keras")

from tfdebug import report  # noqa: E402
from tfdebug.trace_log import RetracingWarning, trace_logger  # noqa: E402

from conftest import line_of  # noqa: E402

HERE = os.path.abspath(__file__)


def _line_of(text: str) -> int:
    """The line number in this file of the first line containing ``text``."""
    return line_of(HERE, text)


def _model():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    return model


def test_model_fit_with_varying_batch_sizes_is_attributed_to_the_fit_line_and_no_alarm():
    model = _model()
    x, y = np.zeros((10, 4), "float32"), np.zeros((10, 1), "float32")
    with warnings.catch_warnings(record=True) as caught, report.collecting() as findings:
        warnings.simplefilter("always")
        with trace_logger(warn_after=1) as log:
            for batch_size in (8, 5, 3):           # partial last batches: 2, 5 and 1 rows
                model.fit(x, y, batch_size=batch_size, epochs=1, verbose=0)  # the fit
    train = [e for e in log.events if "step_on" in e.name]
    assert train, [e.name for e in log.events]
    assert {(e.call_file, e.call_line) for e in train} == {(HERE, _line_of("# the fit"))}
    assert not [e for e in train if e.kind == "retrace"]   # Keras generalises the batch size
    assert all(not e.user_code and "(keras)" in e.function for e in train)
    assert not [w for w in caught if issubclass(w.category, RetracingWarning)]
    assert not [f for f in findings if f.category == "retracing"]
    assert log.functions() == []   # Keras's own functions are listed only when they retrace
    assert {f["name"] for f in log.functions(library=True)} >= {e.name for e in train}


def test_custom_training_step_with_varying_batches_is_explained_and_fixed():
    model = _model()
    optimizer = keras.optimizers.SGD(0.01)
    optimizer.build(model.trainable_variables)

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    batches = [(tf.ones([n, 4]), tf.ones([n, 1])) for n in (32, 16, 8)]
    step = tf.function(train_step)
    with warnings.catch_warnings(), trace_logger(warn_after=None) as log:
        for xb, yb in batches:
            step(xb, yb)  # the training call
    user = [e for e in log.events if e.function.endswith("train_step")]
    assert [e.kind for e in user][:1] == ["first"]
    retraces = [e for e in user if e.kind == "retrace"]
    assert [str(r) for r in retraces[0].reasons] == [
        "x: shape (32, 4) -> (16, 4)", "y: shape (32, 1) -> (16, 1)"]
    assert all(e.call_line == _line_of("# the training call") for e in user)
    code = log.input_signature(train_step)
    assert code == ("[tf.TensorSpec(shape=[None, 4], dtype=tf.float32), "
                    "tf.TensorSpec(shape=[None, 1], dtype=tf.float32)]")
    fixed = tf.function(train_step, input_signature=eval(code, {"tf": tf}))  # noqa: S307
    for xb, yb in batches:
        fixed(xb, yb)
    assert fixed.experimental_get_tracing_count() == 1


MIRRORED = textwrap.dedent('''\
    import json, os
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    import keras
    import tfdebug

    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
        optimizer = keras.optimizers.SGD(0.1)
        optimizer.build(model.trainable_variables)

    @tf.function
    def step_fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def train_step(x, y):
        per_replica = strategy.run(step_fn, args=(x, y))
        return strategy.reduce("SUM", per_replica, axis=None)

    with tfdebug.trace_logger(warn_after=None) as log:
        for n in (8, 6):
            ds = tf.data.Dataset.from_tensor_slices((tf.ones([n, 4]), tf.ones([n, 2]))).batch(n)
            for x, y in strategy.experimental_distribute_dataset(ds):
                train_step(x, y)
    print("REPLICAS", strategy.num_replicas_in_sync)
    print("JSON", json.dumps([{k: f[k] for k in ("function", "file", "count", "retraces",
                                                  "reasons", "call_line", "input_signature")}
                              for f in log.functions()]))
''')


def test_mirrored_strategy_over_two_logical_cpus_attributes_traces_to_the_users_functions(
        tmp_path, forked_python):
    script = tmp_path / "mirrored.py"
    script.write_text(MIRRORED)
    # `python SCRIPT` in a fork of the case server: TensorFlow imported, its runtime not
    # started (the script sets up two logical CPUs); its log level is the server's already
    result = forked_python(script, cwd=tmp_path, env={"TF_CPP_MIN_LOG_LEVEL": "3"},
                           timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines()
                 if line.startswith(("REPLICAS", "JSON")))
    assert lines["REPLICAS"] == "2"
    functions = {f["function"]: f for f in json.loads(lines["JSON"])}
    assert set(functions) == {"train_step", "step_fn (per replica)"}
    source = MIRRORED.splitlines()
    for name, call in (("train_step", "train_step(x, y)"),
                       ("step_fn (per replica)", "strategy.run(step_fn")):
        f = functions[name]
        assert f["file"] == str(script)
        assert (f["count"], f["retraces"]) == (2, 1)
        assert call in source[f["call_line"] - 1]
        assert f["reasons"] == ["x: 2 shapes (4, 4), (3, 4)", "y: 2 shapes (4, 2), (3, 2)"]
        assert f["input_signature"] is None   # per-replica values have no TensorSpec


class _Temperature(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.temperature = 1.0
        self.name_tag = "fixed"

    def call(self, logits):
        tag = self.name_tag  # read, never changed
        return logits / self.temperature if tag else logits  # the temperature read


def test_layer_attribute_changed_between_fits_is_a_stale_capture():
    temp = _Temperature()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), temp])
    model.compile("sgd", "mse")
    x, y = np.ones((8, 4), "float32"), np.zeros((8, 3), "float32")
    with warnings.catch_warnings(record=True), report.collecting() as findings:
        warnings.simplefilter("always")
        with trace_logger() as log:
            model.fit(x, y, epochs=1, verbose=0)
            temp.temperature = 4.0   # Keras reuses its traced train function: no effect
            model.fit(x, y, epochs=1, verbose=0)
    stale = [(s.label, s.line) for s in log.stale_captures]
    assert stale == [("self.temperature", _line_of("# the temperature read"))]
    assert [(f.category, f.line) for f in findings if f.category == "stale-capture"] == \
        [("stale-capture", _line_of("# the temperature read"))]


# -- a layer's `trainable` changed after Keras traced its train function -----------------------

def _frozen_after_fit(recompile, fit_again=True):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="base"),
                              keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x, y = np.ones((8, 3), np.float32), np.ones((8, 1), np.float32)
    with warnings.catch_warnings(record=True) as caught, trace_logger() as log:
        warnings.simplefilter("always")
        model.fit(x, y, verbose=0)  # <- traces the train function
        model.get_layer("base").trainable = False  # <- freezes the layer
        if recompile:
            model.compile("sgd", "mse")
        kernel = model.get_layer("base").kernel.numpy().copy()
        if fit_again:
            model.fit(x, y, verbose=0)
    trained = not np.allclose(kernel, model.get_layer("base").kernel.numpy())
    return [str(w.message) for w in caught if "TFD214" in str(w.message)], log, trained


def test_a_layer_frozen_after_keras_traced_its_train_function_is_stale():
    messages, log, trained = _frozen_after_fit(recompile=False)
    assert trained  # what the warning is about: the frozen layer still trains
    assert len(messages) == 1 and "layer 'base'.trainable was set to False" in messages[0]
    stale = [s for s in log.stale_captures if s.kind == "trainable"]
    # blamed where the flag was set, not where the train function was traced
    assert [(s.recipe, s.line, s.before, s.after) for s in stale] == [
        ("TFD214", _line_of("# <- freezes the layer"), "True", "False")]


def test_recompiling_after_the_change_is_not_stale():
    messages, log, trained = _frozen_after_fit(recompile=True)
    assert not trained and messages == []
    assert not [s for s in log.stale_captures if s.kind == "trainable"]


def test_a_flag_changed_after_the_last_fit_is_not_stale():
    # the traced train function never ran with the old flag after the change
    messages, log, trained = _frozen_after_fit(recompile=False, fit_again=False)
    assert not trained and messages == []
    assert not [s for s in log.stale_captures if s.kind == "trainable"]


class _FreezeAfterFirstEpoch(keras.callbacks.Callback):
    def __init__(self, rebuild):
        super().__init__()
        self.rebuild = rebuild

    def on_epoch_end(self, epoch, logs=None):
        if epoch == 0:
            self.model.get_layer("base").trainable = False  # <- the callback freezes it
            if self.rebuild:
                self.model.make_train_function(force=True)


@pytest.mark.parametrize("rebuild", [False, True])
def test_a_callback_that_freezes_a_layer_during_fit(rebuild):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="base"),
                              keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x, y = np.ones((8, 3), np.float32), np.ones((8, 1), np.float32)
    with warnings.catch_warnings(record=True), trace_logger() as log:
        warnings.simplefilter("always")
        model.fit(x, y, epochs=3, verbose=0, callbacks=[_FreezeAfterFirstEpoch(rebuild)])
    stale = [(s.recipe, s.line) for s in log.stale_captures if s.kind == "trainable"]
    assert stale == ([] if rebuild else [("TFD214", _line_of("# <- the callback freezes it"))])
