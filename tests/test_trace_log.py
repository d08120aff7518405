"""trace_logger(): events, retrace reasons, fixes that work, warnings, limits, stale captures."""
import json
import os
import textwrap
import threading
import warnings

import numpy as np
import pytest
import tensorflow as tf
from hypothesis import given, settings, strategies as st

import tfdebug
from tfdebug import _tf, report, tracing
from tfdebug.trace_log import (RetracingError, RetracingWarning, StaleCaptureWarning,
                               TraceLogger, trace_logger)

import case_worker
from conftest import ROOT, case_header, line_of, run_tfdebug

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow

HERE = os.path.abspath(__file__)


def _line_of(text: str) -> int:
    """The line number in this file of the first line containing ``text``."""
    return line_of(HERE, text)


def _quiet():
    """Retracing warnings are tested where they matter; elsewhere they are noise."""
    return warnings.catch_warnings()


# -- what each trace records ------------------------------------------------------------

def test_first_trace_records_function_call_site_signature_and_time():
    @tf.function
    def scale(x, factor):
        return x * factor

    with trace_logger() as log:
        scale(tf.ones([2, 3]), 2.0)  # first call of scale
    (event,) = log.events
    assert event.kind == "first" and event.reasons == ()
    assert event.function.endswith("scale") and event.file == HERE
    assert event.line == scale.python_function.__code__.co_firstlineno
    assert (event.call_file, event.call_line) == (HERE, _line_of("# first call of scale"))
    assert event.signature_text == "x: tensor float32 (2, 3), factor: Python float 2.0"
    assert event.duration > 0 and event.depth == 0 and event.user_code
    assert log.count(scale) == 1 == scale.experimental_get_tracing_count()


def test_recorded_events_are_frozen_with_their_times_and_hash_by_them():
    """The logger completes an event's times before recording it; once recorded it is an
    ordinary frozen TraceEvent: immutable, equal to its copy, hashed by its fields."""
    import dataclasses
    import time

    @tf.function
    def halve(x):
        return x / 2

    before = time.perf_counter()
    with trace_logger() as log:
        halve(tf.ones([2]))
    (event,) = log.events
    assert before < event.started < time.perf_counter() and event.duration > 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.duration = 0.0
    copy = dataclasses.replace(event)
    assert copy == event and hash(copy) == hash(event) and {event: 1}[copy] == 1
    assert dataclasses.replace(event, duration=1.0) != event


def test_function_defined_before_the_scope_and_already_traced_is_not_traced_again():
    @tf.function
    def double(x):
        return 2 * x

    double(tf.constant(1.0))
    with trace_logger() as log:
        double(tf.constant(5.0))          # cached: no trace, nothing recorded
        double(tf.constant([1.0, 2.0]))   # a new shape: traced inside the scope
    assert [e.kind for e in log.events] == ["first"]   # the first this logger has seen
    assert log.count(double) == 1
    assert double.experimental_get_tracing_count() == 2


def test_shape_retrace_is_explained_per_argument():
    @tf.function
    def encode(tokens):
        return tf.reduce_sum(tf.one_hot(tokens, 10), axis=0)

    with _quiet(), trace_logger(warn_after=None) as log:
        for n in range(1, 5):
            encode(tf.range(n))
    kinds = [e.kind for e in log.events]
    assert kinds == ["first", "retrace", "retrace", "retrace"]
    assert [str(r) for r in log.events[1].reasons] == ["tokens: shape (1,) -> (2,)"]
    assert [str(r) for r in log.events[3].reasons] == ["tokens: shape (3,) -> (4,)"]
    assert log.events[1].reasons[0].recipe == "TFD200"
    (summary,) = log.functions()
    assert summary["reasons"] == ["tokens: 4 shapes (1,), (2,), (3,), (4,)"]


def test_dtype_python_value_object_structure_and_kwargs_reasons():
    class Config:
        pass

    @tf.function
    def f(x, n, cfg=None, **extra):
        return x * n

    with trace_logger(warn_after=None) as log:
        f(tf.ones([2]), 2)
        f(tf.ones([2], tf.float64), 2)
        f(tf.ones([2], tf.float64), 3)
        cfg = Config()
        f(tf.ones([2], tf.float64), 3, cfg=cfg)
        f(tf.ones([2], tf.float64), 3, cfg=Config())
        f(tf.ones([2], tf.float64), 3, cfg=[tf.ones([1])])
        f(tf.ones([2], tf.float64), 3, cfg=[tf.ones([1]), tf.ones([1])])
        f(tf.ones([2], tf.float64), 3, cfg=[tf.ones([1]), tf.ones([1])], bias=1)
    texts = [[str(r) for r in e.reasons] for e in log.events[1:]]
    assert texts == [
        ["x: dtype float32 -> float64"],
        ["n: Python value 2 -> 3"],
        ["cfg: None -> a new Config object"],
        ["cfg: a new Python object (Config)"],
        ["cfg: a Config object -> list of 1"],
        ["cfg: structure list of 1 -> list of 2"],
        ["a different set of arguments: {'cfg', 'n', 'x'} -> {'bias', 'cfg', 'n', 'x'}"],
    ]
    recipes = [e.reasons[0].recipe for e in log.events[1:]]
    assert recipes == ["TFD201", "TFD202", "TFD203", "TFD203", "TFD205", "TFD205", "TFD206"]


def test_nested_structures_name_the_leaf_that_changed():
    @tf.function
    def f(batch):
        return batch["image"]

    with trace_logger(warn_after=None) as log:
        f({"image": tf.ones([2, 4]), "label": tf.ones([2])})
        f({"image": tf.ones([3, 4]), "label": tf.ones([3])})
    assert [str(r) for r in log.events[1].reasons] == [
        "batch['image']: shape (2, 4) -> (3, 4)", "batch['label']: shape (2,) -> (3,)"]
    assert log.input_signature(f) == ("[{'image': tf.TensorSpec(shape=[None, 4], dtype=tf.float32), "
                                      "'label': tf.TensorSpec(shape=[None], dtype=tf.float32)}]")


def test_tf_function_created_again_in_a_loop_is_a_new_object_retrace():
    def square(x):
        return x * x

    with trace_logger(warn_after=None) as log:
        for i in range(3):
            tf.function(square)(tf.constant(float(i)))  # re-created every iteration
    assert [e.kind for e in log.events] == ["first", "retrace", "retrace"]
    reason = log.events[1].reasons[0]
    assert reason.kind == "new-function" and reason.recipe == "TFD204"
    assert f"test_trace_log.py:{_line_of('# re-created every iteration')}" in str(reason)
    assert "inside a loop" in str(reason)
    assert "move @tf.function out of the loop" in str(log.suggestion(square))
    assert log.count(square) == 3


def _integrate(y):
    @tf.function  # <- made on every call
    def slope(v):
        return -0.5 * v

    return y + 0.1 * slope(y)


def test_a_tf_function_made_on_every_call_is_warned_where_it_is_made():
    import warnings

    from tfdebug.trace_log import RetracingWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with trace_logger(warn_after=2):
            for _ in range(4):
                _integrate(tf.constant(1.0))
    retracing = [w for w in caught if issubclass(w.category, RetracingWarning)]
    assert retracing and "TFD204" in str(retracing[0].message)
    # the fix goes where the tf.function is made (the call site is in the message)
    assert retracing[0].lineno == _line_of("# <- made on every call")


def test_method_on_new_objects_names_the_new_instance():
    class Scaler:
        @tf.function
        def apply(self, x):
            return x * 2

    with trace_logger(warn_after=None) as log:
        keep = [Scaler() for _ in range(2)]
        for s in keep:
            s.apply(tf.ones([2]))
    assert [e.kind for e in log.events] == ["first", "retrace"]
    assert "a new Scaler object" in str(log.events[1].reasons[0])
    assert log.count(Scaler.apply) == 2
    assert log.count(keep[0].apply) == 1


def test_variable_creation_second_trace_is_not_a_retrace():
    class Counter(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)

    counter = Counter()
    with warnings.catch_warnings(record=True) as caught, \
            trace_logger(warn_after=1) as log, report.collecting() as findings:
        warnings.simplefilter("always")
        counter()
        counter()
    assert [e.kind for e in log.events] == ["first", "variable-creation"]
    assert log.count(counter.__call__) == 2 == counter.__call__.experimental_get_tracing_count()
    assert log.count(counter.__call__, kind="retrace") == 0
    assert not log.functions(retraced_only=True)
    assert not [w for w in caught if issubclass(w.category, (RetracingWarning, StaleCaptureWarning))]
    assert not [f for f in findings if f.category in ("retracing", "stale-capture")]


def test_same_inputs_in_another_context_is_a_context_retrace():
    @tf.function
    def double(x):
        return x * 2

    with trace_logger(warn_after=None) as log:
        double(tf.constant(1.0))
        with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
            double(tf.constant(1.0))
    assert [e.kind for e in log.events] == ["first", "retrace"]
    assert log.events[1].reasons[0].kind == "context"


def test_nested_tf_function_call_site_is_the_line_inside_the_outer_function():
    @tf.function
    def inner(x):
        return x + 1

    @tf.function
    def outer(x):
        y = inner(x)  # the nested call
        return y * 2

    with trace_logger() as log:
        outer(tf.constant(1))
    by_name = {e.function.split(".")[-1]: e for e in log.events}
    assert by_name["inner"].depth == 1 and by_name["outer"].depth == 0
    assert by_name["inner"].call_line == _line_of("# the nested call")


def test_tf_data_map_function_is_recorded_under_the_users_function():
    def preprocess(image, label):
        return image * 2, label

    with trace_logger() as log:
        ds = tf.data.Dataset.from_tensor_slices((tf.ones([4, 2]), tf.range(4)))
        ds = ds.map(preprocess)  # the map call
    (event,) = [e for e in log.events if "preprocess" in e.function]
    assert event.function == "test_tf_data_map_function_is_recorded_under_the_users_function" \
        ".preprocess (tf.data)"
    assert event.call_line == _line_of("# the map call")
    assert [n for n, _ in event.signature] == ["image", "label"]
    assert log.count(preprocess) == 1


# -- fixes ------------------------------------------------------------------------------

def _paste(signature_code: str):
    return eval(signature_code, {"tf": tf})  # noqa: S307 - the suggestion is Python source


def test_input_signature_suggestion_pasted_back_stops_shape_retracing():
    def encode(tokens, weights):
        return tf.reduce_sum(tf.one_hot(tokens, 10), axis=0) * tf.reduce_sum(weights)

    inputs = [(tf.range(n), tf.ones([n, 3])) for n in range(1, 6)]
    original = tf.function(encode)
    with trace_logger(warn_after=None) as log:
        for args in inputs:
            original(*args)
    assert log.count(encode) == 5
    code = log.input_signature(encode)
    assert code == ("[tf.TensorSpec(shape=[None], dtype=tf.int32), "
                    "tf.TensorSpec(shape=[None, 3], dtype=tf.float32)]")
    fixed = tf.function(encode, input_signature=_paste(code))
    for args in inputs:
        np.testing.assert_allclose(fixed(*args), original(*args))
    assert fixed.experimental_get_tracing_count() == 1


def test_input_signature_suggestion_covers_python_scalars_and_stops_retracing():
    def step(x, alpha):
        return x + alpha

    original = tf.function(step)
    alphas = [1.0, 0.5, 0.25, 0.125]
    with trace_logger(warn_after=None) as log:
        for a in alphas:
            original(tf.zeros([4]), a)
    suggestion = log.suggestion(step)
    assert suggestion.input_signature == ("[tf.TensorSpec(shape=[4], dtype=tf.float32), "
                                          "tf.TensorSpec(shape=[], dtype=tf.float32)]")
    assert "pass alpha as a tensor: tf.constant(alpha)" in suggestion.actions
    fixed = tf.function(step, input_signature=_paste(suggestion.input_signature))
    for a in alphas:
        np.testing.assert_allclose(fixed(tf.zeros([4]), a), original(tf.zeros([4]), a))
    assert fixed.experimental_get_tracing_count() == 1


def test_no_input_signature_when_a_spec_cannot_express_the_history():
    @tf.function
    def f(x):
        return x

    with trace_logger(warn_after=None) as log:
        f(tf.ones([2]))
        f(tf.ones([2], tf.float64))
    suggestion = log.suggestion(f)
    assert suggestion.input_signature is None
    assert suggestion.actions == ["give x one dtype: tf.cast(x, tf.float32) before the call"]


def test_trailing_constant_python_argument_with_its_default_is_left_out():
    def f(x, training=False):
        return x

    g = tf.function(f)
    with trace_logger(warn_after=None) as log:
        g(tf.ones([1]))
        g(tf.ones([2]))
    code = log.input_signature(f)
    assert code == "[tf.TensorSpec(shape=[None], dtype=tf.float32)]"
    fixed = tf.function(f, input_signature=_paste(code))
    fixed(tf.ones([1]))
    fixed(tf.ones([5]))
    assert fixed.experimental_get_tracing_count() == 1


# -- output -----------------------------------------------------------------------------

def test_table_and_summary_show_counts_reasons_and_suggestion():
    @tf.function
    def encode(tokens):
        return tf.reduce_sum(tokens)

    with trace_logger(warn_after=None) as log:
        for n in range(1, 4):
            encode(tf.range(n))  # table test
    table = log.table()
    for text in ("function", "traces", "retrace reasons", "suggestion", "encode",
                 "3 (2 retraces)", "tokens: 3 shapes (1,), (2,), (3,)", "input_signature",
                 "reduce_retracing=True"):
        assert text in table, text
    summary = log.summary()
    assert "1 function, 3 traces (2 retraces)" in summary
    assert f"caused at: test_trace_log.py:{_line_of('# table test')}" in summary
    assert "no tf.function was traced more than once" == trace_logger().table(retraced_only=True)


def test_warning_once_per_function_at_the_call_site_after_the_threshold():
    @tf.function
    def f(x):
        return x

    with warnings.catch_warnings(record=True) as caught, report.collecting() as findings:
        warnings.simplefilter("always")
        with trace_logger(warn_after=2):
            for n in range(1, 6):
                f(tf.ones([n]))  # retraces
    ours = [w for w in caught if issubclass(w.category, RetracingWarning)]
    assert len(ours) == 1
    assert (ours[0].filename, ours[0].lineno) == (HERE, _line_of("f(tf.ones([n]))  # retraces"))
    assert "TFD200" in str(ours[0].message) and "x: 3 shapes (1,), (2,), (3,)" in str(ours[0].message)
    (finding,) = [x for x in findings if x.category == "retracing"]
    assert (finding.severity, finding.recipe, finding.file, finding.line) == \
        ("warning", "TFD200", HERE, _line_of("f(tf.ones([n]))  # retraces"))
    assert finding.code == "f(tf.ones([n]))  # retraces"


def test_the_warning_also_goes_to_the_tfdebug_logger_when_logging_is_configured(caplog):
    @tf.function
    def g(x):
        return x

    with warnings.catch_warnings(), caplog.at_level("WARNING", logger="tfdebug"):
        warnings.simplefilter("ignore")
        with trace_logger(warn_after=1) as log:
            g(tf.ones([1]))
            g(tf.ones([2]))
    (record,) = [r for r in caplog.records if r.name == "tfdebug"]
    assert "TFD200 retracing: " in record.getMessage() and "test_trace_log.py" in record.getMessage()
    assert [str(r) for e in log.retraces(g) for r in e.reasons] == ["x: shape (1,) -> (2,)"]


def test_no_warning_below_the_threshold_or_when_turned_off():
    @tf.function
    def f(x):
        return x

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with trace_logger():                       # default: 4 retraces
            for n in range(1, 5):
                f(tf.ones([n]))
        with trace_logger(warn_after=None):
            for n in range(5, 15):
                f(tf.ones([n]))
    assert not [w for w in caught if issubclass(w.category, RetracingWarning)]


def test_max_traces_raises_on_the_trace_that_passes_the_limit_with_the_explanation():
    @tf.function
    def step(x, lr):
        return x * lr

    with trace_logger(max_traces=2) as log:
        step(tf.ones([2]), 0.1)
        step(tf.ones([2]), 0.2)
        with pytest.raises(RetracingError) as info:
            step(tf.ones([2]), 0.3)  # the third trace
    error = info.value
    assert isinstance(error, tracing.SubscriberError)
    message = str(error)
    assert "3rd time" in message and "max_traces=2" in message
    assert "lr: Python value 0.2 -> 0.3 [TFD202]" in message
    assert f"test_trace_log.py:{_line_of('# the third trace')}" in message
    assert "tf.TensorSpec(shape=[], dtype=tf.float32)" in message
    assert error.event.kind == "retrace"
    assert log.count(step) == 2 == step.experimental_get_tracing_count()


def test_max_traces_on_a_nested_function_keeps_the_error_class():
    @tf.function
    def inner(x, n):
        return x * n

    @tf.function
    def outer_one(x):
        return inner(x, 1)

    @tf.function
    def outer_two(x):
        return inner(x, 2)  # inner's second trace

    with trace_logger(max_traces=1):
        outer_one(tf.constant(1.0))
        with pytest.raises(RetracingError, match="n: Python value 1 -> 2"):
            outer_two(tf.constant(1.0))


def test_max_traces_does_not_count_the_variable_creation_trace():
    class Dense(tf.Module):
        def __init__(self):
            self.w = None

        @tf.function
        def __call__(self, x):
            if self.w is None:
                self.w = tf.Variable(tf.ones([2, 2]))
            return x @ self.w

    layer = Dense()
    with trace_logger(max_traces=1) as log:
        layer(tf.ones([1, 2]))
        layer(tf.ones([1, 2]))
    assert [e.kind for e in log.events] == ["first", "variable-creation"]


def test_decorator_form_gives_a_fresh_logger_per_call():
    @tf.function
    def f(x):
        return x

    limited = trace_logger(max_traces=1)

    @limited
    def run(n):
        f(tf.ones([n]))
        f(tf.ones([n + 1]))

    with pytest.raises(RetracingError):
        run(10)
    with pytest.raises(RetracingError):
        run(20)   # a new logger: the count starts again, so it fails at the same point
    assert limited.events == []


def test_bad_arguments_are_rejected_with_a_clear_message():
    with pytest.raises(ValueError, match=r"max_traces=0.*whole number >= 1"):
        trace_logger(max_traces=0)
    with pytest.raises(ValueError, match="warn_after"):
        trace_logger(warn_after="5")
    log = trace_logger()
    with pytest.raises(ValueError, match="kind is one of first, retrace, variable-creation"):
        log.count("f", kind="bogus")
    with pytest.raises(TypeError, match="take a tf.function, a function, a method or a name"):
        log.count(42)
    with pytest.raises(KeyError, match="was not traced"):
        log.suggestion("nothing")


def test_the_users_exception_during_a_trace_is_untouched_and_not_recorded():
    class MyError(Exception):
        pass

    created = []

    @tf.function(autograph=False)   # AutoGraph would rebuild the error itself; TF, not us
    def broken(x):
        created.append(MyError("boom", 7))
        raise created[-1]

    raised = None
    with trace_logger() as log:
        try:
            broken(tf.constant(1))
        except MyError as exc:
            raised = exc
    assert raised is created[0] and raised.args == ("boom", 7)
    assert log.events == []


def test_a_tfdebug_bug_never_breaks_the_trace(monkeypatch):
    def explode(*args, **kwargs):
        raise RuntimeError("internal")

    monkeypatch.setattr(_tf, "describe_trace_type", explode)

    @tf.function
    def f(x):
        return x + 1

    with trace_logger() as log:
        assert int(f(tf.constant(1))) == 2
    assert log.events == []


# -- scopes, hooks, threads -------------------------------------------------------------

def test_hook_is_removed_when_the_last_scope_exits():
    outer, inner = trace_logger(), trace_logger()
    assert not _tf.trace_hook_installed()
    with outer:
        with inner:
            assert _tf.trace_hook_installed()
        assert _tf.trace_hook_installed()
        with outer:                              # the same logger entered again
            pass
        assert _tf.trace_hook_installed()
    assert not _tf.trace_hook_installed() and not tracing.active()


def test_nested_loggers_both_see_the_traces():
    @tf.function
    def f(x):
        return x

    with trace_logger() as outer:
        f(tf.ones([1]))
        with trace_logger() as inner:
            f(tf.ones([2]))
    assert outer.count(f) == 2 and inner.count(f) == 1
    assert inner.events[0].kind == "first"   # the inner logger had not seen the first trace


def _f0(x):
    return x * 0


def _f1(x):
    return x * 1


def _f2(x):
    return x * 2


def _f3(x):
    return x * 3


def test_threads_tracing_concurrently():
    functions = [tf.function(f) for f in (_f0, _f1, _f2, _f3)]
    errors = []

    def work(fn):
        try:
            for n in range(1, 4):
                fn(tf.ones([n]))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    with trace_logger(warn_after=None) as log:
        threads = [threading.Thread(target=work, args=(fn,)) for fn in functions]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors
    assert len(log.events) == 12
    for fn in functions:
        assert log.count(fn) == 3
        assert log.count(fn, kind="first") == 1 and log.count(fn, kind="retrace") == 2
        (summary,) = [f for f in log.functions() if f["function"] == fn.python_function.__name__]
        assert summary["reasons"] == ["x: 3 shapes (1,), (2,), (3,)"]
    assert len({e.thread for e in log.events}) == 4


def test_calling_a_traced_function_inside_the_scope_adds_nothing_per_call():
    @tf.function
    def f(x):
        return x + 1

    f(tf.constant(1.0))
    with trace_logger() as log:
        for _ in range(50):
            f(tf.constant(2.0))
    assert log.events == []


# -- stale captures ---------------------------------------------------------------------

THRESHOLD = 0.5


@tf.function
def keep_above(x):
    return tf.boolean_mask(x, x > THRESHOLD)  # reads THRESHOLD


def test_changed_global_is_reported_at_scope_exit_at_the_reading_line():
    global THRESHOLD
    THRESHOLD = 0.5
    try:
        with warnings.catch_warnings(record=True) as caught, report.collecting() as findings:
            warnings.simplefilter("always")
            with trace_logger() as log:
                keep_above(tf.constant([0.2, 0.6, 0.9]))
                THRESHOLD = 0.8
                keep_above(tf.constant([0.2, 0.6, 0.9]))
    finally:
        THRESHOLD = 0.5
    (stale,) = log.stale_captures
    line = _line_of("# reads THRESHOLD")
    assert (stale.label, stale.kind, stale.file, stale.line) == ("THRESHOLD", "global", HERE, line)
    assert (stale.before, stale.after, stale.recipe) == ("0.5", "0.8", "TFD210")
    (w,) = [w for w in caught if issubclass(w.category, StaleCaptureWarning)]
    assert (w.filename, w.lineno) == (HERE, line)
    (finding,) = [f for f in findings if f.category == "stale-capture"]
    assert (finding.recipe, finding.line, finding.function) == ("TFD210", line, "keep_above")


def test_unchanged_values_are_not_reported():
    with trace_logger() as log:
        keep_above(tf.constant([0.1, 0.7]))
    assert log.stale_captures == []


def test_closure_and_attribute_changes_are_reported_at_the_next_retrace():
    def make():
        factor = [2.0]

        @tf.function
        def scale(x):
            return x * factor[0]  # reads factor

        return scale, factor

    scale, factor = make()

    class Model:
        def __init__(self):
            self.bias = np.zeros(2, np.float32)

        def offset(self):
            return self.bias  # reads self.bias

        @tf.function
        def __call__(self, x):
            return x + self.offset()

    model = Model()
    with warnings.catch_warnings(record=True), trace_logger(warn_after=None) as log:
        warnings.simplefilter("always")
        scale(tf.ones([1]))
        model(tf.ones([2]))
        factor[0] = 3.0                     # mutated in place
        model.bias = np.ones(2, np.float32)
        scale(tf.ones([3]))                 # a retrace: the old graph keeps 2.0
        assert [s.label for s in log.stale_captures] == ["factor"]
        model(tf.ones([4, 2]))
        assert [s.label for s in log.stale_captures] == ["factor", "self.bias"]
    factor_stale, bias_stale = log.stale_captures
    assert (factor_stale.kind, factor_stale.line, factor_stale.before, factor_stale.after) == \
        ("closure", _line_of("# reads factor"), "[2.0]", "[3.0]")
    assert (bias_stale.kind, bias_stale.line, bias_stale.function, bias_stale.recipe) == \
        ("attribute", _line_of("# reads self.bias"), "test_closure_and_attribute_changes_are_"
         "reported_at_the_next_retrace.<locals>.Model.offset", "TFD211")
    assert "Model.__call__" in bias_stale.traced


def test_attribute_the_function_sets_itself_is_not_a_stale_capture():
    class Lazy(tf.Module):
        def __init__(self):
            self.w = None

        @tf.function
        def __call__(self, x):
            if self.w is None:
                self.w = tf.Variable(2.0)
            return x * self.w

    lazy = Lazy()
    with trace_logger() as log:
        lazy(tf.constant(1.0))
    assert log.stale_captures == []


def test_stale_detection_can_be_turned_off():
    global THRESHOLD
    try:
        with trace_logger(stale=False) as log:
            keep_above(tf.constant([0.3, 0.9]))
            THRESHOLD = 0.1
    finally:
        THRESHOLD = 0.5
    assert log.stale_captures == []


# -- the public face and tfdebug run --------------------------------------------------------

def test_public_names():
    assert tfdebug.trace_logger is trace_logger
    assert isinstance(tfdebug.trace_logger(), TraceLogger)
    assert {"trace_logger", "TraceEvent", "RetracingError"} <= set(tfdebug.__all__)


STORM = textwrap.dedent("""\
    import tensorflow as tf

    @tf.function
    def step(x, lr):
        return x * lr

    for i in range(6):
        step(tf.ones([i + 1]), 0.1)
""")


# `tfdebug run` on scripts that configure nothing runs in forks of the case server
# (forked_python: `python -m tfdebug` there, TensorFlow's import paid once); the retracing
# example runs as a real process, as a user runs it.

def test_tfdebug_run_prints_the_table_and_reports_traces_and_the_call_site(tmp_path,
                                                                           forked_python):
    script = tmp_path / "storm.py"
    script.write_text(STORM)
    out = tmp_path / "r.json"
    result = forked_python(None, "run", "--report", out, script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "tfdebug: functions that retraced:" in result.stderr
    assert "x: 6 shapes (1,), (2,), (3,), …, (6,)" in result.stderr
    assert "RetracingWarning" in result.stderr
    data = json.loads(out.read_text())
    (trace,) = [t for t in data["traces"] if t["function"] == "step"]
    assert (trace["count"], trace["retraces"], trace["line"]) == (6, 5, 3)
    assert trace["reasons"] == ["x: 6 shapes (1,), (2,), (3,), …, (6,)"]
    assert trace["input_signature"] == ("[tf.TensorSpec(shape=[None], dtype=tf.float32), "
                                        "tf.TensorSpec(shape=[], dtype=tf.float32)]")
    (diag,) = [d for d in data["diagnostics"] if d["category"] == "retracing"]
    assert (diag["severity"], diag["recipe"], diag["line"]) == ("warning", "TFD200", 8)
    assert diag["code"] == "step(tf.ones([i + 1]), 0.1)"


def test_tfdebug_run_on_a_clean_script_prints_no_table(tmp_path, forked_python):
    script = tmp_path / "clean.py"
    script.write_text("import tensorflow as tf\nf = tf.function(lambda x: x)\nf(tf.ones([2]))\n")
    out = tmp_path / "r.json"
    result = forked_python(None, "run", "--report", out, script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "retraced" not in result.stderr
    data = json.loads(out.read_text())
    assert [t["count"] for t in data["traces"]] == [1]
    assert not [d for d in data["diagnostics"] if d["category"] in ("retracing", "stale-capture")]


def test_example_retracing_storm_is_diagnosed(tmp_path):
    out = tmp_path / "r.json"
    result = run_tfdebug("run", "--report", str(out), os.path.join(ROOT, "examples", "retracing.py"),
                         cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text())
    categories = {d["category"] for d in data["diagnostics"]}
    assert {"retracing", "stale-capture"} <= categories
    retraced = {t["function"]: t for t in data["traces"] if t["retraces"]}
    assert set(retraced) == {"train_step", "accuracy"}
    assert retraced["train_step"]["recipes"] == ["TFD200", "TFD202"]
    assert retraced["accuracy"]["recipes"] == ["TFD204"]
    assert "tfdebug: functions that retraced:" in result.stderr


def test_example_fixed_version_traces_each_function_once(tmp_path, forked_python):
    # the example's one setting of the process (TF_CPP_MIN_LOG_LEVEL, set if unset) is the
    # case server's already
    out = tmp_path / "r.json"
    result = forked_python(None, "run", "--report", out,
                           os.path.join(ROOT, "examples", "retracing.py"), "--fixed", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text())
    assert {t["function"]: t["count"] for t in data["traces"]} == {"train_step": 1, "accuracy": 1}
    assert not [d for d in data["diagnostics"] if d["category"] in ("retracing", "stale-capture")]
    assert "retraced" not in result.stderr


# -- the shared reproducers ----------------------------------------------------------------

@pytest.mark.parametrize("case", [
    "027_variable_on_first_call_traces_twice.py",
    "028_retrace_python_float_argument.py",
    "030_retrace_variable_length_inputs.py",
    "036_side_effect_numpy_state_captured_loop_never_ends.py",
])
def test_reproducers_get_the_expected_trace_log_diagnosis(case, tmp_path, forked_python):
    path = os.path.join(ROOT, "tests", "cases", case)
    categories, expect, lines = case_header(path)
    ours = {"retracing", "stale-capture"}
    out = tmp_path / "r.json"
    if case_worker.needs_fresh_process(path):
        result = run_tfdebug("run", "--report", str(out), path, cwd=str(tmp_path))
    else:
        result = forked_python(None, "run", "--report", out, path, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    found = [d for d in json.loads(out.read_text())["diagnostics"]
             if d["category"] in ours and d["file"] == path]
    if expect == "clean":
        assert not [d for d in found if d["category"] in categories]
    else:
        assert [d for d in found if d["category"] in categories and d["line"] in lines
                and d["severity"] == "warning"], found


# -- suggestions hold for any history ---------------------------------------------------


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 3).flatmap(
    lambda rank: st.lists(st.tuples(*[st.integers(1, 4)] * rank), min_size=2, max_size=4,
                          unique=True)))
def test_pasted_input_signature_accepts_every_traced_shape(shapes):
    def total(x):
        return tf.reduce_sum(x)

    original = tf.function(total)
    with trace_logger(warn_after=None) as log:
        for shape in shapes:
            original(tf.ones(shape))
    code = log.input_signature(total)
    spec = _paste(code)[0]
    for axis in range(len(shapes[0])):
        varied = len({s[axis] for s in shapes}) > 1
        assert (spec.shape[axis] is None) == varied
    fixed = tf.function(total, input_signature=_paste(code))
    for shape in shapes:
        fixed(tf.ones(shape))
    assert fixed.experimental_get_tracing_count() == 1


def test_a_dropped_tf_function_leaves_no_stale_capture():
    global THRESHOLD
    try:
        with pytest.warns(StaleCaptureWarning), trace_logger() as log:
            for value in (0.5, 0.2, 0.1):
                THRESHOLD = value
                fresh = tf.function(keep_above.python_function)  # made anew: reads the new value
                fresh(tf.constant([0.3, 0.9]))
            kept = tf.function(keep_above.python_function)
            kept(tf.constant([0.3, 0.9]))
            THRESHOLD = 0.7                                      # `kept` is alive and stale
            kept(tf.constant([0.3, 0.9]))                        # and runs with 0.1
    finally:
        THRESHOLD = 0.5
    assert [(s.label, s.before, s.after) for s in log.stale_captures] == [("THRESHOLD", "0.1", "0.7")]


@pytest.mark.parametrize("called_again", [False, True])
def test_a_value_changed_after_the_last_call_is_not_stale(called_again):
    # the graph that froze the old value never ran after its trace: no stale value was used
    global THRESHOLD
    try:
        with warnings.catch_warnings(record=True) as caught, trace_logger() as log:
            warnings.simplefilter("always")
            kept = tf.function(keep_above.python_function)
            kept(tf.constant([0.3, 0.9]))
            THRESHOLD = 0.7
            if called_again:
                kept(tf.constant([0.3, 0.9]))
    finally:
        THRESHOLD = 0.5
    stale = [(s.label, s.before, s.after) for s in log.stale_captures]
    assert stale == ([("THRESHOLD", "0.5", "0.7")] if called_again else [])
    assert any(w.category is StaleCaptureWarning for w in caught) == called_again


class _Records(__import__("logging").Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _tensorflow_retracing_warnings(scope, retraced) -> list[str]:
    """TensorFlow's own frequent-retracing warnings logged while ``retraced`` (a function
    TensorFlow has not warned about: it warns twice per function) retraces six times."""
    records = _Records()
    logger = _tf.tensorflow_logger()
    logger.addHandler(records)
    try:
        with scope, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for step in range(7):
                retraced(tf.constant(1.0), 0.5 + step)
    finally:
        logger.removeHandler(records)
    return [m for m in records.messages if "triggered tf.function retracing" in m]


def test_tensorflow_s_retracing_warning_is_dropped_only_while_the_logger_reports_the_function():
    import contextlib

    @tf.function
    def alone(x, lr):
        return x * lr

    @tf.function
    def logged(x, lr):
        return x * lr

    @tf.function
    def not_reported(x, lr):
        return x * lr

    assert _tensorflow_retracing_warnings(contextlib.nullcontext(), alone)  # TF warns on its own
    with trace_logger() as log:
        assert _tensorflow_retracing_warnings(log, logged) == []         # tfdebug says it better
    # a logger that does not warn about it (warn_after=None) leaves TensorFlow's warning
    assert _tensorflow_retracing_warnings(trace_logger(warn_after=None), not_reported)
    assert _tf.tensorflow_logger().filters == []                         # nothing left behind
    # any other record, or without TF's frame on the stack: not the retracing warning
    record = __import__("logging").LogRecord("tensorflow", 30, "x.py", 1, "hello", (), None)
    assert _tf.warned_function(record) is None


def test_a_rebound_optimizer_is_a_stale_capture_at_the_line_using_it():
    """The graph captured the first optimizer's variables and update ops: a new object bound
    to the same global is never used by it."""
    import keras
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    holder = {"optimizer": keras.optimizers.Adam(0.1)}

    class Trainer:
        def __init__(self):
            self.optimizer = holder["optimizer"]

        @tf.function
        def step(self, x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(model(x))
            grads = tape.gradient(loss, model.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, model.trainable_variables))  # applies
            return loss

    trainer = Trainer()
    with warnings.catch_warnings(record=True), trace_logger() as log:
        warnings.simplefilter("always")
        trainer.step(tf.ones([1, 2]))
        trainer.step(tf.ones([1, 2]))
        assert log.stale_captures == []          # the same object: nothing changed
        trainer.optimizer = keras.optimizers.SGD(0.1)
        trainer.step(tf.ones([1, 2]))
    (stale,) = log.stale_captures
    assert (stale.label, stale.line, stale.recipe) == ("self.optimizer", _line_of("# applies"), "TFD211")
    assert stale.before.startswith("Adam at") and stale.after.startswith("SGD at")


LOSS_SCALE = 1.0


def _scaled_loss(y_true, y_pred):
    return tf.reduce_mean(tf.square(y_true - y_pred)) * LOSS_SCALE  # <- scale


class _RaiseScale(tf.keras.callbacks.Callback):
    def __init__(self, value):
        super().__init__()
        self.value = value

    def on_epoch_end(self, epoch, logs=None):
        global LOSS_SCALE
        LOSS_SCALE = self.value


@pytest.mark.parametrize("changed", [False, True])
def test_a_global_a_compiled_loss_reads_is_a_stale_capture_when_a_callback_changes_it(changed):
    """Keras' train function calls the loss the model was compiled with while it is traced:
    a global it reads is frozen into the graph, and a callback changing it changes nothing
    (warned at the loss's line); a value set back to what was traced is not stale."""
    global LOSS_SCALE
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss=_scaled_loss)
    try:
        with warnings.catch_warnings(record=True) as caught, trace_logger() as log:
            warnings.simplefilter("always")
            model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0,
                      callbacks=[_RaiseScale(10.0 if changed else 1.0)])
    finally:
        LOSS_SCALE = 1.0
    stale = [(s.label, s.line) for s in log.stale_captures]
    assert stale == ([("LOSS_SCALE", line_of(HERE, "# <- scale"))] if changed else [])
    assert any(w.category is StaleCaptureWarning for w in caught) == changed


class _WeightedLoss(tf.keras.losses.Loss):
    def __init__(self, weight):
        super().__init__()
        self.weight = weight

    def call(self, y_true, y_pred):
        return self.weight * tf.reduce_mean(tf.abs(y_true - y_pred), axis=-1)  # <- weight


class _SetWeight(tf.keras.callbacks.Callback):
    def __init__(self, loss, value):
        super().__init__()
        self.loss, self.value = loss, value

    def on_epoch_end(self, epoch, logs=None):
        self.loss.weight = self.value


@pytest.mark.parametrize("changed", [False, True])
def test_an_attribute_a_compiled_loss_object_reads_is_a_stale_capture_when_a_callback_changes_it(changed):
    """A ``Loss`` object the model was compiled with runs its user-defined ``call`` inside
    Keras' traced train function: ``self.weight`` is frozen there, and a callback setting it
    changes nothing (warned at the loss's line); the same value set again is not stale."""
    loss = _WeightedLoss(2.0)
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss=loss)
    with warnings.catch_warnings(record=True) as caught, trace_logger() as log:
        warnings.simplefilter("always")
        model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0,
                  callbacks=[_SetWeight(loss, 0.5 if changed else 2.0)])
    stale = [(s.label, s.line) for s in log.stale_captures]
    assert stale == ([("self.weight", line_of(HERE, "# <- weight"))] if changed else [])
    assert any(w.category is StaleCaptureWarning for w in caught) == changed


PENDING = []


def _with_pending(x):
    return x + len(PENDING)  # <- len global


class _Replay:
    def __init__(self):
        import collections
        self.memory = collections.deque(maxlen=1000)

    @tf.function
    def warmup(self, x):
        size = len(self.memory)  # <- len attribute
        return x * tf.minimum(1.0, size / 4.0)


@pytest.mark.parametrize("grows", [False, True])
def test_the_length_of_a_captured_container_is_a_stale_capture_when_it_changes(grows):
    """``len(self.memory)`` / ``len(PENDING)`` become Python ints in the graph: a container
    that grows after the trace (a deque of any size, whose items are not fingerprinted) is
    warned with its length; one whose length is back to the traced one is not."""
    replay, with_pending = _Replay(), tf.function(_with_pending)  # traced in this test
    if not grows:
        replay.memory.append(np.zeros(2000))
        PENDING.append(-1)
    try:
        with warnings.catch_warnings(record=True) as caught, trace_logger() as log:
            warnings.simplefilter("always")
            for step in range(3):
                replay.memory.append(np.zeros(2000))
                PENDING.append(step)
                if not grows:  # the items change, the length stays the traced one
                    replay.memory.popleft()
                    PENDING.pop(0)
                replay.warmup(tf.constant(1.0))
                with_pending(tf.constant(0.0))
    finally:
        PENDING.clear()
    stale = sorted((s.label, s.line, s.before, s.after) for s in log.stale_captures)
    expected = [("len(PENDING)", line_of(HERE, "# <- len global"), "1", "3"),
                ("len(self.memory)", line_of(HERE, "# <- len attribute"), "1", "3")]
    assert stale == (expected if grows else [])
    assert any(w.category is StaleCaptureWarning for w in caught) == grows
