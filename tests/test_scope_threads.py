"""Scopes whose exit happens on another thread than their entry (generators, coroutines).

A generator that enters a scope may be advanced on one thread and closed (or collected) on
another; tf.data runs ``Dataset.from_generator`` generators on its own threads. The switch a
scope turned on (the eager flag, the trace hook, ``builtins.print``) must be off afterwards,
and closing the generator must not raise.
"""
import builtins
import gc
import threading

import pytest
import tensorflow as tf

import tfdebug
import importlib

from tfdebug import _tf, tracing

eager_module = importlib.import_module("tfdebug.modes")


def _on_thread(fn):
    failures = []

    def target():
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


def _switch_is_off():
    return (not _tf.functions_run_eagerly() and eager_module.active_entries() == 0
            and not tracing.active() and builtins.print is tfdebug.printing._real_print)


@pytest.mark.parametrize("make_scope", [tfdebug.eager, tfdebug.trace_logger,
                                        tfdebug.print_to_tfprint],
                         ids=["eager", "trace_logger", "print_to_tfprint"])
def test_generator_closed_on_another_thread_restores_the_switch(make_scope):
    def numbers():
        with make_scope():
            for i in range(10):
                yield i

    gen = numbers()
    assert [next(gen) for _ in range(4)] == [0, 1, 2, 3]
    assert not _switch_is_off()
    _on_thread(gen.close)          # raised RuntimeError: exited more often than entered
    assert _switch_is_off()


def test_generator_collected_on_another_thread_restores_the_flag():
    def numbers():
        with tfdebug.eager():
            yield from range(10)

    holder = [numbers()]
    next(holder[0])
    _on_thread(lambda: (holder.clear(), gc.collect()))
    assert _switch_is_off()


def test_decorated_generator_closed_on_another_thread():
    @tfdebug.eager()
    def numbers():
        yield from range(10)

    gen = numbers()
    assert next(gen) == 0
    _on_thread(gen.close)
    assert _switch_is_off()


def test_shared_scope_object_exits_its_own_thread_entry_first():
    scope = tfdebug.eager()
    scope.__enter__()
    entered = threading.Event()
    leave = threading.Event()

    def other():
        with scope:
            entered.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    entered.wait(10)
    scope.__exit__(None, None, None)   # the main thread's entry, not the other thread's
    assert eager_module.active_entries() == 1
    leave.set()
    thread.join()
    assert _switch_is_off()


def test_extra_exit_while_an_exception_propagates_keeps_the_users_exception():
    scope = tfdebug.eager()
    with pytest.raises(KeyError):
        try:
            raise KeyError("mine")
        finally:
            scope.__exit__(KeyError, KeyError("mine"), None)


def test_from_generator_dropped_after_four_elements_leaves_functions_in_graph_mode():
    def rows():
        with tfdebug.eager():
            for i in range(100):
                yield i

    dataset = tf.data.Dataset.from_generator(rows, output_signature=tf.TensorSpec([], tf.int32))
    iterator = iter(dataset)
    assert [int(next(iterator)) for _ in range(4)] == [0, 1, 2, 3]
    del iterator
    gc.collect()

    @tf.function
    def mode():
        return tf.executing_eagerly()

    assert bool(mode()) is False
    assert _switch_is_off()


def test_coroutine_closed_on_another_thread_restores_the_flag():
    @tfdebug.eager()
    async def waiting():
        await _Suspend()

    coro = waiting()
    coro.send(None)                      # suspended inside the scope
    assert _tf.functions_run_eagerly()
    _on_thread(coro.close)
    assert _switch_is_off()


class _Suspend:
    def __await__(self):
        yield
