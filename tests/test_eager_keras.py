"""eager() with Keras 3: fit/predict and a custom train_step run eagerly; pdb stops there."""
import textwrap

import keras
import numpy as np
import tensorflow as tf

import tfdebug


class Recording(keras.Model):
    """A model that records whether its train_step and call ran eagerly."""

    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.step_modes, self.call_modes = [], []

    def call(self, x, training=False):
        self.call_modes.append(tf.executing_eagerly())
        return self.dense(x)

    def train_step(self, data):
        self.step_modes.append(tf.executing_eagerly())
        return super().train_step(data)


def _data():
    rng = np.random.default_rng(0)
    return rng.random((8, 3), dtype=np.float32), rng.random((8, 1), dtype=np.float32)


def test_fit_and_predict_run_eagerly_only_inside_the_scope():
    x, y = _data()
    model = Recording()
    model.compile(optimizer="sgd", loss="mse")
    with tfdebug.eager():
        model.fit(x, y, epochs=1, batch_size=4, verbose=0)
        model.predict(x, verbose=0)
    assert model.step_modes == [True, True]
    # Keras builds the model once symbolically; every call after that is eager.
    assert model.call_modes[0] is False and model.call_modes[1:] and all(model.call_modes[1:])

    fresh = Recording()
    fresh.compile(optimizer="sgd", loss="mse")
    fresh.fit(x, y, epochs=1, batch_size=4, verbose=0)
    assert fresh.step_modes and not any(fresh.step_modes)   # traced: symbolic


def test_results_are_the_same_eager_and_graph():
    x, y = _data()
    outputs = []
    for scope in (tfdebug.eager(), tfdebug.graph()):
        keras.utils.set_random_seed(1)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
        with scope:
            model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
        outputs.append(model.predict(x, verbose=0))
    np.testing.assert_allclose(outputs[0], outputs[1], rtol=1e-5, atol=1e-6)


PDB_SCRIPT = textwrap.dedent("""
    import numpy as np
    import keras
    import tensorflow as tf
    import tfdebug

    ARMED = False  # armed once the model is built, so only fit()'s calls stop

    class Model(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x, training=False):
            hidden = x * 2.0
            if ARMED:
                breakpoint()
            return self.dense(hidden)

        def train_step(self, data):
            x, y = data
            if ARMED:
                breakpoint()
            return super().train_step(data)

    model = Model()
    model.compile(optimizer="sgd", loss="mse")
    x = np.ones((4, 3), dtype="float32")
    model(x)
    ARMED = True
    with tfdebug.eager():
        model.fit(x, np.ones((4, 1), dtype="float32"), epochs=1, batch_size=4, verbose=0)
    print("FINISHED")
""")


def test_pdb_breakpoints_stop_in_train_step_and_call_with_values(tmp_path, forked_python):
    script = tmp_path / "train.py"
    script.write_text(PDB_SCRIPT)
    # pdb reads commands from stdin: inspect x in train_step, then hidden in call.
    commands = "p float(tf.reduce_sum(x))\nc\np hidden.numpy().tolist()\nc\n"
    # `python train.py` in a fork of the case server (breakpoint() reads PYTHONBREAKPOINT
    # when it is called)
    env = {"TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONBREAKPOINT": "pdb.set_trace"}
    proc = forked_python(script, cwd=tmp_path, input=commands, env=env, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "train_step()" in out and "call()" in out
    assert "12.0" in out                                   # sum of a (4, 3) block of ones
    assert "[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0], [2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]" in out
    assert out.rstrip().endswith("FINISHED")
