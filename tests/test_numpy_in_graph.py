"""`.numpy()` of a composite tensor in a tf.function: TensorFlow's own refusal (RaggedTensor,
SparseTensor: "X.numpy() is only supported in eager mode") is TFD140, as a dense tensor's
missing ``numpy`` attribute is."""
import pytest
import tensorflow as tf

from tfdebug.diagnosis import diagnose


def _ragged_lengths(x):
    return tf.constant([len(row) for row in x.numpy()])  # <- numpy


def _sparse_values(x):
    return tf.constant(x.numpy().values)  # <- numpy


@pytest.mark.parametrize("body, value", [
    (_ragged_lengths, lambda: tf.ragged.constant([[1.0], [2.0, 3.0]])),
    (_sparse_values, lambda: tf.sparse.from_dense(tf.constant([[1.0, 0.0]])))], ids=["ragged", "sparse"])
def test_numpy_of_a_composite_tensor_in_a_tf_function_is_numpy_in_graph(body, value):
    with pytest.raises(Exception) as info:
        tf.function(body)(value())
    d = diagnose(info.value)
    assert d is not None and d.recipe is not None and d.recipe.id == "TFD140", d
    assert d.code.endswith("# <- numpy"), d
