"""A tf.data pipeline iterated again replays the numbers of its seeded random ops.

A stateful random op (one whose op definition is stateful and carries ``seed``/``seed2``
attributes: ``tf.random.uniform``, ``tf.image.random_flip_left_right``...) gets its seeds when
its function is traced: from the op's own seed and the global one (``tf.random.set_seed``).
With either set they are not zero, and every new iterator of the dataset starts the op's
stream from those seeds again: each epoch that iterates the dataset anew (``for x in ds``
per epoch, Keras ``fit`` over epochs) sees the same "random" numbers. With both unset the
seeds are zero and each run draws afresh; ``tf.random.Generator`` ops keep their state in a
variable and carry no seeds.

``watch_iterations(listener)`` wraps ``Dataset.__iter__`` while a tfdebug scope asks for it:
``listener(dataset, (file, line))`` is called when an eager iterator is made, with the line
that asked for it (not for a loop over a dataset inside a tf.function, which AutoGraph
builds into the graph). One line asking twice is a loop that passes over the dataset again:
the line of a ``for`` over it inside an epoch loop, or Keras' own epoch loop (which also
makes a spare iterator at the end of each epoch, from another line, never used). ``replayed_random_ops``
reads the functions of a dataset's pipeline (its own and its inputs', as tf.data keeps
them) for such ops. Version-gated: outside 2.16-2.21, or on another layout, nothing is read.

Example::

    def listener(dataset, where):
        seen.append((dataset, where))
    watch_iterations(listener)
    for epoch in range(2):
        for batch in dataset: ...      # seen: twice the same (file, line)
    unwatch_iterations(listener)
    replayed_random_ops(dataset)       # [op, ...]: the seeded random ops its functions hold
                                       # (above any cache(), which replays whatever it holds)
"""
from __future__ import annotations

import sys
import threading

from .trace_hook import HookRefusal
from .versions import log, version_supported

_lock = threading.Lock()
_watch = {"listeners": [], "original": None, "cls": None}
_MAX_DATASETS = 64   # datasets walked up one pipeline (a zip of zips stays bounded)
_MAX_OPS = 10_000    # ops read per function graph


def watch_iterations(listener) -> bool:
    """Call ``listener(dataset, where)`` whenever an eager iterator of a dataset is made, until
    :func:`unwatch_iterations`; False when tf.data's layout is not the one known."""
    if not version_supported():
        return False
    with _lock:
        if _watch["listeners"]:
            _watch["listeners"].append(listener)
            return True
        try:
            from tensorflow.python.data.ops.dataset_ops import DatasetV2
        except ImportError:
            return False
        original = DatasetV2.__dict__.get("__iter__")
        if original is None:
            return False

        def __iter__(self):
            listeners = list(_watch["listeners"]) if _eager() else ()
            if listeners:
                caller = sys._getframe(1)
                where = (caller.f_code.co_filename, caller.f_lineno)
            for each in listeners:
                try:
                    each(self, where)
                except HookRefusal:
                    raise  # tfdebug refusing on purpose (a guard asked to raise)
                except Exception:  # noqa: BLE001 - observing must never break the user's loop
                    log.debug("tfdebug: a dataset iteration listener failed", exc_info=True)
            return original(self)

        __iter__.__wrapped__ = original
        DatasetV2.__iter__ = __iter__
        _watch.update(listeners=[listener], original=original, cls=DatasetV2)
        return True


def unwatch_iterations(listener) -> None:
    with _lock:
        if listener in _watch["listeners"]:
            _watch["listeners"].remove(listener)
        if not _watch["listeners"] and _watch["cls"] is not None:
            _watch["cls"].__iter__ = _watch["original"]
            _watch.update(original=None, cls=None)


def _eager() -> bool:
    from tensorflow.python.eager import context

    return context.executing_eagerly()


def iterations_watched() -> bool:
    return bool(_watch["listeners"])


def replayed_random_ops(dataset) -> list:
    """The stateful random ops with non-zero seeds in the functions of ``dataset``'s pipeline
    (``map``, ``filter``, ``flat_map``... of it and of its inputs), in pipeline order. A
    ``cache()`` stops the search: below it nothing runs again on a second pass (what it
    replays it replays with or without a seed, so the fix here would not help)."""
    return [op for wrapper in pipeline_functions(dataset, stop_at_cache=True)
            for op in seeded_random_ops(getattr(wrapper, "function", None))]


def pipeline_functions(dataset, stop_at_cache: bool = False):
    """The functions tf.data keeps for ``dataset`` and its inputs (``StructuredFunctionWrapper``
    objects: ``.function`` is the traced concrete function), from the dataset down its
    inputs; nothing more on another layout."""
    seen, stack = set(), [dataset]
    while stack and len(seen) < _MAX_DATASETS:
        current = stack.pop()
        if id(current) in seen or (stop_at_cache and type(current).__name__ == "CacheDataset"):
            continue
        seen.add(id(current))
        try:
            functions = list(current._functions())
            inputs = list(current._inputs())
        except Exception:  # noqa: BLE001 - another layout: nothing proven
            log.debug("tfdebug: cannot read a dataset's functions", exc_info=True)
            continue
        yield from functions
        stack.extend(reversed(inputs))


_SEEDED_TYPES: dict = {}  # op type -> does its op definition make it a stateful seeded op


def seeded_random_ops(function) -> list:
    """The stateful ops with a non-zero ``seed``/``seed2`` in ``function``'s graph (a
    concrete function): each starts its own stream from those seeds, so two graphs holding
    the same one draw the same numbers. An op type is looked up in the op registry once."""
    try:
        operations = function.graph.get_operations()[:_MAX_OPS]
    except Exception:  # noqa: BLE001
        return []
    found = []
    for op in operations:
        seeded = _SEEDED_TYPES.get(op.type)
        if seeded is None:
            try:
                op_def = op.op_def
                names = {attr.name for attr in op_def.attr}
                seeded = bool(op_def.is_stateful) and {"seed", "seed2"} <= names
            except Exception:  # noqa: BLE001 - no definition to read: not one
                seeded = False
            _SEEDED_TYPES[op.type] = seeded
        if not seeded:
            continue
        try:
            seeds = (op.get_attr("seed"), op.get_attr("seed2"))
        except Exception:  # noqa: BLE001
            continue
        if any(seeds):
            found.append(op)
    return found
