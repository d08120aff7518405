"""Kinds only from evidence: a name is a Python container, a tensor, per-call code or traced
code only where the module proves it; what rests on inference is reported with preview only.

Each pair pins both sides: the proven case is still found, the guess is not.
"""
import pytest

from tfdebug import lint

HEADER = "import tensorflow as tf\nimport keras\n"


def codes(source, preview=False):
    return [(f.line, f.code) for f in lint.lint_source(source, "t.py", header=HEADER,
                                                       preview=preview)]


# --------------------------------------------------------------------------- containers
def test_a_module_list_is_a_container_an_object_with_append_is_not():
    source = ("history = []\n"
              "buffer = ReplayBuffer()\n"
              "@tf.function\n"
              "def step(x):\n"
              "    history.append(x)\n"
              "    buffer.append(x)\n"
              "    buffer.add(x)\n"
              "    return x\n")
    assert codes(source) == [(5, "TFD302")]
    assert codes(source, preview=True) == [(5, "TFD302")]  # unknown is never a finding


def test_a_module_name_also_bound_by_a_loop_is_of_unknown_kind():
    assert codes("items = []\n"
                 "for items in load():\n"
                 "    pass\n"
                 "@tf.function\n"
                 "def step(x):\n"
                 "    items.append(x)\n"
                 "    return x\n") == []


def test_a_closure_is_a_container_only_when_bound_to_one():
    source = ("def build(opt):\n"
              "    seen = []\n"
              "    slots = make_slots()\n"
              "    @tf.function\n"
              "    def step(x):\n"
              "        seen.append(x)\n"
              "        slots.update(x)\n"
              "        opt.add(x)\n"
              "        return x\n"
              "    return step\n")
    assert codes(source) == [(6, "TFD302")]
    # a local bound to something else, or a parameter: inferred at most
    assert codes(source, preview=True) == [(6, "TFD302"), (7, "TFD302"), (8, "TFD302")]


def test_self_container_only_when_no_method_binds_it_to_something_else():
    source = ("class Net(keras.Model):\n"
              "    def __init__(self):\n"
              "        super().__init__()\n"
              "        self.history = []\n"
              "        self.buffer = []\n"
              "    def build(self, shape):\n"
              "        self.buffer = RingBuffer(10)\n"
              "    def call(self, x):\n"
              "        self.history.append(x)\n"
              "        self.buffer.append(x)\n"
              "        return x\n")
    assert codes(source) == [(9, "TFD302")]


# --------------------------------------------------------------------------- tensors
def test_star_args_of_a_dataset_function_are_a_tuple_not_a_tensor():
    assert codes("def parse(*features):\n"
                 "    for a, b in zip(features, features):\n"
                 "        pass\n"
                 "    return features\n"
                 "ds = tf.data.Dataset.range(3).map(parse)\n") == []


def test_a_dataset_element_may_be_a_structure():
    source = ("vocab = {'a': 0}\n"
              "ds = tf.data.Dataset.from_tensor_slices((['a'], [1]))\n"
              "ds = ds.map(lambda pair: [p for p in pair])\n"
              "ds = ds.map(lambda word: vocab[word])\n")
    # iterating the element is fine (a tuple); hashing it fails whatever it is
    assert codes(source) == [(4, "TFD118")]


def test_input_signature_proves_only_its_tensor_specs():
    assert codes("@tf.function(input_signature=[(tf.TensorSpec([None]), tf.TensorSpec([]))])\n"
                 "def f(pair):\n"
                 "    a, b = pair\n"
                 "    return a\n") == []
    assert codes("@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])\n"
                 "def f(x):\n"
                 "    a, b = x\n"
                 "    return x + 0.5\n") == [(3, "TFD110"), (4, "TFD161")]


# --------------------------------------------------------------------------- per call
def test_a_tf_function_made_in_traced_code_runs_once_per_trace():
    source = ("@tf.function\n"
              "def outer(x):\n"
              "    @tf.function\n"
              "    def inner(y):\n"
              "        return y * 2\n"
              "    return inner(x)\n")
    # outer's body runs once per trace, not per call: inner is made again only when outer
    # traces again, which costs the retrace anyway
    assert codes(source, preview=True) == []
    # a Keras layer called eagerly runs `call` on every call: that one stays inferred
    keras_call = ("class Unpool(keras.layers.Layer):\n"
                  "    def call(self, x):\n"
                  "        @tf.function\n"
                  "        def inner(y):\n"
                  "            return y * 2\n"
                  "        return inner(x)\n")
    assert codes(keras_call) == []
    assert codes(keras_call, preview=True) == [(4, "TFD204")]


def test_set_up_code_that_makes_functions_in_a_loop_is_not_per_call():
    source = ("fns = {}\n"
              "for name in ['a', 'b']:\n"
              "    fns[name] = tf.function(make(name))\n"
              "for name in ['a', 'b']:\n"
              "    f = tf.function(make_step)\n"
              "    f(tf.constant(1.0))\n")
    assert codes(source) == [(5, "TFD204")]


def test_a_function_called_with_an_object_each_iteration_builds():
    # a new Python object is a new trace type: a function made once would trace per object too
    loop = ("for n in (10, 250):\n"
            "    model = make_model(n)\n"
            "    x = tf.ones([n])\n"
            "    tf.function(fit)(ARG)\n")
    assert codes(loop.replace("ARG", "model"), preview=True) == []
    assert codes(loop.replace("ARG", "x")) == [(4, "TFD204")]
    assert codes(loop.replace("ARG", "data")) == [(4, "TFD204")]


def test_per_call_needs_a_call_the_module_makes_in_a_loop():
    source = ("def square(x):\n"
              "    return x * x\n"
              "class Evaluator:\n"
              "    def evaluate(self, x):\n"
              "        return tf.function(square)(x)\n"
              "def evaluate(x):\n"
              "    return tf.function(square)(x)\n"
              "for model in models:\n"
              "    model.evaluate(x)\n"
              "for i in range(3):\n"
              "    evaluate(x)\n")
    # `evaluate(x)` calls the module function; `model.evaluate` may be any object's method
    assert codes(source) == [(7, "TFD204")]
    assert codes(source, preview=True) == [(5, "TFD204"), (7, "TFD204")]


def test_a_stale_global_is_proven_by_a_loop_that_also_calls_the_function():
    traced = "@tf.function\ndef step(x):\n    return x * SCALE\n"
    called = traced + "for epoch in range(3):\n    SCALE = 0.1 * epoch\n    step(x)\n"
    set_up = traced + "for option in options:\n    SCALE = option\n"
    assert codes(called) == [(3, "TFD210")]
    assert codes(set_up) == []
    assert codes(set_up, preview=True) == [(3, "TFD210")]


# --------------------------------------------------------------------------- loop targets
@pytest.mark.parametrize("after, found", [
    ("    for y in range(3):\n        tf.print(y)\n    return x\n", []),
    ("    for y in range(3):\n        tf.print(y)\n    return y\n", [(3, "TFD155")]),
    # a loop inside a later `if` rebinds it first (target-network updates in two `if`s)
    ("    if tf.reduce_sum(x) < 9:\n        for z, y in pairs:\n            y.assign(z)\n"
     "    return x\n", []),
    ("    if tf.reduce_sum(x) < 9:\n        y = x + 1\n    else:\n        y = x - 1\n"
     "    return y\n", []),
    # a branch that leaves it alone, or reads it first: the `if`'s value may be read
    ("    if tf.reduce_sum(x) < 9:\n        y = x + 1\n    return y\n", [(3, "TFD155")]),
    ("    if tf.reduce_sum(x) < 9:\n        tf.print(y)\n        y = x\n    return x\n",
     [(3, "TFD155")]),
    ("    if tf.reduce_sum(x) < 9:\n        y.z = 1\n    return x\n", [(3, "TFD155")]),
])
def test_a_name_set_in_one_branch_is_an_output_only_if_a_later_path_reads_it_first(after, found):
    """A loop target or a later `if` that binds the name on every path before reading it
    makes the first `if`'s value unread; a read after the loop, or on a path that leaves the
    name alone, reads it."""
    assert codes("@tf.function\n"
                 "def f(x, pairs):\n"
                 "    if tf.reduce_sum(x) > 0:\n"
                 "        y = x\n" + after) == found


# --------------------------------------------------------------------------- confidence
def test_every_finding_carries_its_confidence():
    found = lint.lint_source("class M(keras.Model):\n"
                             "    def __init__(self):\n"
                             "        super().__init__()\n"
                             "        self.d = keras.layers.Dense(1)\n"
                             "    @tf.function\n"
                             "    def call(self, x):\n"
                             "        print(x)\n"
                             "        return self.d(x)\n", "t.py", header=HEADER, preview=True)
    assert {(f.code, f.confidence) for f in found} == {("TFD300", "proven"),
                                                        ("TFD165", "inferred")}
    assert found[0].to_json()["confidence"] in ("proven", "inferred")


def test_preview_from_pyproject_and_from_main(tmp_path, capsys):
    (tmp_path / "t.py").write_text(HEADER + "def square(x):\n    return x\n"
                                   "for o in opts:\n    f = tf.function(square)\n")
    assert lint.main([str(tmp_path)]) == 0
    assert lint.main([str(tmp_path)], preview=True) == 1
    (tmp_path / "pyproject.toml").write_text("[tool.tfdebug]\npreview = true\n")
    assert lint.main([str(tmp_path)]) == 1
    (tmp_path / "pyproject.toml").write_text("[tool.tfdebug]\npreview = 'yes'\n")
    assert lint.main([str(tmp_path)]) == 2
    assert "preview must be true or false" in capsys.readouterr().err


def test_only_classes_keras_says_own_variables_are_keras_objects():
    # keras.layers.InputSpec is no layer; keras.layers.Dense is one (read from Keras)
    assert codes("@tf.function\n"
                 "def f(x):\n"
                 "    spec = keras.layers.InputSpec(ndim=2)\n"
                 "    dense = keras.layers.Dense(2)\n"
                 "    return dense(x)\n") == [(4, "TFD136")]


def test_a_decorated_function_called_in_a_loop_is_not_proven_to_run_per_call():
    # `@computation` may trace `batch_train` once; calling the name need not rerun its body
    source = ("@computation\n"
              "def batch_train(x):\n"
              "    @tf.function\n"
              "    def step(y):\n"
              "        return y\n"
              "    return step(x)\n"
              "for i in range(3):\n"
              "    batch_train(x)\n")
    assert codes(source) == []
    assert codes(source.replace("@computation\n", "")) == [(3, "TFD204")]


def test_numpy_of_an_eager_module_tensor_works_while_tracing():
    # `SCALE` is an eager tensor the function holds: `.numpy()` gives its value at trace time
    assert codes("SCALE = tf.constant(2.0)\n"
                 "@tf.function\n"
                 "def f(x):\n"
                 "    y = x * SCALE.numpy()\n"
                 "    return x.numpy() + y\n") == [(5, "TFD140")]


def test_a_dataset_element_ordered_against_a_number_is_a_tensor():
    # `x > 1` holds for a tensor element (a tuple would raise): bool() of it fails
    assert codes("def keep(x):\n"
                 "    return bool(x > 1)\n"
                 "ds = tf.data.Dataset.range(3).map(keep)\n") == [(2, "TFD101")]


# --------------------------------------------------------------------------- set-up values
def test_an_assigned_result_is_no_container_method():
    # list/dict/set `update`, `append`, `add` return None: a result that is unpacked comes
    # from some other object's method (a functional optimizer), not from a container
    source = ("def make_step(optimizer, history):\n"
              "    @tf.function\n"
              "    def step(grads, state, params):\n"
              "        updates, state = optimizer.update(grads, state, params)\n"
              "        history.append(updates)\n"
              "        return updates, state\n"
              "    return step\n")
    assert codes(source, preview=True) == [(5, "TFD302")]


def test_a_global_set_up_by_loops_before_the_function_exists_is_not_stale():
    traced = "@tf.function\ndef step(x):\n    return x * SCALE\n"
    set_up = "SCALE = 1.0\nfor option in options:\n    SCALE = SCALE * option\n"
    assert codes(set_up + traced, preview=True) == []
    # a loop after the def may run between traces: that one stays (inferred)
    assert codes(traced + set_up, preview=True) == [(3, "TFD210")]
    assert codes(traced + set_up + "for i in range(3):\n    SCALE = i\n    step(x)\n") == [
        (3, "TFD210")]
