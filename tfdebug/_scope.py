"""The base every tfdebug scope shares: a context manager that is also a decorator.

Used as a decorator, a scope builds a *fresh* copy of itself for each call (as JAX's
config state does), so recursion and threads each get their own entry and exit.
``contextlib.ContextDecorator`` reuses ``self`` and leaves state stuck on recursion.
Generator functions are wrapped so the scope is active exactly while their body runs:
entered and exited around every resume, never while the consumer holds the generator.
Coroutines keep the scope for the whole ``await`` (their suspension points belong to them).
"""
from __future__ import annotations

import copy
import functools
import inspect
import logging
import threading

log = logging.getLogger("tfdebug")

_entries_lock = threading.Lock()
_NO_ENTRY = object()


def run_all(*steps) -> None:
    """Call every step, even when one fails (a restore must never stop half-way), then
    raise the first failure.

    Example::

        run_all(lambda: tracing.unsubscribe(hook), lambda: _tf.remove_tensor_format_hook(fmt))
    """
    failure = None
    for step in steps:
        try:
            step()
        except BaseException as exc:  # noqa: BLE001 - raised after the other steps ran
            failure = failure or exc
    if failure is not None:
        raise failure


class Scope:
    """Subclasses implement ``_enter(self) -> value`` and ``_exit(self, token, exc)``.

    ``_enter`` returns the token that ``_exit`` gets back, and the value of ``with ... as``
    is ``self`` unless a subclass overrides ``__enter__``. One object may be entered again
    while active (nesting); each ``__exit__`` closes the most recent entry of that object
    on the current thread, or, when this thread made none, its most recent entry anywhere
    (a generator entered on one thread may be closed on another). ``_enter`` undoes what it did when it fails part-way; ``_exit``
    may return an exception to raise in place of ``exc`` (explain's StagingError swap).
    When ``_exit`` itself fails while the user's exception is on its way out, the user's
    exception wins and the failure is logged as a warning.
    """

    def _enter(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _exit(self, token, exc: BaseException | None) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- context manager --------------------------------------------------------------

    def _entries(self) -> list:
        """[(thread id, token)] in entry order, shared by every thread (see __exit__)."""
        entries = self.__dict__.get("_scope_entries")
        if entries is None:
            entries = self.__dict__.setdefault("_scope_entries", [])
        return entries

    def __enter__(self):
        token = self._enter()
        with _entries_lock:
            self._entries().append((threading.get_ident(), token))
        return self

    def _take_entry(self):
        """Remove and return the entry this exit closes: the newest one made on this thread,
        else the newest one at all (a generator or coroutine entered on one thread and
        resumed, closed or garbage-collected on another); ``_NO_ENTRY`` when none is open."""
        here = threading.get_ident()
        with _entries_lock:
            entries = self._entries()
            if not entries:
                return _NO_ENTRY
            index = next((i for i in range(len(entries) - 1, -1, -1) if entries[i][0] == here),
                         len(entries) - 1)
            return entries.pop(index)[1]

    def __exit__(self, exc_type, exc, tb) -> bool:
        __tracebackhide__ = True
        token = self._take_entry()
        if token is _NO_ENTRY:
            if exc is not None:  # never replace the user's exception with tfdebug's complaint
                log.warning("tfdebug: %s exited more often than it was entered", type(self).__name__)
                return False
            raise RuntimeError(f"{type(self).__name__} exited more often than it was entered")
        try:
            replacement = self._exit(token, exc)
        except Exception as failure:
            if exc is None or failure is exc:
                raise
            log.warning("tfdebug: %s could not restore everything while %s propagated: %s: %s",
                        type(self).__name__, type(exc).__name__, type(failure).__name__, failure)
            return False  # the user's exception, not tfdebug's
        if replacement is not None and replacement is not exc:
            raise replacement
        return False  # never swallow the user's exception

    # -- decorator --------------------------------------------------------------------

    def fresh(self) -> "Scope":
        """A copy with the same settings and no entries: one per decorated call."""
        clone = copy.copy(self)
        clone.__dict__.pop("_scope_entries", None)
        return clone

    def __call__(self, fn):
        if not callable(fn):
            raise TypeError(f"{type(self).__name__}() decorates a function; got {type(fn).__name__}")
        if inspect.isasyncgenfunction(fn):
            wrapper = self._wrap_async_generator(fn)
        elif inspect.iscoroutinefunction(fn):
            wrapper = self._wrap_coroutine(fn)
        elif inspect.isgeneratorfunction(fn):
            wrapper = self._wrap_generator(fn)
        else:
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                __tracebackhide__ = True
                with self.fresh():
                    return fn(*args, **kwargs)
        return wrapper

    def _wrap_generator(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            scope = self.fresh()
            with scope:
                gen = fn(*args, **kwargs)
            value, method = None, "send"
            while True:
                try:
                    with scope:
                        if method == "send":
                            item = gen.send(value)
                        else:
                            item = gen.throw(value)
                except StopIteration as stop:
                    return stop.value
                try:
                    value, method = (yield item), "send"
                except GeneratorExit:
                    with scope:
                        gen.close()
                    raise
                except BaseException as exc:  # noqa: BLE001 - forwarded into the generator
                    value, method = exc, "throw"
        return wrapper

    def _wrap_coroutine(self, fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            with self.fresh():
                return await fn(*args, **kwargs)
        return wrapper

    def _wrap_async_generator(self, fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            scope = self.fresh()
            agen = fn(*args, **kwargs)
            try:
                while True:
                    with scope:
                        try:
                            item = await agen.__anext__()
                        except StopAsyncIteration:
                            return
                    yield item
            finally:
                with scope:
                    await agen.aclose()
        return wrapper
