"""AutoGraph's conversion decisions: which user function it ran as-is, and why.

AutoGraph (``autograph/impl/api.py``) converts every function a traced function calls
through ``converted_call``; it calls a function unconverted (``_call_unconverted``) when
the function is marked ``do_not_convert``, is a kind it never converts (constructors,
``functools.lru_cache``, wrapt, modules on its do-not-convert list, ``exec`` code) or when
converting it raised (``_fall_back_unconverted``: ``for``/``else``, mangled names, no
source). It says so in a log line at most. The decisions are read here from AutoGraph's own
objects: the frames of a traceback (``converted_call``'s ``f``, the ``exc`` it caught),
the exception it caught (chained to the symptom), AutoGraph's predicates
(``is_autograph_artifact``, ``conversion.is_unsupported``/``is_allowlisted``) and its
unsupported-features checker, and at trace time from ``_fall_back_unconverted`` itself
(:func:`record_declines`: it runs only when AutoGraph gives up, never per call).
"""
from __future__ import annotations

import dataclasses
import functools
import os
import threading
import weakref

from .autograph import is_generated_file
from .versions import log

_API = os.path.join("tensorflow", "python", "autograph", "impl", "api.py")
_CHECKER = os.path.join("tensorflow", "python", "autograph", "core", "unsupported_features_checker.py")
# Library frames between AutoGraph's decision and the user function it called as-is.
_PASS_THROUGH = {
    _API: {"_call_unconverted", "_fall_back_unconverted", "wrapper"},
    os.path.join("tensorflow", "python", "eager", "polymorphic_function", "tf_method_target.py"): {"call"},
    "functools.py": {"wrapper", "__call__"},
}


@dataclasses.dataclass(frozen=True)
class Decline:
    """AutoGraph ran ``function`` (defined at ``file``:``line``) as plain Python.

    ``kind``: "construct" (a construct it refuses, at ``construct_line``), "no-source",
    "do-not-convert", "never-converted" (a kind of callable it never converts) or "error";
    ``reason``: AutoGraph's own words.
    """

    function: str
    file: str
    line: int
    kind: str
    reason: str
    construct_line: int | None = None
    code: object = None


# -- the frames of a traceback -------------------------------------------------------------

def _is_lib(filename: str) -> set | None:
    for tail, names in _PASS_THROUGH.items():
        if filename.endswith(os.sep + tail) or filename == tail:
            return names
    return None


def declined_frames(frames, is_user):
    """(index of the user frame AutoGraph called as-is, converted_call's frame, the exception
    it caught or None) for the innermost user frame of ``frames`` (``(frame, lineno)``,
    outermost first); None when that frame ran converted or was called by other code.

    The innermost user frame and the plain-Python user frames above it lead up to the
    function AutoGraph's ``_call_unconverted`` called: converted code calls every function
    through ``converted_call``, so a user frame called straight from generated code (an
    operator method) or from a library is not AutoGraph's decision.
    """
    users = [i for i, (f, _) in enumerate(frames) if is_user(f.f_code.co_filename)
             or is_generated_file(f.f_code.co_filename)]
    if not users or is_generated_file(frames[users[-1]][0].f_code.co_filename):
        return None
    index = users[-1]
    while index > 0 and is_user(frames[index - 1][0].f_code.co_filename):
        index -= 1
    declined, caught, i = index, None, index - 1
    while i >= 0:
        frame = frames[i][0]
        filename, name = frame.f_code.co_filename, frame.f_code.co_name
        if filename.endswith(os.sep + _API) and name == "converted_call":
            return declined, frame, caught
        names = _is_lib(filename)
        if names is None or name not in names:
            return None
        if name == "_fall_back_unconverted":
            caught = _local(frame, "exc")
        i -= 1
    return None


def _local(frame, name):
    try:
        return frame.f_locals.get(name)
    except Exception:  # noqa: BLE001 - odd frames have no readable locals
        return None


def conversion_failure(exc) -> object | None:
    """The function AutoGraph was converting when ``exc`` was raised (its ``converted_call``
    frame's ``target_entity``), or None: ``exc`` is then not a conversion failure."""
    tb = getattr(exc, "__traceback__", None)
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename.endswith(os.sep + _API) and code.co_name == "converted_call":
            return _local(tb.tb_frame, "target_entity") or _local(tb.tb_frame, "f")
        tb = tb.tb_next
    return None


# -- why --------------------------------------------------------------------------------------

def codes_of(f) -> list:
    """The code objects ``f`` may run as: itself, the function of a bound method, what its
    decorators wrap (``__wrapped__``, a tf.function's ``python_function``), a callable
    object's ``__call__``."""
    out, seen = [], 0
    while f is not None and seen < 8:
        seen += 1
        f = getattr(f, "__func__", f)
        code = getattr(f, "__code__", None)
        if code is not None and code not in out:
            out.append(code)
        inner = getattr(f, "__wrapped__", None) or getattr(f, "python_function", None)
        if inner is None and isinstance(f, type):
            inner = f.__dict__.get("__init__") or next(
                (c.__dict__["__init__"] for c in f.__mro__ if "__init__" in c.__dict__), None)
        elif inner is None and code is None:
            inner = getattr(type(f), "__call__", None)
        f = inner if inner is not f else None
    return out


def _decline(code, kind: str, reason: str, construct_line=None) -> Decline | None:
    if code is None:
        return None
    return Decline(function=code.co_name, file=code.co_filename, line=code.co_firstlineno,
                   kind=kind, reason=" ".join(str(reason).split())[:400],
                   construct_line=construct_line, code=code)


def _origin_line(node) -> int | None:
    try:
        from tensorflow.python.autograph.pyct import anno
        return int(anno.getanno(node, anno.Basic.ORIGIN).loc.lineno)
    except Exception:  # noqa: BLE001 - a node without origin: no line
        return None


def _refused_node_line(exc) -> int | None:
    """The user line of the node AutoGraph's unsupported-features checker raised on."""
    tb, line = getattr(exc, "__traceback__", None), None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(os.sep + _CHECKER):
            node = _local(tb.tb_frame, "node")
            line = _origin_line(node) if node is not None else line
        tb = tb.tb_next
    return line


def decline_from_exception(code, exc) -> Decline | None:
    """AutoGraph's reason for the function of ``code`` from the exception it caught while
    converting it."""
    try:
        from tensorflow.python.autograph.pyct import errors
    except ImportError:
        return None
    if isinstance(exc, errors.InaccessibleSourceCodeError):
        kind = "no-source"
    elif isinstance(exc, errors.UnsupportedLanguageElementError):
        kind = "construct"
    else:
        kind = "error"
    text = str(exc)
    message = text.splitlines()[0] if text.strip() else type(exc).__name__
    return _decline(code, kind, message, _refused_node_line(exc) if kind == "construct" else None)


def recheck(fn, code) -> Decline | None:
    """AutoGraph's own unsupported-features check run again on ``fn`` (a function it had
    declined on an earlier trace and now calls as-is from its cache)."""
    try:
        from tensorflow.python.autograph.core import unsupported_features_checker
        from tensorflow.python.autograph.pyct import errors, origin_info, parser
    except ImportError:
        return None
    target = getattr(fn, "__func__", fn)
    try:
        node, source = parser.parse_entity(target, future_features=())
        origin_info.resolve_entity(node, source, target)
        unsupported_features_checker.verify(node)
    except (errors.UnsupportedLanguageElementError, errors.InaccessibleSourceCodeError) as exc:
        return decline_from_exception(code, exc)
    except Exception:  # noqa: BLE001 - AutoGraph's parser failed another way: no reason known
        log.debug("tfdebug: AutoGraph recheck failed", exc_info=True)
    return None


def decline_of_call(f, code, options=None) -> Decline | None:
    """Why AutoGraph's ``converted_call`` ran ``f`` (the function of ``code``) as-is when it
    caught nothing: its own predicates, asked in its order."""
    try:
        from tensorflow.python.autograph.impl import api, conversion
        from tensorflow.python.autograph.pyct import inspect_utils
    except ImportError:
        return None
    if api.is_autograph_artifact(f):
        return _decline(code, "do-not-convert", "the function is marked "
                        "@tf.autograph.experimental.do_not_convert")
    if conversion.is_unsupported(f):
        what = ("a class constructor" if inspect_utils.isconstructor(f) else
                "wrapped by functools.lru_cache" if type(f).__name__ == "_lru_cache_wrapper" else
                "a kind of callable AutoGraph never converts")
        return _decline(code, "never-converted", f"{what}: AutoGraph calls it as-is")
    if conversion.is_allowlisted(f):
        module = getattr(f, "__module__", None) or "?"
        return _decline(code, "never-converted", f"its module ({module}) is on AutoGraph's "
                        "do-not-convert list: AutoGraph calls it as-is")
    if code.co_filename == "<string>":
        return _decline(code, "no-source", "dynamic code (exec): AutoGraph calls it as-is")
    recorded = recorded_decline(code)
    if recorded is not None:
        return recorded
    if options is not None and conversion.is_in_allowlist_cache(f, options):
        decline = recheck(f, code) or _decline(code, "error", "AutoGraph failed to convert it "
                                               "on an earlier trace and now runs it as-is")
        _remember(code, decline)  # parsing again costs ~10 ms: once per function
        return decline
    return None


def _frames_of(exc) -> list:
    frames, tb = [], getattr(exc, "__traceback__", None)
    while tb is not None and len(frames) < 2000:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return frames


def declined_function(chain, is_user) -> tuple[Decline, list] | None:
    """(AutoGraph's decline, the traceback frames from the declined function's frame down)
    for the innermost user frame of the exceptions in ``chain``, or None when that code ran
    converted or no AutoGraph decision led to it."""
    for exc in chain:
        frames = _frames_of(exc)
        marked = _marked_in_data_function(frames, is_user)
        if marked is not None:
            return marked
        found = declined_frames(frames, is_user)
        if found is not None:
            index, call, caught = found
            code, f = frames[index][0].f_code, _local(call, "f")
            if code not in codes_of(f) and code not in codes_of(getattr(f, "__self__", None)):
                return None  # AutoGraph declined something else that called this code
            decline = decline_from_exception(code, caught) if caught is not None else \
                decline_of_call(f, code, _local(call, "options"))
            return (decline, frames[index:]) if decline is not None else None
        # A filtered traceback hides AutoGraph's frames: the exception it caught while
        # converting is chained to the symptom, and names the function.
        users = [i for i, (frame, _) in enumerate(frames) if is_user(frame.f_code.co_filename)]
        for other in chain:
            target = conversion_failure(other)
            codes = codes_of(target) if target is not None else []
            hits = [i for i in users if frames[i][0].f_code in codes]
            if hits and all(i in users for i in range(hits[-1], users[-1] + 1)):
                decline = decline_from_exception(frames[hits[-1]][0].f_code, other)
                if decline is not None:
                    return decline, frames[hits[-1]:]
    return None


_DATA_FUNCTION = os.path.join("tensorflow", "python", "data", "ops", "structured_function.py")


def _marked_in_data_function(frames, is_user) -> tuple[Decline, list] | None:
    """The innermost user function is marked ``do_not_convert`` and tf.data called it: tf.data
    hands the function of a ``map``/``filter``/... to AutoGraph's ``tf_convert`` under the
    AutoGraph status it was created in, which returns a marked function as-is instead of
    converting it (there is no ``converted_call`` frame to read). Proven by the frames: the
    user function's caller is the marker's wrapper, and that wrapper's caller is tf.data's
    function wrapper holding a status that is not DISABLED."""
    users = [i for i, (f, _) in enumerate(frames) if is_user(f.f_code.co_filename)]
    if not users or users[-1] < 2:
        return None
    index = users[-1]
    while index > 0 and is_user(frames[index - 1][0].f_code.co_filename):
        index -= 1
    if index < 2 or frames[index - 1][0].f_code is not _marker_code():
        return None
    caller = frames[index - 2][0]
    if not caller.f_code.co_filename.endswith(os.sep + _DATA_FUNCTION):
        return None
    try:
        from tensorflow.python.autograph.core import ag_ctx
        context = _local(caller, "ag_ctx")
        if context is None or context.status == ag_ctx.Status.DISABLED:
            return None
    except Exception:  # noqa: BLE001 - another TensorFlow's layout: no claim
        return None
    decline = _decline(frames[index][0].f_code, "do-not-convert", "the function is marked "
                       "@tf.autograph.experimental.do_not_convert; tf.data runs it as-is")
    return (decline, frames[index:]) if decline is not None else None


@functools.lru_cache(maxsize=1)
def _marker_code():
    """The code of ``do_not_convert``'s wrapper: one code object for every marked function."""
    try:
        from tensorflow.python.autograph.impl import api
        return api.do_not_convert(lambda: None).__code__
    except Exception:  # noqa: BLE001 - no AutoGraph: nothing is marked
        return None


def library_caller(chain, is_user) -> Decline | None:
    """The innermost user function of ``chain`` ran as plain Python because library code
    called it, inside code AutoGraph converted: AutoGraph converts the calls it makes itself
    and runs a library function (``tf.nest.map_structure``, ``functools.reduce``) as-is, so
    the user function that library calls back is never converted. Read from the live callers
    (``f_back``): user frames (not generated), then library frames that are neither
    AutoGraph's own (its declines are recorded) nor Keras' (Keras calls layers on purpose
    without AutoGraph), up to a frame of AutoGraph-generated code. None otherwise."""
    for exc in reversed(chain):  # the innermost exception holds the failing frame
        frames = _frames_of(exc)
        users = [frame for frame, _ in frames if is_user(frame.f_code.co_filename)]
        if users:
            return _called_back(users[-1], is_user)
    return None


def _native_callee(frame, code) -> str | None:
    """The name of the native callable (no Python code: ``functools.reduce``, ``sorted``)
    AutoGraph's ``converted_call`` (autograph/impl/api.py) holds as ``f`` in ``frame``."""
    if frame.f_code.co_name not in ("converted_call", "_call_unconverted"):
        return None
    f = _local(frame, "f")
    if f is None or codes_of(f) or code in codes_of(getattr(f, "__self__", None)):
        return None  # a Python function: AutoGraph's own decision, recorded as a decline
    module, name = getattr(f, "__module__", None), getattr(f, "__qualname__", None)
    return f"{module}.{name}" if module and name else None


def _called_back(symptom, is_user) -> Decline | None:
    """The decline for ``symptom``'s function when library code called it back (above)."""
    if is_generated_file(symptom.f_code.co_filename):
        return None
    caller, library = symptom.f_back, None
    for _ in range(300):
        if caller is None:
            return None
        filename = caller.f_code.co_filename
        if is_generated_file(filename):
            return None if library is None else Decline(
                symptom.f_code.co_name, symptom.f_code.co_filename, symptom.f_code.co_firstlineno,
                "library-call", f"{symptom.f_code.co_name} was called by {library}, which "
                "AutoGraph runs as-is, so it ran unconverted")
        tail = filename.replace(os.sep, "/")
        if is_user(filename):
            if library is not None:
                return None  # user code between the library and the converted code: no claim
        elif "/tensorflow/python/autograph/" in tail or "/keras/" in tail:
            if library is None:
                # a builtin AutoGraph called as-is (functools.reduce, sorted) called back;
                # else AutoGraph's own decision (recorded), or Keras calling a layer
                library = _native_callee(caller, symptom.f_code)
                if library is None:
                    return None
        elif "/tfdebug/" not in tail:  # the outermost library frame: what the user called
            module = caller.f_globals.get("__name__", "") if caller.f_globals else ""
            library = f"{module}.{caller.f_code.co_name}" if module else caller.f_code.co_name
        caller = caller.f_back
    return None


def keras_caller(chain, is_user) -> Decline | None:
    """The innermost user function of ``chain`` ran as plain Python because Keras called it
    inside a trace: Keras 3 runs its train/test/predict step under
    ``tf.autograph.experimental.do_not_convert``, and AutoGraph runs a Keras object a user's
    converted code calls as-is (Keras is a library), so the ``call``, ``train_step``, loss or
    metric Keras calls back is never converted. Read from the live callers (``f_back``): user
    and Keras frames, with at least one Keras frame, up to the ``do_not_convert`` wrapper or
    to AutoGraph's ``converted_call`` of a Keras callable. None otherwise (code AutoGraph
    converted, or Keras building a model outside any trace)."""
    for exc in reversed(chain):  # the innermost exception holds the failing frame
        users = [frame for frame, _ in _frames_of(exc) if is_user(frame.f_code.co_filename)]
        if users:
            return _keras_called(users[-1], is_user)
    return None


def _do_not_convert_code():
    try:
        from tensorflow.python.autograph.impl import api
        return api.do_not_convert(lambda: None).__code__  # every wrapper it makes runs this
    except Exception:  # noqa: BLE001 - another AutoGraph: no wrapper known, no claim
        return None


def _is_keras(filename: str) -> bool:
    return "/keras/" in filename.replace(os.sep, "/") and "/tfdebug/" not in filename


# Where a tf.function's trace runs: above it, no caller decided how the user's code ran.
_TRACING = "/tensorflow/python/eager/polymorphic_function/"


def _keras_called(symptom, is_user) -> Decline | None:
    if is_generated_file(symptom.f_code.co_filename):
        return None
    wrapper, caller, keras, step = _do_not_convert_code(), symptom.f_back, None, None
    for _ in range(400):
        if caller is None or is_generated_file(caller.f_code.co_filename):
            return None
        filename, code = caller.f_code.co_filename, caller.f_code
        if keras is None and _is_keras(filename):  # the Keras code nearest the user's
            module = caller.f_globals.get("__name__", "") if caller.f_globals else ""
            keras = f"{module}.{code.co_name}" if module else code.co_name
        if step is None and wrapper is not None and code is wrapper:
            step = _local(caller, "func")  # what do_not_convert wrapped (Keras' or a user's)
        elif filename.endswith(os.sep + _API) and code.co_name == "converted_call" or \
                _TRACING in filename.replace(os.sep, "/"):
            break  # AutoGraph's call of what it ran as-is, or the trace itself: the decision
        if step is not None and keras is not None:
            break
        caller = caller.f_back
    if keras is None:
        return None  # no Keras frame: the user's own do_not_convert, or another library
    if step is not None:
        name = getattr(step, "__qualname__", None) or "its step"
        calls = "neither it nor the code it calls" if symptom.f_code in codes_of(step) else \
            f"none of the code it calls, {symptom.f_code.co_name} included"
        return _decline(symptom.f_code, "keras-call", f"Keras runs {name} under "
                        f"@tf.autograph.experimental.do_not_convert: AutoGraph converts {calls}")
    return _decline(symptom.f_code, "keras-call", f"{symptom.f_code.co_name} was called by Keras "
                    f"({keras}), which AutoGraph runs as-is, so it ran unconverted")


# -- at trace time: the declines as AutoGraph makes them -------------------------------------

_recorded: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_installed = {"count": 0, "original": None}


def _remember(code, decline) -> None:
    try:
        _recorded[code] = decline
    except TypeError:
        pass


def recorded_decline(code) -> Decline | None:
    """The decline :func:`record_declines` saw for the function of ``code``, if any."""
    try:
        return _recorded.get(code) if code is not None else None
    except TypeError:
        return None


def _recording(original):
    def _fall_back_unconverted(f, args, kwargs, options, exc):
        try:
            for code in codes_of(f):
                decline = decline_from_exception(code, exc)
                if decline is not None:
                    _recorded[code] = decline
        except Exception:  # noqa: BLE001 - recording must never change what AutoGraph does
            log.debug("tfdebug: cannot record an AutoGraph decline", exc_info=True)
        return original(f, args, kwargs, options, exc)
    _fall_back_unconverted.tfdebug_original = original
    return _fall_back_unconverted


def record_declines() -> bool:
    """Start recording AutoGraph's declines (nested calls count); False when this
    TensorFlow has no ``_fall_back_unconverted`` of the known signature."""
    try:
        from tensorflow.python.autograph.impl import api
    except ImportError:
        return False
    with _lock:
        current = getattr(api, "_fall_back_unconverted", None)
        if _installed["count"] == 0:
            if current is None or getattr(current, "__code__", None) is None or \
                    current.__code__.co_varnames[:5] != ("f", "args", "kwargs", "options", "exc"):
                return False
            _installed["original"] = current
            api._fall_back_unconverted = _recording(current)
        _installed["count"] += 1
    return True


def stop_recording_declines() -> None:
    """Undo one :func:`record_declines` (the last one puts AutoGraph's function back)."""
    try:
        from tensorflow.python.autograph.impl import api
    except ImportError:
        return
    with _lock:
        if _installed["count"] == 0:
            return
        _installed["count"] -= 1
        if _installed["count"] == 0:
            current = getattr(api, "_fall_back_unconverted", None)
            if getattr(current, "tfdebug_original", None) is _installed["original"]:
                api._fall_back_unconverted = _installed["original"]
            _installed["original"] = None
