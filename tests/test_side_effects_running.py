"""The side-effect guard searches the user code that RUNS during a trace, wherever it is.

The source of the traced function does not name these functions: a function passed as an
argument, a table of functions indexed at trace time, ``super().call``, a context manager
made in the ``with`` line, a custom metric's ``update_state`` that Keras calls. Each
positive case below went unreported before; each negative (code that runs once by design,
or objects made during the trace) must stay silent.
"""
import functools
import json
import os
import sys
import time

import keras
import numpy as np
import pytest
import tensorflow as tf

from tfdebug._effects import running
from tfdebug.side_effects import side_effect_guard

from conftest import marked_line

HERE = os.path.abspath(__file__)
line_of = functools.partial(marked_line, HERE)  # the line ending with "# <marker>"


def found(fn, *args):
    with side_effect_guard(action="log", follow_calls=True) as guard:
        fn(*args)
    return sorted((f.recipe, f.line) for f in guard.findings if f.file == HERE)


calls = []
times = []
counter = {"n": 0}


def scale(x):
    calls.append(1)  # param-fn
    return x * 2


def test_a_function_given_as_an_argument():
    @tf.function
    def apply(x, fn):
        return fn(x)

    assert found(apply, tf.constant(1.0), scale) == [("TFD302", line_of("param-fn"))]


def test_by_default_the_guard_sets_no_hook_and_reads_only_the_source_it_can_resolve():
    # following every call costs a trace hook for the whole trace: only when asked
    @tf.function
    def apply(x, fn):
        assert not running.hooked()
        return fn(x)

    with side_effect_guard(action="log") as guard:
        apply(tf.constant(1.0), scale)
    assert [f for f in guard.findings if f.file == HERE] == []
    with pytest.raises(TypeError, match="follow_calls"):
        side_effect_guard(follow_calls="yes")


def relu(x):
    counter["n"] += 1  # table-fn
    return tf.nn.relu(x)


ACTIVATIONS = {"relu": relu}


def test_a_function_picked_from_a_table_at_trace_time():
    name = "re" + "lu"

    @tf.function
    def step(x):
        return ACTIVATIONS[name](x)

    assert found(step, tf.constant(1.0)) == [("TFD302", line_of("table-fn"))]


class Timer:
    def __enter__(self):
        self.start = time.perf_counter()  # timer-enter
        return self

    def __exit__(self, *exc):
        times.append(time.perf_counter() - self.start)  # timer-exit
        return False


def test_a_context_manager_made_in_the_with_line():
    @tf.function
    def step(x):
        with Timer():
            y = x * 2
        return y

    # the clock reads and the append are reported; `self.start` on the Timer made in the
    # `with` line is not: that object is gone when the trace ends
    assert found(step, tf.constant(1.0)) == [
        ("TFD302", line_of("timer-exit")), ("TFD305", line_of("timer-enter")),
        ("TFD305", line_of("timer-exit"))]


class Base(keras.layers.Layer):
    def call(self, x):
        calls.append(x.shape)  # super-call
        return x * 2


class Child(Base):
    def call(self, x):
        return super().call(x) + 1


def test_a_method_reached_through_super():
    layer = Child()

    @tf.function
    def step(x):
        return layer(x)

    assert found(step, tf.constant([1.0])) == [("TFD302", line_of("super-call"))]


class Stats:
    def __init__(self):
        self.n = 0

    def record(self, x):
        self.n += 1  # arg-object
        return x


def test_a_method_of_an_object_given_as_an_argument():
    @tf.function
    def step(x, stats):
        return stats.record(x) * 2

    assert found(step, tf.constant(1.0), Stats()) == [("TFD303", line_of("arg-object"))]


class BatchCount(keras.metrics.Metric):
    def __init__(self):
        super().__init__(name="batches")
        self.total = self.add_weight(name="total", initializer="zeros")
        self.batches = 0

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.batches += 1  # metric-update
        self.total.assign_add(tf.reduce_sum(y_pred))

    def result(self):
        return tf.convert_to_tensor(self.total)  # a tensor: Keras' own np.array of a variable warns


def test_a_custom_metric_that_keras_calls_in_its_train_step():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse", metrics=[BatchCount()])
    fit = functools.partial(model.fit, np.ones((8, 2), "float32"), np.ones((8, 1), "float32"),
                            batch_size=4, verbose=0)
    assert ("TFD303", line_of("metric-update")) in found(fit)


# -- negatives: code that runs once by design, objects made during the trace -------------

class Accumulator:
    def __init__(self):
        self.items = []
        self.n = 0

    def add(self, x):
        self.items.append(x)
        self.n += 1


class NoisyInit(keras.initializers.Initializer):
    def __call__(self, shape, dtype=None):
        print("initializing", shape)
        return tf.constant(np.random.normal(size=shape).astype("float32"))


class Block(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.units, self.shapes = units, []

    def build(self, input_shape):
        print("building", input_shape)
        self.shapes.append(input_shape)
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units),
                                      initializer=NoisyInit())
        self.width = int(input_shape[-1])

    def call(self, x):
        return tf.matmul(x, self.kernel)


def record_eagerly(x):
    calls.append(float(x))
    print("value", float(x))
    return x


def test_objects_made_in_the_trace_and_code_that_runs_once_are_quiet():
    block = Block(2)  # built during the trace: build() and the initializer run once, eagerly too

    @tf.function
    def step(x):
        acc = Accumulator()
        acc.add(x)
        acc.add(x * 2)
        y = tf.py_function(record_eagerly, [x[0, 0]], tf.float32)  # runs on every call
        return block(tf.add_n(acc.items)) + y

    assert found(step, tf.ones((1, 3))) == []


def test_keras_fit_with_user_layers_losses_and_schedules_is_quiet():
    class Loss(keras.losses.Loss):
        def call(self, y_true, y_pred):
            return tf.reduce_mean(tf.square(y_true - y_pred))

    class Schedule(keras.optimizers.schedules.LearningRateSchedule):
        def __call__(self, step):
            return 0.01 / (1.0 + tf.cast(step, tf.float32))

    model = keras.Sequential([keras.Input((3,)), Block(4), keras.layers.Dense(1)])
    model.compile(keras.optimizers.SGD(Schedule()), Loss())
    fit = functools.partial(model.fit, np.ones((8, 3), "float32"), np.ones((8, 1), "float32"),
                            batch_size=4, verbose=0)
    assert found(fit) == []


# -- the hook: only during a trace, on this thread, never over another tool's -------------

def test_the_hook_is_there_only_while_tracing_and_respects_a_tracer_in_place():
    @tf.function
    def step(x, fn):
        return fn(x)

    assert not running.hooked()
    previous = sys.gettrace()
    with side_effect_guard(action="log", follow_calls=True) as guard:
        step(tf.constant(1.0), scale)
        assert sys.gettrace() is previous and not running.hooked()
    assert [f.line for f in guard.findings if f.file == HERE] == [line_of("param-fn")]

    def tracer(frame, event, arg):  # a debugger's or coverage's hook: kept, and the
        return None                 # recorder uses the profile hook meanwhile
    sys.settrace(tracer)
    try:
        with side_effect_guard(action="log", follow_calls=True) as guard:
            step(tf.constant(1.0), lambda x: scale(x) + 1)
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(previous)
    assert not running.hooked() and sys.getprofile() is None
    assert [f.line for f in guard.findings if f.file == HERE] == [line_of("param-fn")]


def test_tfdebug_run_reports_a_context_manager_effect(tmp_path, forked_python):
    script = tmp_path / "timed.py"
    script.write_text(
        "import time\nimport tensorflow as tf\n\ntimes = []\n\n\n"
        "class Timer:\n    def __enter__(self):\n        self.t0 = time.perf_counter()\n"
        "        return self\n\n    def __exit__(self, *exc):\n"
        "        times.append(time.perf_counter() - self.t0)\n\n\n"
        "@tf.function\ndef step(x):\n    with Timer():\n        return x * 2\n\n\n"
        "for i in range(3):\n    step(tf.constant(float(i)))\nprint(len(times))\n")
    report = tmp_path / "r.json"
    # `tfdebug run` in a fork of the case server (TensorFlow's import paid once)
    proc = forked_python(None, "run", "--report", report, script, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    found_lines = {(d["recipe"], d["line"]) for d in json.loads(report.read_text())["diagnostics"]}
    assert found_lines == {("TFD305", 9), ("TFD302", 13), ("TFD305", 13)}
