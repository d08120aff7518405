"""Keras 3's train function and the ``trainable`` flags it was traced with.

Keras 3 (``keras/src/backend/tensorflow/trainer.py``) traces ``model.train_function`` once,
on the first ``fit``/``train_on_batch`` after ``compile()``, and keeps it until ``compile()``
sets it back to None (or ``make_train_function(force=True)``). The traced ``train_step``
reads ``self.trainable_variables`` while it is traced: a layer's ``trainable`` flag
changed afterwards is not seen by the graph, which keeps updating the variables it traced
with (Keras 3's own check of this, ``_warn_if_trainable_state_changed``, is never reached).
"""
from __future__ import annotations

import weakref

_TRAINER_MODULE = "keras.src.backend.tensorflow.trainer"


def trained_model(fn, depth: int = 0):
    """The Keras model whose ``train_step`` ``fn`` (a function Keras' trainer traces) calls,
    found in the closures Keras builds around it; None for anything else."""
    if depth > 3 or not str(getattr(fn, "__module__", "") or "").startswith(_TRAINER_MODULE):
        return None
    fn = getattr(fn, "python_function", fn)
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        owner = getattr(value, "__self__", None)
        if getattr(value, "__name__", "") == "train_step" and hasattr(owner, "train_function"):
            return owner
        inner = trained_model(value, depth + 1) if callable(value) else None
        if inner is not None:
            return inner
    return None


def _layers(model) -> list:
    flatten = getattr(model, "_flatten_layers", None)
    if callable(flatten):
        try:
            return list(flatten())
        except Exception:  # noqa: BLE001 - another layout: the model and its direct layers
            pass
    return [model, *getattr(model, "layers", ())]


def trainable_flags(model) -> dict:
    """{id(layer): (weak layer, layer name, trainable)} for ``model`` and its sublayers."""
    out = {}
    for layer in _layers(model):
        try:
            out[id(layer)] = (weakref.ref(layer), str(getattr(layer, "name", "?")),
                              bool(layer.trainable))
        except (TypeError, AttributeError):
            continue
    return out


def train_function_traced(model):
    """A weak reference to ``model.train_function`` (the one a trace of it belongs to)."""
    function = getattr(model, "train_function", None)
    try:
        return weakref.ref(function) if function is not None else None
    except TypeError:
        return None


def changed_flags(model, flags: dict, traced) -> list[tuple[str, bool, bool]]:
    """(layer name, trainable at trace, trainable now) for layers whose flag changed while
    ``model`` still trains with the function ``traced`` refers to; [] once it was recompiled."""
    if traced is None or traced() is None or getattr(model, "train_function", None) is not traced():
        return []
    changed = []
    for ref, name, before in flags.values():
        layer = ref()
        if layer is not None and bool(getattr(layer, "trainable", before)) != before:
            changed.append((name, before, not before))
    return changed
