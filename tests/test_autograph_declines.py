"""AutoGraph's declines: a tensor `if`/`for` failing in a function AutoGraph ran as plain
Python is diagnosed as autograph-conversion, at what made AutoGraph decline."""
import inspect
import time

import pytest
import tensorflow as tf
from tensorflow.python.autograph.impl import api

from tfdebug import _tf
from tfdebug import diagnose as diagnose_fn

pytestmark = pytest.mark.smoke


def _line_of(fn, marker):
    fn = inspect.unwrap(getattr(fn, "python_function", fn))
    lines, start = inspect.getsourcelines(fn)
    for offset, text in enumerate(lines):
        if marker in text:
            return start + offset
    raise AssertionError(marker)


def _diagnosis(fn, *args):
    with pytest.raises(Exception) as info:
        fn(*args)
    d = diagnose_fn(info.value)
    assert d is not None
    return d


# -- constructs AutoGraph's unsupported-features checker refuses -----------------------------

@tf.function
def _for_else(n):
    total = tf.constant(0)
    for i in tf.range(n):  # <- for
        total += i
    else:
        total += 1
    return total


def _while_else_helper(x):
    while x > 0:  # <- while
        x -= 1
    else:
        x += 10
    return x


@tf.function
def _calls_while_else(x):
    return _while_else_helper(x) * 2


class _Mangled(tf.Module):
    def __init__(self):
        super().__init__()
        self.__scale = 2.0

    @tf.function
    def __call__(self, x):
        if x > 0:  # <- if
            return x * self.__scale  # <- mangled
        return x


def test_for_else_in_the_traced_function_is_the_cause():
    d = _diagnosis(_for_else, tf.constant(3))
    assert (d.recipe.id, d.category) == ("TFD132", "autograph-conversion")
    assert d.line == _line_of(_for_else, "# <- for")
    assert "for/else" in d.autograph
    assert d.symptom is not None and d.symptom.line == _line_of(_for_else, "# <- for")
    note = d.note()
    assert "autograph: ran _for_else as plain Python: for/else statement" in note
    assert "symptom:" in note and "Iterating over a symbolic" in note


def test_while_else_in_a_helper_blames_the_helper():
    d = _diagnosis(_calls_while_else, tf.constant(3))
    assert d.recipe.id == "TFD132" and "while/else" in d.autograph
    assert (d.function, d.line) == ("_while_else_helper", _line_of(_while_else_helper, "# <- while"))


def test_a_mangled_name_is_blamed_not_the_if():
    module = _Mangled()
    d = _diagnosis(module, tf.constant(1.0))
    assert d.recipe.id == "TFD132" and "mangled names" in d.autograph
    assert d.line == _line_of(_Mangled.__call__, "# <- mangled")
    assert d.symptom.line == _line_of(_Mangled.__call__, "# <- if")


# -- callables AutoGraph runs as-is by design -------------------------------------------------

@tf.autograph.experimental.do_not_convert
def _not_converted(x):
    if x > 1.0:  # <- needs conversion
        return tf.constant(1.0)
    return x


@tf.function
def _calls_not_converted(x):
    return _not_converted(x) + 1.0


class _Clipped:
    def __init__(self, x):  # <- init
        if x > 1.0:
            x = tf.constant(1.0)
        self.value = x


@tf.function
def _constructs(x):
    return _Clipped(x).value


def test_do_not_convert_is_blamed_at_the_construct_that_needed_conversion():
    # the user excluded the function on purpose: the line to change is the `if` that needs
    # AutoGraph (or tf.cond); the decorator is named in AutoGraph's reason
    d = _diagnosis(_calls_not_converted, tf.constant(3.0))
    assert (d.recipe.id, d.category) == ("TFD133", "autograph-conversion")
    assert d.line == _line_of(_not_converted, "# <- needs conversion")
    assert "do_not_convert" in d.autograph


@api.do_not_convert
def _scaled_image(image):
    if tf.reduce_max(image) > 1.0:  # <- marked map function
        image = image / 255.0
    return image


def _map_marked(images):
    return next(iter(tf.data.Dataset.from_tensor_slices(images).map(_scaled_image)))


def test_a_marked_function_tf_data_runs_is_blamed_on_the_marker():
    # tf.data hands its function to AutoGraph's tf_convert, which returns a marked function
    # as-is: no converted_call frame, the marker's wrapper called by tf.data's wrapper
    d = _diagnosis(_map_marked, tf.ones([2, 3]) * 9.0)
    assert (d.recipe.id, d.category) == ("TFD133", "autograph-conversion")
    assert d.line == _line_of(_scaled_image, "# <- marked map function")
    assert "do_not_convert" in d.autograph and "tf.data" in d.autograph


def _unmarked_scaled(image):
    return image / 255.0 if tf.reduce_max(image) > 1.0 else image  # <- unmarked


@api.do_not_convert
def _map_without_autograph(images):
    # built where AutoGraph is off (inside a marked function): tf.data's wrapper holds a
    # DISABLED status, so the marker is not what kept the mapped function unconverted
    return tf.data.Dataset.from_tensor_slices(images).map(api.do_not_convert(_unmarked_scaled))


def test_a_marked_function_tf_data_would_not_convert_anyway_is_not_blamed_on_the_marker():
    d = _diagnosis(_map_without_autograph, tf.ones([2, 3]))
    assert d.category == "tensor-as-bool", d
    assert d.line == _line_of(_unmarked_scaled, "# <- unmarked")


def test_a_constructor_is_never_converted():
    d = _diagnosis(_constructs, tf.constant(3.0))
    assert d.recipe.id == "TFD134" and "constructor" in d.autograph
    assert (d.function, d.line) == ("__init__", _line_of(_Clipped.__init__, "# <- init"))


# -- a decline AutoGraph remembers: the next trace calls the function as-is silently ----------

def _cached_helper(x, check):
    for _ in range(2):
        x = x + 1.0
    else:
        x = x - 2.0
    if check and x > 0:  # <- check
        x = -x
    return x


@tf.function
def _calls_cached(x, check):
    return _cached_helper(x, check)


def test_a_decline_from_an_earlier_trace_is_still_explained():
    _calls_cached(tf.constant(1.0), False)  # first trace: AutoGraph declines, runs it fine
    d = _diagnosis(_calls_cached, tf.constant(1.0), True)  # retrace: as-is, from its cache
    assert d.recipe.id == "TFD132" and "for/else" in d.autograph
    assert d.symptom.line == _line_of(_cached_helper, "# <- check")


# -- what is not a decline stays the symptom ----------------------------------------------------

def _bool_helper(x):
    for _ in range(2):
        pass
    else:
        pass
    return bool(x > 0)  # <- bool


@tf.function
def _calls_bool_helper(x):
    return _bool_helper(x)


@tf.function(autograph=False)
def _no_autograph(x):
    if x > 0:
        return x
    return -x


@tf.function
def _converted(x):
    return [v for v in x]  # <- comprehension


def test_an_explicit_bool_fails_converted_too_so_it_stays_tensor_as_bool():
    d = _diagnosis(_calls_bool_helper, tf.constant(1.0))
    assert d.category == "tensor-as-bool" and d.autograph == ""
    assert d.line == _line_of(_bool_helper, "# <- bool")


def test_autograph_disabled_and_converted_code_are_not_declines():
    assert _diagnosis(_no_autograph, tf.constant(1.0)).category == "tensor-as-bool"
    d = _diagnosis(_converted, tf.constant([1.0, 2.0]))
    assert d.category != "autograph-conversion" and d.autograph == ""


# -- library code calls the user's function back: AutoGraph never sees that call -------------

def _halve_until_small(x):
    while tf.reduce_max(x) > 1.0:  # <- while
        x = x / 2.0
    return x


@tf.function
def _through_nest(tensors):
    return tf.nest.map_structure(_halve_until_small, tensors)


def _larger(a, b):
    return a if tf.reduce_sum(a) > tf.reduce_sum(b) else b  # <- pick


@tf.function
def _through_reduce(values):
    import functools

    return functools.reduce(_larger, tf.unstack(values))


@tf.function(autograph=False)
def _through_nest_without_autograph(tensors):
    return tf.nest.map_structure(_halve_until_small, tensors)


class Gate(tf.keras.layers.Layer):
    def call(self, x):
        if tf.reduce_sum(x) > 0:  # <- keras
            return x
        return -x


_gate = Gate()


@tf.function
def _through_keras(x):
    return _gate(x)


def test_a_function_a_library_calls_back_in_converted_code_ran_unconverted():
    d = _diagnosis(_through_nest, {"a": tf.constant([8.0]), "b": tf.constant([3.0])})
    assert (d.recipe.id, d.category) == ("TFD124", "autograph-conversion"), d
    assert d.line == _line_of(_halve_until_small, "# <- while")
    assert "nest.map_structure" in d.autograph
    d = _diagnosis(_through_reduce, tf.ones([3, 2]))
    assert d.recipe.id == "TFD124" and "functools.reduce" in d.autograph, d
    assert d.line == _line_of(_larger, "# <- pick")


def test_no_autograph_at_all_or_keras_calling_a_layer_is_not_a_library_callback():
    d = _diagnosis(_through_nest_without_autograph, {"a": tf.constant([8.0])})
    assert d.category == "tensor-as-bool" and d.autograph == "", d
    d = _diagnosis(_through_keras, tf.ones([2]))  # Keras 3 calls layers without AutoGraph
    assert d.category == "tensor-as-bool" and d.recipe.id != "TFD124", d
    assert d.line == _line_of(Gate.call, "# <- keras")


class Warmup(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        if self.optimizer.iterations < 5:  # <- step
            pass
        return {"loss": tf.reduce_mean(self(x) - y)}


def test_keras_calling_user_code_in_a_trace_is_said_with_the_symptom():
    """Keras 3 runs its step under do_not_convert and AutoGraph runs a Keras layer as-is:
    the user's code Keras calls back is never converted. The symptom's category stays (Keras
    means it), AutoGraph's side is shown: which Keras code ran it as-is."""
    d = _diagnosis(_through_keras, tf.ones([2]))
    assert "called by Keras" in d.autograph and "ran unconverted" in d.autograph, d
    model = Warmup()
    model.compile(optimizer="sgd")
    d = _diagnosis(lambda: model.fit(tf.ones([4, 2]), tf.ones([4, 1]), verbose=0))
    assert d.category == "tensor-as-bool" and d.line == _line_of(Warmup.train_step, "# <- step"), d
    assert "do_not_convert" in d.autograph and "Warmup.train_step" in d.autograph, d
    # a layer built by Keras outside any trace (an Input): no AutoGraph decision involved
    d = _diagnosis(lambda: tf.keras.Sequential([tf.keras.Input((2,)), Gate()]))
    assert d.category == "tensor-as-bool" and d.autograph == "", d


# -- the recorder: AutoGraph's fallback, at trace time only ------------------------------------

def _recorded_helper(x):
    for _ in range(2):
        x = x * 2.0
    else:
        x = x + 1.0
    return x


def test_the_recorder_keeps_autograph_reason_and_restores_its_function():
    original = api._fall_back_unconverted
    assert _tf.record_declines()
    try:
        assert api._fall_back_unconverted is not original
        tf.function(lambda x: _recorded_helper(x))(tf.constant(1.0))
        decline = _tf.recorded_decline(_recorded_helper.__code__)
        assert decline is not None and decline.kind == "construct" and "for/else" in decline.reason
        assert decline.construct_line == _line_of(_recorded_helper, "for _ in range(2)")
    finally:
        _tf.stop_recording_declines()
    assert api._fall_back_unconverted is original


def test_the_recorder_refuses_a_fallback_of_another_shape(monkeypatch):
    monkeypatch.setattr(api, "_fall_back_unconverted", lambda f, exc: None)
    assert _tf.record_declines() is False
    _tf.stop_recording_declines()  # nothing to undo: a no-op


def test_frames_without_autograph_give_no_decline():
    try:
        raise ValueError("plain")
    except ValueError as exc:
        assert _tf.declined_function((exc,), lambda f: f == __file__) is None


def test_recording_adds_nothing_per_call():
    """The tfdebug code a traced function's calls run is the same with and without the
    recorder (counted with a profile hook, not timed: the recorder only replaces AutoGraph's
    fallback, which runs while a function is converted)."""
    import os
    import sys

    import tfdebug

    step = tf.function(lambda x: x * 2.0 + 1.0)
    x = tf.constant(1.0)
    step(x)
    package = os.path.dirname(tfdebug.__file__) + os.sep

    def tfdebug_calls():
        ran = []

        def profile(frame, event, arg):
            if event == "call" and frame.f_code.co_filename.startswith(package):
                ran.append(frame.f_code.co_name)

        sys.setprofile(profile)
        try:
            for _ in range(50):
                step(x)
        finally:
            sys.setprofile(None)
        return ran

    plain = tfdebug_calls()
    _tf.record_declines()
    try:
        recorded = tfdebug_calls()
    finally:
        _tf.stop_recording_declines()
    assert recorded == plain


# -- lint sees the constructs AutoGraph refuses, where the run-time decline names them ----------

def _lint_declines(source, filename):
    from tfdebug import lint
    return {f.line for f in lint.lint_source(source, filename) if f.code == "TFD132"}


@tf.function
def _searches(x):
    for i in tf.range(3):
        if x > tf.cast(i, tf.float32):
            x = x - 1.0
    else:
        x = x + 1.0
    return x


def _drains(x):
    while x > 0:
        x = x - 1.0
    else:
        x = x + 1.0
    return x


@tf.function
def _calls_drains(x):
    return _drains(x) * 2.0


class _Private(tf.Module):
    def __init__(self):
        super().__init__()
        self.__offset = 1.0

    @tf.function
    def __call__(self, x):
        for _ in tf.range(2):
            x = x + self.__offset
        return x


# fresh functions: AutoGraph remembers a decline, and calls a function it declined before
# as-is without a word
@pytest.mark.parametrize("fn, arg", [(_searches, 3), (_calls_drains, 3),
                                     (_Private(), 1.0)],
                         ids=["for-else", "while-else-in-helper", "mangled-attribute"])
def test_lint_finds_the_construct_autograph_declined_at_run_time(fn, arg):
    d = _diagnosis(fn, tf.constant(arg))
    assert d.recipe.id == "TFD132" and d.autograph
    with open(d.file, encoding="utf-8") as fh:
        assert d.line in _lint_declines(fh.read(), d.file)


_CONVERTS = '''
import tensorflow as tf

@tf.function(autograph=False)
def plain(x):
    for _ in range(2):
        x = x + 1
    else:
        x = x - 1
    return x

@tf.function
def dunder(x):
    if x > 0:
        return x * x.__class__.__name__.count("e")
    return x
'''


def test_lint_leaves_dunders_and_functions_autograph_skips_alone(tmp_path):
    import importlib.util

    path = tmp_path / "converts.py"
    path.write_text(_CONVERTS)
    assert _lint_declines(_CONVERTS, str(path)) == set()
    spec = importlib.util.spec_from_file_location("converts", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert float(module.plain(tf.constant(1.0))) == 2.0
    assert float(module.dunder(tf.constant(2.0))) > 0  # `if` on a tensor: AutoGraph converted it
