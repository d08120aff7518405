"""Static-shape categories and signature refusals, decided from TensorFlow's state.

unknown-shape / unknown-length are claimed only when the user's line really holds an unknown
static shape (read from the user's frame, not from the shapes TensorFlow's message lists);
a loaded SavedModel's refused call is categorised from its saved traces (the raise site's
frame). Each positive test has a near miss that must not get the category.
"""
import tempfile

import pytest
import tensorflow as tf

from tfdebug import _tf
from tfdebug.diagnosis import diagnose


def _diagnosis(fn, *args):
    with pytest.raises(Exception) as info:
        fn(*args)
    return diagnose(info.value)


def _no_size():
    return None


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def _none_from_elsewhere(x):
    n = _no_size()
    return tf.zeros([x.shape[0], n])


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _batch_dim_as_size(x):
    return tf.zeros([x.shape[0], 3])


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _literal_none(x):
    return tf.ones([x.shape[1], None])


def test_a_known_shape_index_is_not_blamed_for_a_none_from_elsewhere():
    d = _diagnosis(_none_from_elsewhere, tf.ones([2, 3]))
    assert d is not None and d.category not in ("unknown-length", "unknown-shape"), d
    assert d.line is not None


def test_an_unknown_shape_index_is_still_unknown_length():
    d = _diagnosis(_batch_dim_as_size, tf.ones([2, 3]))
    assert d.recipe is not None and d.recipe.id == "TFD121" and d.category == "unknown-length"
    assert d.shapes == ("x.shape[0] is None while tracing",)


def test_unknown_dims_beside_the_cause_do_not_make_it_unknown_shape():
    # x's batch dimension is unknown, but the line reads only x.shape[1] (3): the None is
    # the literal the user wrote.
    d = _diagnosis(_literal_none, tf.ones([2, 3]))
    assert d is not None and d.category not in ("unknown-length", "unknown-shape"), d


_dense = tf.keras.layers.Dense(2)
_dense_rank = tf.keras.layers.Dense(2)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def _dense_unknown_last(x):
    return _dense(x)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _dense_rank_one(x):
    return _dense_rank(tf.reshape(x, [-1]))


def test_keras_weights_from_an_unknown_dimension_are_unknown_shape():
    d = _diagnosis(_dense_unknown_last, tf.ones([2, 3]))
    assert d.recipe is not None and d.recipe.id == "TFD173" and d.category == "unknown-shape"
    assert d.code == "return _dense(x)"
    # which operand, which dimension: read from the traced function's frame
    assert d.shapes == ("x: static shape (None, None), dimensions 0, 1 unknown",)
    assert "  shape:  x: static shape (None, None)" in d.note()


def test_a_keras_rank_error_is_not_unknown_shape():
    d = _diagnosis(_dense_rank_one, tf.ones([2, 3]))
    assert d is not None and d.category != "unknown-shape", d
    assert d.recipe is None or d.recipe.id != "TFD173", d


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _split_by_tensor(x):
    return tf.split(x, num_or_size_splits=tf.shape(x)[0])


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _unstack_batch(x):
    return tf.unstack(x)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _split_uneven(x):
    return tf.split(x, 2, axis=1)


def test_a_piece_count_unknown_while_tracing_is_unknown_shape():
    for fn in (_split_by_tensor, _unstack_batch):
        d = _diagnosis(fn, tf.ones([2, 3]))
        assert d.recipe is not None and d.recipe.id == "TFD174" and d.category == "unknown-shape", d


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _ensure_other_width(x):
    return tf.ensure_shape(x, [None, 4])


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _set_other_width(x):
    x.set_shape([2, 4])
    return x


def test_a_contradicted_known_dimension_is_not_unknown_shape():
    # TensorFlow's message lists the unknown batch dimension (`[?,3]`); the cause is the 3.
    for fn in (_ensure_other_width, _set_other_width):
        d = _diagnosis(fn, tf.ones([2, 3]))
        assert d is not None and d.category not in ("unknown-shape", "unknown-length"), d


def test_a_known_count_that_does_not_divide_is_not_unknown_shape():
    d = _diagnosis(_split_uneven, tf.ones([2, 3]))
    assert d is not None and d.category != "unknown-shape", d


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _assert_defined(x):
    x.shape.assert_is_fully_defined()
    return x


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def _assert_literal(x):
    tf.TensorShape([None, 3]).assert_is_fully_defined()
    return x


@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def _assert_defined_any_rank(x):
    x.shape.assert_is_fully_defined()
    return x


def test_a_shape_raise_site_with_an_unknown_operand_gets_a_static_shape_category_without_a_recipe():
    # a None dimension of a known rank (the batch axis) is a length known when the graph
    # runs; an unknown rank is a shape lost
    d = _diagnosis(_assert_defined, tf.ones([2, 3]))
    assert d.recipe is None and d.category == "unknown-length", d
    d = _diagnosis(_assert_defined_any_rank, tf.ones([2, 3]))
    assert d.recipe is None and d.category == "unknown-shape", d


def test_the_same_raise_site_without_an_unknown_operand_gets_no_category():
    d = _diagnosis(_assert_literal, tf.ones([2, 3]))
    assert d.recipe is None and d.category is None, d


class _Doubler(tf.Module):
    @tf.function
    def __call__(self, x):
        return x * 2.0


@pytest.fixture(scope="module")
def loaded():
    module = _Doubler()
    module(tf.ones([2, 3]))  # the one trace that is saved
    folder = tempfile.mkdtemp()
    tf.saved_model.save(module, folder)
    return tf.saved_model.load(folder)


def test_a_loaded_function_refusing_a_shape_is_named_with_its_saved_traces(loaded):
    d = _diagnosis(loaded, tf.ones([2, 4]))
    assert d.recipe is not None and d.recipe.id == "TFD217" and d.category == "retracing"
    assert d.code == "fn(*args)"


def test_a_loaded_function_refusing_a_dtype_is_dtype_mismatch(loaded):
    d = _diagnosis(loaded, tf.ones([2, 3], tf.int32))
    assert d.recipe is not None and d.recipe.id == "TFD218" and d.category == "dtype-mismatch"


def test_a_loaded_function_refusing_a_shape_and_a_dtype_gets_neither_recipe(loaded):
    d = _diagnosis(loaded, tf.ones([2, 4], tf.int32))
    assert d is not None and (d.recipe is None or d.recipe.id == "TFD218"), d
    d = _diagnosis(loaded, tf.ones([2, 4]), tf.ones([2, 4]))
    assert d is not None and (d.recipe is None or d.recipe.id not in ("TFD217", "TFD218")), d


class _Scaler(tf.Module):
    @tf.function
    def scale(self, x, factor):
        return x * factor


@pytest.fixture(scope="module")
def loaded_scaler():
    module = _Scaler()
    module.scale(tf.ones([2]), 2.0)  # the one trace that is saved: factor=2.0 built in
    folder = tempfile.mkdtemp()
    tf.saved_model.save(module, folder)
    return tf.saved_model.load(folder).scale


def test_a_loaded_function_refusing_a_python_value_is_named_as_such(loaded_scaler):
    d = _diagnosis(loaded_scaler, tf.ones([2]), 3.0)
    assert d.recipe is not None and d.recipe.id == "TFD219" and d.category == "retracing"


def test_a_python_value_beside_a_refused_shape_gets_no_value_recipe(loaded_scaler):
    d = _diagnosis(loaded_scaler, tf.ones([3, 3]), 3.0)
    assert d is not None and (d.recipe is None or d.recipe.id != "TFD219"), d
    d = _diagnosis(loaded_scaler, tf.ones([2], tf.int32), 2.0)
    assert d is not None and (d.recipe is None or d.recipe.id != "TFD219"), d


def test_outside_the_supported_versions_a_refused_call_stays_generic(loaded, monkeypatch):
    from tfdebug._tf import saved_calls
    monkeypatch.setattr(saved_calls, "version_supported", lambda: False)
    d = _diagnosis(loaded, tf.ones([2, 4]))
    assert d is not None and d.recipe is None and d.category is None, d


def test_the_saved_trace_reader_answers_nothing_for_other_errors():
    try:
        raise ValueError("Could not find matching concrete function to call loaded from the SavedModel")
    except ValueError as exc:
        assert _tf.restored_call_mismatch((exc,)) is None


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _batch_dim_as_int(x):
    rows = int(x.shape[0])
    return tf.zeros([rows, 3])


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def _whole_shape_to_numpy(x):
    import numpy as np
    return x + np.zeros(x.shape, np.float32)


def test_python_refusing_an_unknown_dimension_read_as_a_number_is_unknown_length():
    # int(None): the dimension `x.shape[0]` the line reads is None while tracing
    d = _diagnosis(_batch_dim_as_int, tf.ones([2, 3]))
    assert d.category == "unknown-length" and d.code == "rows = int(x.shape[0])", d


def test_python_refusing_a_whole_shape_with_a_none_dimension_is_unknown_length():
    # the whole shape went to NumPy: its None is the batch dimension, a length known when
    # the graph runs (a shape of unknown rank is a shape lost: unknown-shape, tested above)
    d = _diagnosis(_whole_shape_to_numpy, tf.ones([2, 3]))
    assert d.category == "unknown-length", d


class BatchFromBuild(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.rows = input_shape[0]  # <- bound from the shape Keras builds with

    def call(self, x):
        return tf.tile(tf.ones([1, 3]), [self.rows, 1])


class RowsFromConfig(tf.keras.layers.Layer):
    def __init__(self, rows=None):
        super().__init__()
        self.rows = rows

    def call(self, x):
        return tf.tile(tf.ones([1, 3]), [self.rows, 1])


def _line(obj, marker):
    import inspect
    lines, start = inspect.getsourcelines(obj)
    return start + next(i for i, text in enumerate(lines) if marker in text)


@pytest.mark.parametrize("layer, expected", [(BatchFromBuild, "unknown-length"), (RowsFromConfig, None)],
                         ids=["from-build-shape", "from-config"])
def test_a_none_attribute_bound_from_a_build_shape_is_unknown_length_where_bound(layer, expected):
    instance = layer()
    fn = tf.function(lambda x: instance(x), input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    import tfdebug
    with tfdebug.explain():  # keeps the layer's frame that Keras' filter drops
        d = _diagnosis(fn, tf.ones([2, 3]))
    assert d is not None and (d.category == "unknown-length") == (expected is not None), d
    if expected:
        assert d.line == _line(BatchFromBuild, "<- bound from") and d.function == "build", d


class ShapeFromHelper(tf.keras.layers.Layer):
    def dims(self, x):
        return list(x.shape)

    def call(self, x):
        rows, cols = self.dims(x)  # <- unpacked from the helper's static shape
        return x + tf.zeros(tf.stack([rows, cols]))


class SizesFromHelper(tf.keras.layers.Layer):
    def dims(self, x):
        return [None, 3]

    def call(self, x):
        rows, cols = self.dims(x)
        return x + tf.zeros(tf.stack([rows, cols]))


@pytest.mark.parametrize("layer, expected", [(ShapeFromHelper, True), (SizesFromHelper, False)],
                         ids=["helper-returns-shape", "helper-returns-literal"])
def test_a_none_bound_from_a_helper_returning_a_static_shape_is_unknown_length(layer, expected):
    import tfdebug
    instance = layer()
    fn = tf.function(lambda x: instance(x), input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    with tfdebug.explain():
        d = _diagnosis(fn, tf.ones([2, 3]))
    assert d is not None and (d.category == "unknown-length") == expected, d
    if expected:
        assert d.line == _line(ShapeFromHelper, "<- unpacked from"), d



def _batches():
    import numpy as np
    for _ in range(2):
        yield np.ones((4, 3), np.float32), np.zeros((4, 1), np.float32)


def test_a_keras_fit_on_a_dataset_of_unknown_rank_is_blamed_where_the_dataset_lost_its_shape():
    """The fit line's dataset has an element of unknown rank: blamed where it was made,
    past the shape-keeping steps after it."""
    import tfdebug
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    spec = (tf.TensorSpec(shape=None, dtype=tf.float32),) * 2
    train = tf.data.Dataset.from_generator(_batches, output_signature=spec)  # <- made unknown
    train = train.prefetch(1)
    with pytest.raises(ValueError) as info, tfdebug.explain():
        model.fit(train, epochs=1, verbose=0)
    d = diagnose(info.value)
    assert d is not None and d.category == "unknown-shape", d
    assert d.line == _line(test_a_keras_fit_on_a_dataset_of_unknown_rank_is_blamed_where_the_dataset_lost_its_shape,
                           "<- made unknown"), d


def _line_of(fn, marker):
    import inspect

    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, text in enumerate(lines) if marker in text)


def _loses_the_shape(x):
    y = tf.py_function(lambda v: v, [x], tf.float32)  # <- lost here
    return tf.reshape(y, [-1])


def _ones(n):
    for _ in range(n):
        yield [1.0, 2.0]


def test_the_op_that_lost_a_pipeline_shape_is_found_in_the_map_functions_graph():
    # the py_function's output is unknown although its input is (2, 2): its creation stack
    # names the line; batch() after the map is followed back to it
    ds = tf.data.Dataset.from_tensor_slices(tf.ones([4, 2, 2])).map(_loses_the_shape).batch(2)
    found = _tf.shape_lost_in_pipeline(ds, lambda file: file == __file__)
    assert found is not None and found[:2] == (__file__, _line_of(_loses_the_shape, "# <- lost here"))


def test_a_shape_unknown_from_the_source_was_not_lost_in_the_pipeline():
    # the map's input is already (None,): no op of the map lost it
    ds = tf.data.Dataset.from_generator(lambda: _ones(3), output_signature=tf.TensorSpec([None], tf.float32))
    assert _tf.shape_lost_in_pipeline(ds.map(lambda x: x * 2.0), lambda file: file == __file__) is None
    assert _tf.shape_lost_in_pipeline([1, 2], lambda file: True) is None
