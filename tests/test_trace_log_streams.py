"""Two graphs of one tf.function whose seeded random ops replay the same stream (TFD220)."""
import warnings

import pytest
import tensorflow as tf

import tfdebug
from conftest import line_of

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow


def _replayed(calls) -> list[tuple[int, str]]:
    with warnings.catch_warnings(record=True) as caught, tfdebug.trace_logger(warn_after=None):
        warnings.simplefilter("always")
        calls()
    return [(w.lineno, str(w.message)) for w in caught if "TFD220" in str(w.message)]


def _noisy():
    @tf.function
    def noisy(x, shift):
        noise = tf.random.uniform((3,))
        if shift:
            x = x + 1.0
        return x + noise
    return noisy


def test_a_python_flag_makes_a_second_graph_that_draws_the_same_numbers():
    tf.random.set_seed(0)
    noisy = _noisy()
    seen = []

    def epochs():
        for epoch in range(4):
            seen.append(noisy(tf.zeros(3), epoch % 2 == 1).numpy())  # <- flag
    found = _replayed(epochs)
    assert (seen[1] - 1.0).tolist() == seen[0].tolist()  # what the finding says: the same draw
    assert [line for line, _ in found] == [line_of(__file__, "# <- flag")], found
    assert "shift: Python value False -> True" in found[0][1] and "RandomUniform" in found[0][1]


def test_graphs_that_draw_their_own_numbers_are_quiet():
    generator = tf.random.Generator.from_seed(1)

    @tf.function
    def from_generator(x, shift):
        return x + generator.uniform((3,)) + (1.0 if shift else 0.0)

    @tf.function
    def no_random(x, shift):
        return x + (1.0 if shift else 0.0)

    def calls():
        unseeded = _noisy()
        for shift in (False, True):
            unseeded(tf.zeros(3), shift)   # no seed set: each op draws from the OS
        tf.random.set_seed(0)
        one_graph = _noisy()
        for shift in (False, True):
            one_graph(tf.zeros(3), tf.constant(shift))  # a tensor flag: one graph
            from_generator(tf.zeros(3), shift)          # the generator's state moves on
            no_random(tf.zeros(3), shift)
    assert _replayed(calls) == []
