"""A tf.data pipeline passed over again replays its seeded random ops (TFD324)."""
import keras
import numpy as np
import pytest
import tensorflow as tf

import tfdebug
from conftest import line_of

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow


def _replays(body) -> list[tuple[str, int]]:
    with tfdebug.side_effect_guard(action="log") as guard:
        body()
    return [(f.recipe, f.line) for f in guard.findings]


@pytest.fixture
def seeded():
    tf.random.set_seed(11)
    yield
    tf.random.set_seed(None)


def _noisy(draw=lambda: tf.random.uniform(())):
    return tf.data.Dataset.range(4).map(lambda i: tf.cast(i, tf.float32) + draw())


def test_a_loop_passing_over_the_dataset_again_is_reported_at_the_random_op(seeded):
    noisy = tf.data.Dataset.range(4).map(
        lambda i: tf.cast(i, tf.float32) + tf.random.uniform(()))  # <- replayed draw

    def epochs():
        values = [[float(v) for v in noisy] for _ in range(2)]
        assert values[0] == values[1]  # what the finding says: epoch 2 replays epoch 1

    assert _replays(epochs) == [("TFD324", line_of(__file__, "# <- replayed draw"))]


def test_keras_fit_over_epochs_passes_over_the_dataset_again(seeded):
    x, y = np.ones((8, 3), "float32"), np.zeros((8, 1), "float32")
    data = tf.data.Dataset.from_tensor_slices((x, y)).map(
        lambda a, b: (a + tf.random.normal(tf.shape(a)), b)).batch(4)  # <- augment
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    # one epoch: Keras also makes a spare iterator at its end, never used
    assert _replays(lambda: model.fit(data, epochs=1, verbose=0)) == []
    assert _replays(lambda: model.fit(data, epochs=2, verbose=0)) == [
        ("TFD324", line_of(__file__, "# <- augment"))]


def test_passes_that_draw_anew_or_look_once_are_quiet(seeded):
    generator = tf.random.Generator.from_seed(3)

    def unseeded_and_generator_and_peek_and_repeat():
        tf.random.set_seed(None)
        unseeded = _noisy()
        for _ in range(2):
            list(unseeded)  # no seed: each pass draws afresh
        tf.random.set_seed(11)
        advancing = _noisy(lambda: generator.uniform(()))
        for _ in range(2):
            list(advancing)  # the generator's state moves on
        peeked = _noisy()
        next(iter(peeked))  # a look at one element, then one pass
        list(peeked)
        list(_noisy().repeat(2))  # one pass over a repeated pipeline: the stream runs on
        cached = _noisy().cache()
        for _ in range(2):
            list(cached)  # a cache replays what it holds, seeded or not: not this finding

    assert _replays(unseeded_and_generator_and_peek_and_repeat) == []


def test_the_iteration_hook_is_removed_on_every_exit():
    from tensorflow.python.data.ops.dataset_ops import DatasetV2

    original = DatasetV2.__iter__
    with pytest.raises(KeyError):
        with tfdebug.side_effect_guard(action="log"):
            assert DatasetV2.__iter__ is not original
            with tfdebug.side_effect_guard(action="log"):
                pass
            assert DatasetV2.__iter__ is not original  # the outer guard still watches
            raise KeyError("the user's error")
    assert DatasetV2.__iter__ is original
