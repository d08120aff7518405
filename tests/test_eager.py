"""eager() / graph(): the flag is right inside, and restored on every exit path."""
import asyncio
import random
import threading

import pytest
import tensorflow as tf
from hypothesis import given, settings, strategies as st

import tfdebug
from tfdebug import _tf

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow


@tf.function
def runs_eagerly(x):
    return tf.constant(tf.executing_eagerly()), x + 1


def mode_inside() -> bool:
    return bool(runs_eagerly(tf.constant(1))[0])


def test_eager_runs_tf_function_as_python_and_restores():
    assert mode_inside() is False
    with tfdebug.eager() as scope:
        assert isinstance(scope, tfdebug.eager)
        assert mode_inside() is True
        with tfdebug.graph():
            assert mode_inside() is False
        assert mode_inside() is True
    assert mode_inside() is False
    assert tfdebug.eager_mode is tfdebug.eager


def test_numpy_works_inside_eager_scope():
    @tf.function
    def step(x):
        return x.numpy() * 2  # fails when traced

    with pytest.raises(Exception):
        step(tf.constant(3))
    with tfdebug.eager():
        assert step(tf.constant(3)) == 6


@pytest.mark.parametrize("error", [ValueError("boom"), KeyboardInterrupt()])
def test_flag_restored_after_exception_and_keyboard_interrupt(error):
    with pytest.raises(type(error)) as info:
        with tfdebug.eager():
            with tfdebug.graph():
                raise error
    assert info.value is error
    assert _tf.functions_run_eagerly() is False


def test_respects_flag_set_before_first_scope():
    tf.config.run_functions_eagerly(True)
    try:
        with tfdebug.graph():
            assert mode_inside() is False
        assert _tf.functions_run_eagerly() is True
    finally:
        tf.config.run_functions_eagerly(False)


def test_out_of_order_exits_keep_the_newest_remaining_entry():
    outer, inner = tfdebug.eager(), tfdebug.graph()
    outer.__enter__()
    inner.__enter__()
    assert _tf.functions_run_eagerly() is False
    outer.__exit__(None, None, None)          # the outer one leaves first
    assert _tf.functions_run_eagerly() is False   # inner graph() still rules
    inner.__exit__(None, None, None)
    assert _tf.functions_run_eagerly() is False   # back to the base value


def test_exit_without_enter_is_a_clear_error():
    with pytest.raises(RuntimeError, match="exited more often"):
        tfdebug.eager().__exit__(None, None, None)


def test_bad_arguments_are_named():
    with pytest.raises(TypeError, match="True or False"):
        tfdebug.eager("yes")
    with pytest.raises(ValueError, match="makes no sense"):
        tfdebug.eager(False, data=True)
    with pytest.raises(TypeError, match="decorates a function"):
        tfdebug.eager()(42)


def _entries_and_exit_order():
    # The exit order is drawn up front: a strategy drawn mid-test (st.randoms) may abort
    # the example after the scopes were entered.
    return st.lists(st.booleans(), min_size=1, max_size=8).flatmap(
        lambda values: st.tuples(st.just(values), st.permutations(range(len(values)))))


@given(_entries_and_exit_order())
@settings(max_examples=80, deadline=None)
def test_property_random_nestings_and_exit_orders(case):
    """Enter scopes in order, exit them in a random order: the flag always equals the
    newest still-open entry, and the base value once all are closed."""
    values, order = case
    base = _tf.functions_run_eagerly()
    scopes = [tfdebug.eager(value) for value in values]
    for scope in scopes:
        scope.__enter__()
    open_ = list(range(len(scopes)))
    for index in order:
        scopes[index].__exit__(None, None, None)
        open_.remove(index)
        expected = values[open_[-1]] if open_ else base
        assert _tf.functions_run_eagerly() is expected
    assert _tf.functions_run_eagerly() is base


@given(st.lists(st.booleans(), min_size=2, max_size=6), st.integers(0, 2**16))
@settings(max_examples=25, deadline=None)
def test_property_threads_exit_out_of_order(values, seed):
    """Threads enter and exit scopes at random moments; when all are done the flag is back."""
    rng = random.Random(seed)
    barrier = threading.Barrier(len(values))
    errors = []

    def worker(value, delay):
        try:
            with tfdebug.eager(value):
                barrier.wait(timeout=10)
                threading.Event().wait(delay)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(v, rng.random() / 200)) for v in values]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert _tf.functions_run_eagerly() is False


def test_decorator_gives_each_call_a_fresh_scope_so_recursion_works():
    @tfdebug.eager()
    def countdown(n):
        assert mode_inside() is True
        return 0 if n == 0 else 1 + countdown(n - 1)

    assert countdown(4) == 4
    assert _tf.functions_run_eagerly() is False


def test_decorated_generator_is_eager_only_while_its_body_runs():
    @tfdebug.eager()
    def gen():
        for i in range(3):
            assert mode_inside() is True
            received = yield i
            assert received == i * 10
        return "done"

    g = gen()
    assert next(g) == 0
    assert mode_inside() is False          # the consumer runs in graph mode
    assert g.send(0) == 1
    assert g.send(10) == 2
    with pytest.raises(StopIteration) as stop:
        g.send(20)
    assert stop.value.value == "done"
    assert _tf.functions_run_eagerly() is False


def test_decorated_generator_close_and_throw_restore_the_flag():
    cleaned = []

    @tfdebug.eager()
    def gen():
        try:
            yield 1
            yield 2
        finally:
            cleaned.append(mode_inside())

    g = gen()
    next(g)
    g.close()
    assert cleaned == [True]
    g = gen()
    next(g)
    with pytest.raises(KeyError):
        g.throw(KeyError("x"))
    assert cleaned == [True, True]
    assert _tf.functions_run_eagerly() is False


def test_decorated_coroutine_and_async_generator():
    @tfdebug.eager()
    async def coro():
        await asyncio.sleep(0)
        return mode_inside()

    @tfdebug.eager()
    async def agen():
        for i in range(2):
            yield mode_inside(), i

    async def consume():
        return [item async for item in agen()]

    assert asyncio.run(coro()) is True
    assert asyncio.run(consume()) == [(True, 0), (True, 1)]
    assert _tf.functions_run_eagerly() is False


def test_eager_data_runs_tf_data_functions_eagerly_only_for_pipelines_built_inside():
    seen = []

    def double(x):
        seen.append(tf.executing_eagerly())
        return x * 2

    with tfdebug.eager(data=True):
        inside = tf.data.Dataset.range(3).map(double)
        assert [int(v) for v in inside] == [0, 2, 4]
    assert seen[1:] == [True, True, True]   # the first call is TF's shape-inference trace
    assert _tf.data_debug_mode() is False
    seen.clear()
    outside = tf.data.Dataset.range(3).map(double)
    assert [int(v) for v in outside] == [0, 2, 4]
    assert seen == [False]                  # traced once, then runs as a graph


def test_eager_data_inside_a_trace_is_a_clear_error():
    @tf.function
    def f(x):
        with tfdebug.eager(data=True):
            return x

    with pytest.raises(RuntimeError, match="before the tf.data pipeline is built"):
        f(tf.constant(1))
