"""AutoGraph's generated code: telling it apart, mapping it back to the user's lines.

A converted function carries ``ag_source_map`` ({LineLocation(file, line): OriginInfo(loc,
function_name, source_code_line, comment)}, autograph/impl/api.py and pyct/origin_info.py);
``converted_call`` holds it in its local ``converted_f`` while the generated code runs, so
the frame of that call in a traceback leads to the map of the generated frames below it.
"""
from __future__ import annotations

import threading

from .versions import log, version_supported


_GENERATED_MARKER = "__autograph_generated_file"


def is_generated_file(filename: str | None) -> bool:
    """True for the files AutoGraph writes its converted functions to."""
    return bool(filename) and _GENERATED_MARKER in filename


def mapped_location(frame) -> tuple[str, int, str] | None:
    """(file, line, function) the user wrote for ``frame``, or None.

    A frame of AutoGraph-generated code is mapped back to the user's source line.
    """
    filename = frame.f_code.co_filename
    if not is_generated_file(filename):
        return filename, frame.f_lineno, frame.f_code.co_name
    origin = _autograph_source_map().get((filename, frame.f_lineno))
    if origin is None:
        return None
    try:
        return str(origin[0]), int(origin[1]), str(origin[2])
    except (TypeError, ValueError, IndexError):
        return None


def _autograph_source_map() -> dict:
    """{(generated file, line): (user file, line, function)} of the converted code running."""
    try:
        from tensorflow.python.util import tf_stack
        stack = tf_stack._source_mapper_stacks.get(threading.get_ident())
        return dict(stack[-1].get_effective_source_map()) if stack else {}
    except Exception:  # noqa: BLE001 - no map: generated frames stay unmapped
        log.debug("tfdebug: AutoGraph source map unavailable", exc_info=True)
        return {}


def do_not_convert_instance(obj):
    """Mark a callable object so AutoGraph calls it as is (``do_not_convert`` for objects)."""
    try:
        from tensorflow.python.autograph.impl.api import autograph_artifact
        autograph_artifact(obj)
    except Exception:  # noqa: BLE001 - without the mark AutoGraph converts it: still correct
        log.debug("tfdebug: cannot mark %r as not-to-convert", obj, exc_info=True)
    return obj


def autograph_source_maps(frame) -> list:
    """The source maps of the converted functions ``frame`` (``converted_call``) was running."""
    try:
        local = frame.f_locals
    except Exception:  # noqa: BLE001 - frames of odd objects have no readable locals
        return []
    maps = []
    for name in ("converted_f", "f", "target_entity"):
        source_map = getattr(local.get(name), "ag_source_map", None)
        if isinstance(source_map, dict) and source_map:
            maps.append(source_map)
    return maps


def autograph_origin(source_maps, filename: str, lineno: int) -> tuple[str, int, str, str] | None:
    """(user file, line, function, source line) a generated ``filename:lineno`` came from."""
    for source_map in reversed(source_maps):
        try:
            origin = source_map.get((filename, lineno))
            if origin is not None:
                return (str(origin.loc.filename), int(origin.loc.lineno), str(origin.function_name),
                        str(origin.source_code_line or "").strip())
        except Exception:  # noqa: BLE001 - another layout of OriginInfo: leave the frame unmapped
            log.debug("tfdebug: unreadable AutoGraph origin", exc_info=True)
    return None


def converted_target(frame) -> tuple | None:
    """``(function, instance)`` the user wrote for ``frame``, a frame of AutoGraph-generated
    code, or None. ``converted_call(f, ...)`` (autograph/impl/api.py, TF 2.16-2.21) calls the
    converted function directly, so its frame is the caller's and its local ``f`` is what the
    user called: a function, a bound method, or a callable object (run as its ``__call__``)."""
    caller = frame.f_back
    if caller is None or caller.f_code.co_name != "converted_call" or \
            not caller.f_code.co_filename.replace("\\", "/").endswith("autograph/impl/api.py"):
        return None
    try:
        f = caller.f_locals.get("f")
    except Exception:  # noqa: BLE001 - unreadable locals: no claim
        return None
    func = getattr(f, "__func__", None)
    if func is not None and getattr(f, "__self__", None) is not None:
        owner = f.__self__
        return func, getattr(owner, "target", owner) if type(owner).__name__ == "TfMethodTarget" \
            else owner
    if hasattr(f, "__code__"):
        return f, None
    call = getattr(type(f), "__call__", None)
    return (call, f) if hasattr(call, "__code__") else None


def past_converted_call(frame):
    """The frame that called AutoGraph's ``converted_call`` (autograph/impl/api.py,
    TF 2.16-2.21), when ``frame`` is one of its frames (it runs a builtin the generated code
    calls, ``str(t)``, as-is); else ``frame`` itself."""
    for _ in range(8):
        if frame is None or not frame.f_code.co_filename.replace("\\", "/").endswith(_CONVERTED_CALL):
            return frame
        frame = frame.f_back
    return frame


def frame_origin(frame, lineno: int) -> tuple[str, int] | None:
    """(user file, line) of a generated ``frame`` stopped at ``lineno``, after the fact.

    A traceback TensorFlow filtered has lost ``converted_call``'s frame, but the generated
    frame still links to its callers (``f_back``): the nearest one holding a converted
    function leads to its source map.
    """
    caller, maps = getattr(frame, "f_back", None), []
    for _ in range(40):
        if caller is None:
            break
        maps = autograph_source_maps(caller)
        if maps:
            break
        caller = caller.f_back
    origin = autograph_origin(maps, frame.f_code.co_filename, lineno) if maps else None
    return (origin[0], origin[1]) if origin is not None else None


# AutoGraph's control-flow operators (autograph/operators/control_flow.py, TF 2.16-2.21):
# ``if_stmt`` hands an `if` whose condition is a tensor to ``_tf_if_stmt``, which stages it as
# a tf.cond and so traces *both* branches whatever the value; a Python condition goes to
# ``_py_if_stmt``, which runs one branch as Python would. Loops are staged by ``_tf_*`` too.
_CONTROL_FLOW = "tensorflow/python/autograph/operators/control_flow.py"
_CONVERTED_CALL = "tensorflow/python/autograph/impl/api.py"
_TENSOR_IF = "_tf_if_stmt"


def raised_in_tensor_branch(frame) -> bool:
    """True when ``frame``, the innermost frame of an exception, is a branch of an `if`
    AutoGraph staged as a tf.cond: the statement there ran while the branch was traced,
    whatever the condition's value. The branch of a Python `if` nested inside it counts too;
    a function called from the branch (AutoGraph's ``converted_call`` in between) or a staged
    loop met first does not. The live callers (``f_back``) are read, since TensorFlow's
    traceback filtering drops frames of the traceback itself."""
    if frame is None or not is_generated_file(frame.f_code.co_filename):
        return False
    caller = frame.f_back
    for _ in range(200):
        if caller is None:
            return False
        filename = caller.f_code.co_filename.replace("\\", "/")
        if filename.endswith(_CONTROL_FLOW):
            name = caller.f_code.co_name
            if name == _TENSOR_IF:
                return True
            if name.startswith("_tf_"):
                return False  # a staged loop: its body runs once at trace time, as once eagerly
        elif filename.endswith(_CONVERTED_CALL) or not (
                is_generated_file(filename) or "/tensorflow/" in filename):
            return False  # the function's boundary, or code that is neither TF nor generated
        caller = caller.f_back
    return False


# AutoGraph's builtins (autograph/operators/py_builtins.py, TF 2.16-2.21): ``len_`` stages a
# tensor's length and hands any other object to ``_py_len``, which calls Python's ``len``.
_PY_BUILTINS = "tensorflow/python/autograph/operators/py_builtins.py"


def is_python_len(frame) -> bool:
    """True for the frame of AutoGraph's fallback that calls Python's ``len`` on a non-tensor."""
    return frame is not None and frame.f_code.co_name == "_py_len" and \
        frame.f_code.co_filename.replace("\\", "/").endswith(_PY_BUILTINS)


def next_left_to_python() -> bool:
    """True when AutoGraph calls Python's builtin ``next`` as it is: ``converted_call`` hands a
    builtin to ``py_builtins.overload_of`` (autograph/operators/py_builtins.py), which gives
    back ``next`` itself when ``next`` is not among the builtins it overloads (TF 2.21:
    ``next`` is in BUILTIN_FUNCTIONS_MAP but not in SUPPORTED_BUILTINS). tf.data's own
    ``next`` (``get_next_as_optional``, which honours the default) is then never reached.
    False when AutoGraph overloads it, or on an unknown layout."""
    if not version_supported():
        return False
    try:
        from tensorflow.python.autograph.operators import py_builtins
        return py_builtins.overload_of(next) is next
    except Exception:  # noqa: BLE001 - another layout: no claim
        log.debug("tfdebug: AutoGraph's builtin overloads unreadable", exc_info=True)
        return False
