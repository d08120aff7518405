"""Keras 3's train function and the ``trainable`` flags it was traced with.

Keras 3 (``keras/src/backend/tensorflow/trainer.py``) traces ``model.train_function`` once,
on the first ``fit``/``train_on_batch`` after ``compile()``, and keeps it until ``compile()``
sets it back to None (or ``make_train_function(force=True)``). The traced ``train_step``
reads ``self.trainable_variables`` while it is traced: a layer's ``trainable`` flag
changed afterwards is not seen by the graph, which keeps updating the variables it traced
with (Keras 3's own check of this, ``_warn_if_trainable_state_changed``, is never reached).

Two facts make the warning a proof rather than a guess, both read without any per-call work:
where the flag was set (a watch on Keras' ``Layer.trainable`` setter, installed only while a
trace logger watches a Keras model, gives the user's line that assigned it) and that the
traced train function ran after that (TensorFlow's own count of the calls a tf.function
served without tracing, and the model's ``optimizer.iterations``).
"""
from __future__ import annotations

import sys
import threading
import weakref

from .calls import calls_since_trace
from .versions import log

_TRAINER_MODULE = "keras.src.backend.tensorflow.trainer"


def trained_model(fn):
    """The Keras model whose ``train_step`` ``fn`` (a function Keras' trainer traces) calls,
    found in the closures Keras builds around it; None for anything else."""
    return _closure_model(fn, _train_step_owner)


def step_owner(fn):
    """The Keras model whose step (``train_step``, ``test_step``, ``predict_step``) ``fn``, a
    function Keras' trainer traces, calls: found in the closures Keras builds around it."""
    return _closure_model(fn, _any_step_owner)


def _train_step_owner(value):
    owner = getattr(value, "__self__", None)
    return owner if getattr(value, "__name__", "") == "train_step" and hasattr(owner, "train_function") \
        else None


def _any_step_owner(value):
    if hasattr(value, "make_predict_function") and hasattr(value, "predict_step"):
        return value  # the model itself (Keras' closures call ``self.predict_step``)
    owner = getattr(value, "__self__", None)
    return owner if getattr(value, "__name__", "") in ("train_step", "test_step", "predict_step") \
        and hasattr(owner, "predict_function") else None


def _closure_model(fn, owner_of, depth: int = 0):
    """The first ``owner_of(value)`` that is not None among the values in the closures of
    ``fn``, a function of Keras' trainer, and of the closures it holds (3 levels)."""
    if fn is None or depth > 3 or not str(getattr(fn, "__module__", "") or "").startswith(_TRAINER_MODULE):
        return None
    fn = getattr(fn, "python_function", fn)
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        found = owner_of(value)
        if found is None and callable(value):
            found = _closure_model(value, owner_of, depth + 1)
        if found is not None:
            return found
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


# -- the watch on ``Layer.trainable`` (Keras 3, keras/src/layers/layer.py) ---------------------

_watch_lock = threading.Lock()
_watch = {"count": 0, "owner": None, "original": None, "listeners": []}


def watch_trainable(listener) -> bool:
    """Call ``listener(layer, value, frame)`` after each ``layer.trainable = value`` (``frame``:
    the frame that assigned it) until :func:`unwatch_trainable`; False when this Keras has no
    ``Layer.trainable`` property with a setter (then nothing is watched)."""
    keras = sys.modules.get("keras")
    layer_type = getattr(keras, "Layer", None) if keras is not None else None
    with _watch_lock:
        if _watch["count"] == 0:
            owner = next((c for c in getattr(layer_type, "__mro__", ())
                          if isinstance(c.__dict__.get("trainable"), property)), None)
            original = owner.__dict__["trainable"] if owner is not None else None
            if original is None or original.fset is None:
                return False
            setter = original.fset

            def fset(layer, value):
                setter(layer, value)
                frame = sys._getframe(1)
                for notify in list(_watch["listeners"]):
                    try:
                        notify(layer, bool(value), frame)
                    except Exception:  # noqa: BLE001 - watching never breaks the assignment
                        log.debug("tfdebug: trainable listener failed", exc_info=True)

            setattr(owner, "trainable", property(original.fget, fset, original.fdel,
                                                 original.__doc__))
            _watch.update(owner=owner, original=original)
        _watch["count"] += 1
        _watch["listeners"].append(listener)
    return True


def unwatch_trainable(listener) -> None:
    """Undo one :func:`watch_trainable`; the last one puts Keras' property back."""
    with _watch_lock:
        if listener not in _watch["listeners"]:
            return
        _watch["listeners"].remove(listener)
        _watch["count"] -= 1
        if _watch["count"] == 0 and _watch["owner"] is not None:
            setattr(_watch["owner"], "trainable", _watch["original"])
            _watch.update(owner=None, original=None)


# -- did the traced function run after a moment? ------------------------------------------------

def run_marker(function, model=None) -> tuple | None:
    """What says, later, whether ``function`` ran: for each tf.function it is or calls first
    (Keras' ``train_function`` is a Python function around a tf.function), its trace count and
    the calls it served since its last trace; and the model's optimizer steps. None when
    TensorFlow keeps no count of calls (another version): then nothing can be proven."""
    counts = []
    for tf_function in _tf_functions(function):
        calls = calls_since_trace(getattr(tf_function, "_key_for_call_stats", None))
        try:
            traces = tf_function.experimental_get_tracing_count()
        except Exception:  # noqa: BLE001
            calls = None
        if calls is None:
            return None
        counts.append((traces, calls))
    return (tuple(counts), _optimizer_steps(model)) if counts else None


def ran_since(function, marker, model=None) -> bool:
    """True when ``function`` was called since ``marker`` (:func:`run_marker`) and served the
    call with a trace it had then: a tf.function's call count grew without a new trace, and
    the model's optimizer stepped."""
    now = run_marker(function, model) if marker is not None else None
    if now is None or len(now[0]) != len(marker[0]):
        return False
    stepped = now[1] is None or marker[1] is None or now[1] > marker[1]
    return stepped and any(traces == traces_then and calls > calls_then for
                           (traces, calls), (traces_then, calls_then) in zip(now[0], marker[0]))


def _tf_functions(function) -> list:
    """``function`` if it is a tf.function, else the tf.functions its closure calls."""
    if hasattr(function, "experimental_get_tracing_count"):
        return [function]
    found = []
    for cell in getattr(function, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if hasattr(value, "experimental_get_tracing_count") and \
                hasattr(value, "_key_for_call_stats"):
            found.append(value)
    return found


def _optimizer_steps(model):
    iterations = getattr(getattr(model, "optimizer", None), "iterations", None)
    try:
        return int(iterations.numpy()) if iterations is not None else None
    except Exception:  # noqa: BLE001
        return None


def logs_averaged_across_replicas(model) -> bool:
    """Keras averages what a custom ``train_step`` returns over the replicas before ``fit``
    logs it: Keras 3's TensorFlow trainer reduces the step's outputs with "auto", which is
    the mean outside a TPU strategy (``reduce_per_replica``). False when it cannot tell."""
    try:
        import tensorflow as tf

        strategy = model_strategy(model)
        # model_strategy reads Keras 3's trainer attribute: no strategy, no Keras 3 trainer;
        # the TPU test is Keras' own (isinstance of tf.distribute.TPUStrategy)
        return strategy is not None and not isinstance(strategy, tf.distribute.TPUStrategy)
    except Exception:  # noqa: BLE001
        return False


def model_strategy(model):
    """The tf.distribute strategy a Keras model was built under (Keras 3's TensorFlow trainer
    keeps it in ``_distribute_strategy``); None without one, or on another layout."""
    import inspect

    try:
        return inspect.getattr_static(model, "_distribute_strategy", None) or None
    except Exception:  # noqa: BLE001
        return None



# The step functions Keras' loops call; ``compile()`` sets all three back to None
# (keras/src/trainers/trainer.py), and nothing else does while a loop runs.
STEP_FUNCTIONS = ("train_function", "test_function", "predict_function")


def reset_step_function(frames):
    """``(model, attribute, loop frame)`` when the innermost frame is Keras' own loop
    (``fit``/``evaluate``/``predict``) calling its model's step function, read off the
    frame's source line (``self.train_function(iterator)``), and that attribute is None now:
    ``compile()`` ran while the loop ran. Else None."""
    import ast
    import linecache

    if not frames:
        return None
    frame, lineno = frames[-1]
    if not str(frame.f_globals.get("__name__", "")).startswith("keras."):
        return None
    model = frame.f_locals.get("self")
    try:
        tree = ast.parse(linecache.getline(frame.f_code.co_filename, lineno).strip())
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "self" \
                and node.func.attr in STEP_FUNCTIONS and model is not None \
                and node.func.attr in vars(model) and getattr(model, node.func.attr) is None:
            return model, node.func.attr, frame
    return None


def loop_called_while_tracing(frames, user_index: int):
    """The Keras model whose own loop (``fit``/``evaluate``/``predict``/``*_on_batch``) the
    user's frame ``frames[user_index]`` called, while that frame ran inside a trace (a
    tf.function's, or the step function Keras traces): the first Keras frame under the user's,
    past Keras' traceback filter, is a loop method of a Keras model, and a frame above it is
    TensorFlow's trace entry. Else None. A loop called eagerly that fails is not this."""
    from .._vocab import KERAS_LOOPS
    from .locations import inside_trace

    for frame, _ in frames[user_index + 1:]:
        module = str(frame.f_globals.get("__name__", ""))
        if not module.startswith(("keras.", "tf_keras.")):
            continue
        if module.endswith(".traceback_utils"):
            continue  # Keras' re-raising wrapper around every public method
        model = frame.f_locals.get("self")
        if frame.f_code.co_name not in KERAS_LOOPS or not _is_keras_model(model):
            return None
        return model if inside_trace(frames[:user_index]) else None
    return None


def _is_keras_model(value) -> bool:
    classes = [_keras_attr(name, "Model") for name in ("keras.src.models.model", "tf_keras.src.engine.training")]
    return any(cls is not None and isinstance(value, cls) for cls in classes)


def loop_callbacks(loop_frame) -> list:
    """The callback objects a Keras loop's frame holds (its ``CallbackList``'s items)."""
    held = loop_frame.f_locals.get("callbacks")
    items = getattr(held, "callbacks", None)
    return list(items)[:100] if isinstance(items, (list, tuple)) else []


# The optimizer methods that read the learning rate (``BaseOptimizer.apply`` reads
# ``self.learning_rate``; ``apply_gradients`` and ``minimize`` call ``apply``).
RATE_READERS = frozenset({"apply_gradients", "apply", "minimize"})


def rate_callable(optimizer):
    """The plain callable a Keras 3 optimizer was given as its learning rate, which
    ``BaseOptimizer._get_current_learning_rate`` calls with no argument each time the rate
    is read (so a trace calls it once and keeps the number it returned); None for a
    schedule, a variable, a number or anything that is not a Keras 3 optimizer."""
    optimizer_class = _keras_attr("keras.src.optimizers.base_optimizer", "BaseOptimizer")
    schedule = _keras_attr("keras.src.optimizers.schedules.learning_rate_schedule",
                           "LearningRateSchedule")
    variable = _keras_attr("keras.src.backend", "Variable")
    if None in (optimizer_class, schedule, variable) or not isinstance(optimizer, optimizer_class) \
            or not hasattr(optimizer_class, "_get_current_learning_rate"):
        return None
    rate = vars(optimizer).get("_learning_rate")
    if rate is None or isinstance(rate, (schedule, variable)) or not callable(rate):
        return None
    return rate


def _keras_attr(module: str, name: str):
    found = sys.modules.get(module)
    return getattr(found, name, None) if found is not None else None

