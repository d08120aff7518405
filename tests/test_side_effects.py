"""side_effect_guard(): every trace-time effect is found at its line; graph-correct code is not."""
import datetime
import functools
import io
import json
import logging
import os
import random
import runpy
import sys
import textwrap
import time
import uuid
import warnings

import keras
import numpy as np
import pytest
import tensorflow as tf

import tfdebug
from tfdebug import lint, recipebook, report, tracing
from tfdebug.side_effects import SideEffectError, SideEffectWarning, side_effect_guard

from conftest import marked_line, ROOT, run_tfdebug

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow

HERE = os.path.abspath(__file__)
line_of = functools.partial(marked_line, HERE)  # the line ending with "# <marker>"


def found(fn, *args, **guard_options):
    """[(recipe id, line)] the guard reports while ``fn(*args)`` is traced."""
    with side_effect_guard(action="log", **guard_options) as guard:
        fn(*args)
    return sorted((f.recipe, f.line) for f in guard.findings if f.file == HERE)


# -- every effect kind, at the right line ---------------------------------------------------

history = []
table = {}
seen = set()
counter = 0


class Box:
    def __init__(self):
        self.value = 0


box = Box()


@tf.function
def effects(x, obj):
    global counter
    print("x", x)  # E:print
    counter += 1  # E:global
    history.append(x)  # E:append
    table["k"] = x  # E:setitem
    seen.add(1)  # E:add
    obj.value += 1  # E:param-attr
    box.value = 2  # E:global-attr
    a = random.random()  # E:random
    b = np.random.normal()  # E:np-random
    c = time.time()  # E:time
    d = datetime.datetime.now()  # E:now
    e = uuid.uuid4()  # E:uuid
    if False:
        open("/nonexistent")  # E:open
        input()  # E:input
    return x + a + b + c + d.second + len(str(e))


def test_every_kind_is_found_at_its_line():
    got = found(effects, tf.constant(1.0), Box())
    expected = {
        ("TFD300", line_of("E:print")), ("TFD301", line_of("E:global")),
        ("TFD302", line_of("E:append")), ("TFD302", line_of("E:setitem")),
        ("TFD302", line_of("E:add")), ("TFD303", line_of("E:param-attr")),
        ("TFD303", line_of("E:global-attr")), ("TFD304", line_of("E:random")),
        ("TFD304", line_of("E:np-random")), ("TFD305", line_of("E:time")),
        ("TFD305", line_of("E:now")), ("TFD304", line_of("E:uuid")),
        ("TFD306", line_of("E:open")), ("TFD307", line_of("E:input")),
    }
    assert set(got) == expected


def make_nonlocal_counter():
    calls = 0

    @tf.function
    def step(x):
        nonlocal calls
        calls += 1  # E:nonlocal
        return x
    return step


def test_nonlocal_write_is_found():
    assert found(make_nonlocal_counter(), tf.constant(1)) == [("TFD301", line_of("E:nonlocal"))]


def helper_that_prints(x):
    print("helper", x)  # E:helper-print
    return x * 2


@tf.function
def calls_helper(x):
    return helper_that_prints(x) + 1


def test_functions_called_from_the_traced_function_are_searched():
    assert found(calls_helper, tf.constant(1)) == [("TFD300", line_of("E:helper-print"))]


_trainer_log = logging.getLogger("tfdebug-test-trainer")
_trainer_log.setLevel(logging.INFO)


@tf.function
def logs_its_loss(x):
    loss = tf.reduce_sum(x * x)
    _trainer_log.info("loss %s", loss)  # E:logger
    logging.warning("traced once")  # E:logging
    _trainer_log.debug("below the logger's level: no record, ever")
    _trainer_log.log(logging.DEBUG, "the same through log()")
    return loss


def test_a_log_call_in_a_traced_function_runs_once_per_trace():
    # a call whose record the logger filters out writes nothing, traced or not: not reported
    assert found(logs_its_loss, tf.constant([1.0])) == [
        ("TFD306", line_of("E:logger")), ("TFD306", line_of("E:logging"))]


class CountingModule(tf.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.v = tf.Variable(0)

    @tf.function
    def __call__(self, x):
        self.calls += 1  # E:module-attr
        self.v.assign_add(1)
        return x + self.v


def test_tf_module_method_attribute_mutation():
    assert found(CountingModule(), tf.constant(1)) == [("TFD303", line_of("E:module-attr"))]


class NoisyModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.seen_batches = []

    def call(self, x):
        print("call")  # E:model-print
        self.seen_batches.append(x)  # E:model-append
        return self.dense(x)


def test_keras_model_call_reached_from_a_tf_function():
    model = NoisyModel()

    @tf.function
    def step(x):
        return model(x, training=False)

    assert found(step, tf.ones([2, 3])) == [("TFD300", line_of("E:model-print")),
                                            ("TFD302", line_of("E:model-append"))]


def test_keras_model_call_reached_from_fit():
    model = NoisyModel()
    model.compile("sgd", "mse")
    with side_effect_guard(action="log") as guard:
        model.fit(np.ones((4, 3)), np.ones((4, 1)), batch_size=4, epochs=1, verbose=0)
    lines = {(f.recipe, f.line) for f in guard.findings if f.file == HERE}
    assert ("TFD300", line_of("E:model-print")) in lines


@tf.function
def formats_tensor(x):
    return tf.constant(0) if False else tf.strings.length(tf.constant(f"value={x}"))  # E:fstring


def test_symbolic_tensor_formatted_into_a_string():
    assert found(formats_tensor, tf.constant(3)) == [("TFD310", line_of("E:fstring"))]


def test_numpy_on_captured_state():
    class Holder:
        def __init__(self):
            self.counter = np.ones(3)

        @tf.function
        def total(self):
            return np.sum(self.counter) == 5  # E:np-state

    assert found(Holder().total) == [("TFD308", line_of("E:np-state"))]


def test_tf_data_map_function_with_numpy_random():
    def build():
        return list(tf.data.Dataset.range(2).map(lambda i: i + np.random.randint(9)))  # E:data
    assert found(build) == [("TFD304", line_of("E:data"))]



def test_next_of_a_captured_python_iterator_is_found_and_a_tf_data_iterators_is_not():
    batches = iter([tf.constant([1.0]), tf.constant([2.0])])
    pipeline = iter(tf.data.Dataset.from_tensor_slices([[1.0], [2.0]]))

    @tf.function
    def python_step(w):
        return w + next(batches)  # E:next

    @tf.function
    def data_step(w):
        return w + next(pipeline)

    assert found(python_step, tf.constant([0.0])) == [("TFD312", line_of("E:next"))]
    assert found(data_step, tf.constant([0.0])) == []

# -- the Keras training flag ------------------------------------------------------------------

def _dropout_model():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dropout(0.5)])


def test_model_with_dropout_called_without_training_while_a_tape_records_is_reported():
    model = _dropout_model()

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x))  # E:training
        return tape.gradient(loss, model.trainable_variables)

    def forward(x):
        return model(x)  # E:helper

    @tf.function
    def step_with_helper(x):
        tape = tf.GradientTape()
        with tape:
            loss = tf.reduce_sum(forward(x))
        return tape.gradient(loss, model.trainable_variables)

    assert found(step, tf.ones([2, 3])) == [("TFD320", line_of("E:training"))]
    assert found(step_with_helper, tf.ones([2, 3])) == [("TFD320", line_of("E:helper"))]


def test_model_called_without_training_where_no_tape_records_is_quiet():
    # inference mode is what an evaluation step needs: nothing trains a different model
    model = _dropout_model()

    @tf.function
    def evaluate(x):
        return model(x)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        return grads, model(x)  # after the tape: an inference read, as intended

    assert found(evaluate, tf.ones([2, 3])) == []
    assert found(step, tf.ones([2, 3])) == []


def test_training_flag_passed_or_not_needed_is_quiet():
    model = _dropout_model()
    plain = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])

    class Outer(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = _dropout_model()

        def call(self, x, training=None):
            return self.inner(x)  # the flag propagates from the outer call

    outer = Outer()

    @tf.function
    def step(x):
        both = model(x, training=True) + model(x, training=False)
        return both + plain(x) + outer(x, training=True)

    assert found(step, tf.ones([2, 3])) == []


# -- no false alarms on code that is right in graph mode ---------------------------------------

total = tf.Variable(0.0)


class LazyLayer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.proj = None

    def build(self, shape):
        self.w = self.add_weight(shape=(shape[-1], 2))
        self.extra = []
        self.extra.append(1)

    def call(self, x):
        return x @ self.w


class LazyModule(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = None

    def __call__(self, x):
        if self.scale is None:
            self.scale = tf.Variable(2.0)  # created on the first trace only
        return x * self.scale


def test_graph_correct_patterns_are_not_reported():
    layer = LazyLayer()
    module = LazyModule()

    @tf.function
    def step(x):
        total.assign_add(tf.reduce_sum(x))
        tf.print("total", total)
        ta = tf.TensorArray(tf.float32, size=2)
        for i in tf.range(2):
            ta = ta.write(i, tf.reduce_sum(x))
        parts = []
        for i in range(3):
            parts.append(x * i)
        local = {"a": x}
        local["b"] = x
        name = f"layer_{len(parts)}"
        out = layer(x) + tf.reduce_sum(module(x)) + tf.reduce_sum(ta.stack())
        return out + tf.reduce_sum(tf.add_n(parts) + local["b"]), name

    assert found(step, tf.ones([2, 3])) == []
    assert module.scale is not None


def test_calling_a_traced_function_reports_nothing_more():
    with side_effect_guard(action="log") as guard:
        effects(tf.constant(2.0), Box())
        first = len(guard.findings)
        effects(tf.constant(3.0), Box())
    assert first > 0 and len(guard.findings) == first


# -- suppression, actions, reporting --------------------------------------------------------

@tf.function
def quietened(x):
    print("ok")  # tfdebug: ignore
    history.append(x)  # E:not-allowed
    return x


def test_ignore_comment_and_allow():
    assert found(quietened, tf.constant(1)) == [("TFD302", line_of("E:not-allowed"))]
    assert found(quietened, tf.constant(1), allow=["container"]) == []
    assert found(quietened, tf.constant(1), allow=["TFD302"]) == []
    assert found(quietened, tf.constant(1), allow=["trace-time-side-effect"]) == []


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="action"):
        side_effect_guard(action="explode")
    with pytest.raises(ValueError, match="allow"):
        side_effect_guard(allow=["prints"])


def test_raise_mode_raises_at_trace_time_and_does_not_cache():
    @tf.function
    def step(x):
        print("tracing")  # E:raise
        return x

    with side_effect_guard(action="raise"):
        with pytest.raises(SideEffectError) as info:
            step(tf.constant(1))
        assert isinstance(info.value, tracing.SubscriberError)
        assert f"test_side_effects.py:{line_of('E:raise')}" in str(info.value)
        assert [f.recipe for f in info.value.findings] == ["TFD300"]
    assert int(step(tf.constant(2))) == 2  # outside the guard it traces and runs


def test_warn_mode_points_at_the_user_line():
    @tf.function
    def step(x):
        history.append(x)  # E:warn
        return x

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with side_effect_guard():
            step(tf.constant(1))
    ours = [w for w in caught if issubclass(w.category, SideEffectWarning)]
    assert len(ours) == 1
    assert ours[0].filename == HERE and ours[0].lineno == line_of("E:warn")
    assert "TFD302" in str(ours[0].message) and "fix:" in str(ours[0].message)


def test_findings_reach_report_collectors():
    with report.collecting() as collected, side_effect_guard(action="log"):
        calls_helper(tf.constant(5))  # already traced above or now: either way no crash
        make_nonlocal_counter()(tf.constant(1))
    assert any(f.recipe == "TFD301" and f.severity == "warning" for f in collected)


def test_user_exception_during_trace_is_untouched():
    class Boom(Exception):
        pass

    def make():
        @tf.function
        def step(x):
            print("before")
            raise Boom("mine")
        return step

    with pytest.raises(Boom) as plain:
        make()(tf.constant(1))
    with side_effect_guard(action="raise") as guard, pytest.raises(Boom) as guarded:
        make()(tf.constant(1))
    # what TensorFlow raises, unchanged: the guard's own error never replaces it
    assert type(guarded.value) is Boom and guarded.value.args == plain.value.args
    assert getattr(guarded.value, "__notes__", None) == getattr(plain.value, "__notes__", None)
    assert [f.recipe for f in guard.findings] == ["TFD300"]


def test_public_names():
    assert tfdebug.side_effect_guard is side_effect_guard
    assert {"side_effect_guard", "print_to_tfprint", "ic"} <= set(tfdebug.__all__)


# -- recipes: `before` is found, `after` is clean ---------------------------------------------

# The guard's recipes: the trace-time side effects that raise nothing (an error recipe of
# the category, like TensorFlow refusing a mutated argument, is the explainer's).
OUR_RECIPES = [r for r in recipebook.load() if r.id.startswith("TFD3") and not r.errors]


@pytest.mark.parametrize("recipe", OUR_RECIPES, ids=lambda r: r.id)
def test_recipe_snippets(recipe, tmp_path, monkeypatch, capsys, forked_python):
    assert recipe.before and recipe.after and recipe.docs.startswith("https://")
    monkeypatch.setattr(sys, "stdin", io.StringIO("2\n3\n4\n"))
    for name, snippet, want in (("before", recipe.before, True), ("after", recipe.after, False)):
        path = tmp_path / f"{recipe.id}_{name}.py"
        path.write_text(snippet)
        if "set_logical_device_configuration" in snippet:
            # devices are configured once per process: this snippet runs in its own (`tfdebug
            # run` in a fork of the case server: TensorFlow imported, its runtime not started)
            report_file = tmp_path / f"{name}.json"
            proc = forked_python(None, "run", "--report", report_file, path, cwd=tmp_path)
            assert proc.returncode == 0, proc.stderr[-2000:]
            ids = {d["recipe"] for d in json.loads(report_file.read_text())["diagnostics"]}
        else:
            with side_effect_guard(action="log") as guard:
                runpy.run_path(str(path), run_name="__main__")
            ids = {f.recipe for f in guard.findings}
        assert (recipe.id in ids) is want, (name, ids)
        if not want:
            assert not ids, ids


# -- tfdebug run -------------------------------------------------------------------------

def test_tfdebug_run_reports_each_effect_of_the_example(tmp_path, forked_python):
    report_path = tmp_path / "r.json"
    example = os.path.join(ROOT, "examples", "side_effects.py")
    proc = run_tfdebug("run", "--report", str(report_path), example)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(report_path.read_text())
    got = {(d["recipe"], d["line"]) for d in data["diagnostics"]
           if d["file"] == example and d["severity"] == "warning"}
    source = open(example).read().splitlines()

    def line(text):
        return next(n for n, s in enumerate(source, 1) if text in s)

    assert got == {("TFD304", line("random.random()")), ("TFD320", line("pred = model(x)")),
                   ("TFD300", line("print(f")), ("TFD301", line("steps += 1")),
                   ("TFD302", line("history.append")), ("TFD302", line('stats["calls"]')),
                   ("TFD303", line("tracker.last_loss =")), ("TFD305", line("datetime.now()")),
                   ("TFD304", line("np.random.randint")), ("TFD306", line("with open(LOG"))}
    assert "SideEffectWarning" in proc.stderr

    fixed = os.path.join(ROOT, "examples", "side_effects_fixed.py")  # in a fork: its output
    proc = forked_python(None, "run", "--report", report_path, fixed, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(report_path.read_text())
    assert [d for d in data["diagnostics"] if d["recipe"] and d["recipe"].startswith("TFD3")] == []
    assert "steps counted: 3 history: 3 calls: 3" in proc.stdout


# -- code that does not run while tracing ----------------------------------------------------

VERBOSE = False


class Flags:
    keep = False
    loud = True


flags = Flags()


@tf.function
def flagged(x):
    if VERBOSE:
        print("quiet: VERBOSE is off")
    if not VERBOSE:
        print("runs")  # E:not-verbose
    if flags.keep:
        history.append(x)
    else:
        table["last"] = x  # E:else-branch
    if flags.loud:
        print("loud")  # E:loud
    if x > 0:  # a tensor condition: both branches are traced
        print("positive")  # E:tensor-if
    return x


def test_branches_a_python_flag_rules_out_are_not_searched():
    assert found(flagged, tf.constant(1.0)) == sorted([
        ("TFD300", line_of("E:not-verbose")), ("TFD302", line_of("E:else-branch")),
        ("TFD300", line_of("E:loud")), ("TFD300", line_of("E:tensor-if"))])


def _append_seen(v):
    history.append(float(v))
    return v


@tf.function
def wrapped(x):
    y = tf.py_function(_append_seen, [x], tf.float32)
    z = tf.numpy_function(lambda a: a + np.float32(np.random.rand()), [x], tf.float32)
    w = tf.map_fn(lambda e: e + random.random(), tf.reshape(x, [1]))  # E:map-fn-lambda
    return y + z + w[0]


def test_functions_run_by_py_function_are_not_trace_time():
    try:
        assert found(wrapped, tf.constant(1.0)) == [("TFD304", line_of("E:map-fn-lambda"))]
    finally:
        history.clear()


@tf.function
def eager_only(x):
    if tf.executing_eagerly():
        print("eager", x.numpy())
    if not tf.executing_eagerly():
        history.append(x)  # E:graph-only
    return x


def test_eager_only_branch_is_not_searched():
    try:
        assert found(eager_only, tf.constant(1.0)) == [("TFD302", line_of("E:graph-only"))]
    finally:
        history.clear()


def _timed(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        start = time.perf_counter()  # E:wrapper-clock
        return fn(*args), start
    return wrapper


@tf.function
@_timed
def decorated(x):
    print("inner")  # E:inner-print
    return x


def test_a_users_own_decorator_under_tf_function_is_searched():
    assert found(decorated, tf.constant(1.0)) == sorted([
        ("TFD305", line_of("E:wrapper-clock")), ("TFD300", line_of("E:inner-print"))])


# -- effects anywhere in the trace: context managers, functions given to calls ----------------

class _Timer:
    def __init__(self):
        self.entered = 0

    def __enter__(self):
        self.entered += 1  # timer-enter
        return self

    def __exit__(self, *exc):
        print("left")  # timer-exit
        return False


_timer = _Timer()
_calls = []


def _helper(x):
    _calls.append("helper")  # given-helper
    return x + 1.0


def _host(x):
    print("runs on every call, on the host")
    return x


def _generator():
    print("runs as the dataset is iterated")
    yield 1


def _apply(fn, x):
    return fn(x)


_helpers = {"inc": _helper}


@tf.function
def _with_timer(x):
    with _timer:
        x = x * 2.0
    return x


@tf.function
def _nest_helper(x):
    return tf.nest.map_structure(_helper, x)


@tf.function
def _apply_helper(x):
    return _apply(_helper, x)


@tf.function
def _table_helper(x):
    return _helpers["inc"](x)


@tf.function
def _call_time_functions(x):
    tf.data.Dataset.from_generator(_generator, output_signature=tf.TensorSpec((), tf.int32))
    return tf.py_function(_host, [x], tf.float32) + tf.numpy_function(_host, [x], tf.float32)


def test_a_context_manager_enter_and_exit_run_while_tracing():
    assert found(_with_timer, tf.constant(1.0)) == [("TFD300", line_of("timer-exit")),
                                                    ("TFD303", line_of("timer-enter"))]


@pytest.mark.parametrize("fn", [_nest_helper, _apply_helper, _table_helper], ids=lambda f: f.__name__)
def test_a_function_given_to_a_call_that_runs_it_is_followed(fn):
    assert found(fn, tf.constant(1.0)) == [("TFD302", line_of("given-helper"))]


def test_functions_that_run_per_call_or_per_element_stay_quiet():
    assert found(_call_time_functions, tf.constant(1.0)) == []


_retraces = 0
_acts = 0


class _Policy:
    def __init__(self):
        self._trace_counter = 0
        self.steps = 0

    @tf.function
    def act(self, x):
        global _retraces, _acts
        self._trace_counter += 1
        _retraces += 1
        self.steps += 1  # counted-steps
        _acts += 1  # counted-calls
        return x * 2.0


def test_a_counter_named_for_traces_counts_them_on_purpose():
    """`self._trace_counter += 1` and `_retraces += 1` count traces by their names: no
    claim; the same updates of `steps` and `_acts` stay reported."""
    assert found(_Policy().act, tf.constant(1.0)) == [("TFD301", line_of("counted-calls")),
                                                     ("TFD303", line_of("counted-steps"))]


def test_the_linter_shows_trace_counters_only_in_preview():
    code = textwrap.dedent("""
        import tensorflow as tf
        traces = 0
        calls = 0

        class Policy:
            @tf.function
            def act(self, x):
                global traces, calls
                self.num_traces += 1
                traces += 1
                self.steps += 1
                calls += 1
                return x
    """)
    assert sorted((f.code, f.line) for f in lint.lint_source(code, "policy.py")) == [
        ("TFD301", 13), ("TFD303", 12)]
    assert sorted((f.code, f.line) for f in lint.lint_source(code, "policy.py", preview=True)) == [
        ("TFD301", 11), ("TFD301", 13), ("TFD303", 10), ("TFD303", 12)]


# -- tf.distribute: a loss averaged over one replica's batch -----------------------------------

# The two scripts below set up two logical CPUs: each runs in its own process, a fork of
# the case server (TensorFlow imported, its runtime not started).

def test_a_replica_loss_averaged_over_its_own_batch_is_reported(tmp_path, forked_python):
    script = tmp_path / "replicas.py"
    script.write_text(recipebook.get("TFD321").before, encoding="utf-8")
    report_file = tmp_path / "r.json"
    proc = forked_python(None, "run", "--report", report_file, script, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    found_there = [(d["recipe"], d["code"]) for d in json.loads(report_file.read_text())["diagnostics"]]
    assert found_there == [("TFD321", "loss = tf.reduce_mean((w * x - 1.0) ** 2)")]


def _run_replica_script(tmp_path, forked_python, source):
    """(diagnostics, {name: number} of the script's ``name number`` lines) of ``tfdebug run``
    on a script that configures two logical CPUs (its own process: a fork of the case server)."""
    script = tmp_path / "replicas.py"
    script.write_text(source, encoding="utf-8")
    report_file = tmp_path / "r.json"
    proc = forked_python(None, "run", "--report", report_file, script, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    printed = {}
    for line in proc.stdout.splitlines():
        name, _, number = line.partition(" ")
        try:
            printed[name] = float(number)
        except ValueError:
            pass
    return json.loads(report_file.read_text())["diagnostics"], printed


# Two replicas on two logical CPUs, and a variable of theirs (the scripts below start so).
TWO_REPLICAS = """\
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
import keras  # noqa: E402

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with strategy.scope():
    w = tf.Variable(1.0)
"""

REPLICA_MEANS = TWO_REPLICAS + """\
averaged = keras.losses.MeanSquaredError()
per_example = keras.losses.MeanSquaredError(reduction=None)


def mean_of(errors):
    return tf.reduce_mean(errors)


def keras_default(x):
    with tf.GradientTape() as tape:
        loss = averaged(tf.zeros_like(x), w * x)
    return tape.gradient(loss, w)


def through_helper(x):
    with tf.GradientTape() as tape:
        loss = mean_of(tf.square(w * x))
    return tape.gradient(loss, w)


def global_batch(x):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(per_example(tf.zeros_like(x), w * x), global_batch_size=8)
    return tape.gradient(loss, w)


x = next(iter(strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensors(tf.ones([8, 1])))))
for step in (keras_default, through_helper, global_batch):
    summed = tf.function(lambda x: strategy.reduce("SUM", strategy.run(step, args=(x,)), axis=None))
    print(step.__name__, float(summed(x)))
"""


def test_a_replica_mean_from_a_keras_loss_or_a_helper_is_reported_where_it_is_taken(tmp_path, forked_python):
    """A helper may take the mean: each replica's gradient is then of its own mean, and the
    replicas' gradients add up to twice the global batch's with two replicas. Keras 3's
    losses average too, but divide by the replica count themselves under a strategy: no
    claim there (the gradient is the global batch's)."""
    diagnostics, printed = _run_replica_script(tmp_path, forked_python, REPLICA_MEANS)
    assert [(d["recipe"], d["code"]) for d in diagnostics] == [("TFD321", "return tf.reduce_mean(errors)")]
    assert printed == {"keras_default": 2.0, "through_helper": 4.0, "global_batch": 2.0}


NESTED_STEPS = TWO_REPLICAS + """\


@tf.function
def nested_mean(x):
    def step_fn(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(w * x))
        return tape.gradient(loss, w)
    return strategy.reduce("SUM", strategy.run(step_fn, args=(x,)), axis=None)


@tf.function
def nested_global(x):
    def step_fn(x):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(tf.square(w * x), global_batch_size=8)
        return tape.gradient(loss, w)
    return strategy.reduce("SUM", strategy.run(step_fn, args=(x,)), axis=None)


@tf.function
def rebound(x, plain=True):
    def step_fn(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(w * x))
        return tape.gradient(loss, w)
    if plain:
        step_fn = lambda x: tf.reduce_sum(x)  # noqa: E731
    return strategy.reduce("SUM", strategy.run(step_fn, args=(x,)), axis=None)


x = next(iter(strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensors(tf.ones([8, 1])))))
for fn in (nested_mean, nested_global, rebound):
    print(fn.__name__, float(fn(x)))
"""


def test_a_step_function_defined_in_the_traced_body_is_searched_for_a_replica_mean(tmp_path, forked_python):
    """``strategy.run(step_fn)`` with ``step_fn`` a def inside the tf.function: it exists only
    while the trace runs, so its def is read from the body; a name bound more than once there
    is not (which function runs is not known from the source)."""
    diagnostics, printed = _run_replica_script(tmp_path, forked_python, NESTED_STEPS)
    in_nested_mean = NESTED_STEPS[:NESTED_STEPS.index("loss = tf.reduce_mean")].count("\n") + 1
    assert [(d["recipe"], d["line"]) for d in diagnostics] == [("TFD321", in_nested_mean)]
    assert printed == {"nested_mean": 4.0, "nested_global": 2.0, "rebound": 8.0}


KERAS_REPLICA_STEP = """\
import numpy as np
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
import keras  # noqa: E402


class Regressor(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"mse": loss}


class GlobalBatch(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            per_example = tf.square(self(x, training=True) - y)[:, 0]
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=16)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"mse": loss}


strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
x, y = np.ones((16, 3), "float32"), np.full((16, 1), 3.0, "float32")
for cls in (Regressor, GlobalBatch):
    with strategy.scope():
        inputs = keras.Input((3,))
        model = cls(inputs, keras.layers.Dense(1, kernel_initializer="zeros")(inputs))
        model.compile(optimizer=keras.optimizers.SGD(0.0))
    history = model.fit(x, y, batch_size=16, verbose=0).history
    logged = history["mse"][0]
    print(cls.__name__, logged)
"""


def test_a_keras_train_step_averaging_its_replicas_batch_is_reported(tmp_path, forked_python):
    """Keras runs a custom train_step per replica and sums the replicas' gradients: a
    `tf.reduce_mean` loss differentiated there scales every update by the replica count.
    A loss divided by the global batch is right for the gradients, but Keras averages the
    returned logs over the replicas: the logged loss is halved with 2 replicas (the true
    loss is 9.0, which the replica-local mean logs)."""
    diagnostics, logged = _run_replica_script(tmp_path, forked_python, KERAS_REPLICA_STEP)
    assert [(d["recipe"], d["line"]) for d in diagnostics] == [("TFD321", 13), ("TFD322", 27)]
    assert logged == {"Regressor": pytest.approx(9.0), "GlobalBatch": pytest.approx(4.5)}


def _replica_mean(w, x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((w * x - 1.0) ** 2)
    return tape.gradient(loss, [w])


RETURNED_AVERAGE = TWO_REPLICAS + """\


def step(x):
    return tf.nn.compute_average_loss(tf.square(w * x), global_batch_size=8)


@tf.function
def mean_of_shares(x):
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, strategy.run(step, args=(x,)), axis=None)


@tf.function
def sum_of_shares(x):
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(step, args=(x,)), axis=None)


data = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensors(tf.ones([8])))
for x in data:
    print("mean", float(mean_of_shares(x)))
    print("sum", float(sum_of_shares(x)))
"""


def test_a_step_returning_its_share_of_the_global_mean_is_reported_when_averaged(tmp_path, forked_python):
    """`return tf.nn.compute_average_loss(...)` is each replica's share of the global mean:
    averaging the shares over 2 replicas halves it (the true mean is 1.0); summing is right."""
    diagnostics, printed = _run_replica_script(tmp_path, forked_python, RETURNED_AVERAGE)
    assert [(d["recipe"], d["code"]) for d in diagnostics] == [
        ("TFD322", "return strategy.reduce(tf.distribute.ReduceOp.MEAN, strategy.run(step, "
                   "args=(x,)), axis=None)")]
    assert printed == {"mean": pytest.approx(0.5), "sum": pytest.approx(1.0)}


def test_one_replica_makes_no_claim():
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    with strategy.scope():
        w = tf.Variable(1.0)

    @tf.function
    def step(x):
        return strategy.run(_replica_mean, args=(w, x))

    assert found(step, tf.ones([4])) == []


# -- what one walk keeps, and what it must not keep for the next trace ----------------------

LOUD = False


def _maybe_print(x):
    if LOUD:
        print("tracing", x)  # loud-print
    return x + 1


def test_each_trace_resolves_the_source_afresh(monkeypatch):
    """A walk keeps what a name resolves to for itself alone: the next trace (the same
    source, a new tf.function) reads the global as it is then."""
    assert found(tf.function(_maybe_print), tf.constant(1)) == []
    monkeypatch.setattr(sys.modules[__name__], "LOUD", True)
    assert found(tf.function(_maybe_print), tf.constant(1)) == [("TFD300", line_of("loud-print"))]


def test_a_replaced_tensorflow_function_is_seen_after_forgetting(monkeypatch):
    """TensorFlow's call-time wrappers are looked up once per TensorFlow module; a replaced
    one is seen once that cache is cleared."""
    from tfdebug._effects import branches

    assert tf.py_function in branches._call_time_wrappers()
    replacement = lambda *args, **kwargs: None  # noqa: E731
    monkeypatch.setattr(tf, "py_function", replacement)
    branches._tf_functions_of.cache_clear()
    try:
        assert replacement in branches._call_time_wrappers()
    finally:
        monkeypatch.undo()
        branches._tf_functions_of.cache_clear()
    assert tf.py_function in branches._call_time_wrappers()


class _Reset:
    """A one-time reset on a Python flag (`step`), and one that sets the flag to True."""

    def __init__(self, flag):
        self.flag = flag
        self.total = tf.Variable(0.0)

    @tf.function
    def step(self, x):
        if self.flag:
            self.total.assign(0.0)
            self.flag = False  # flag
        return x + self.total

    @tf.function
    def step_keeping(self, x):
        if self.flag:
            self.total.assign(0.0)
            self.flag = True  # not the value the flag holds after the trace
        return x + self.total


def test_a_branch_that_set_the_flag_it_tests_to_its_value_now_ran_while_tracing():
    # the guard reads `self.first` after the trace: False, set by the branch it tests; only a
    # trace runs this Python, so that branch ran while tracing and its store is reported
    assert ("TFD303", line_of("flag")) in found(_Reset(True).step, tf.constant(1.0))
    # near miss: the skipped branch assigns a value the flag does not hold now: not proven
    assert found(_Reset(False).step_keeping, tf.constant(1.0)) == []
