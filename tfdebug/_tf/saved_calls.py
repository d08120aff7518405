"""Why a loaded SavedModel function refused a call: read from its raise site's frame.

A function restored by ``tf.saved_model.load`` can only run the traces that were saved.
``restored_function_body`` (saved_model/function_deserialization.py, TF 2.16-2.21) raises
"Could not find matching concrete function" with its arguments (``args``, ``kwargs``) and
the saved traces (``saved_function``, ``concrete_functions``) still in its frame; each
trace's ``structured_input_signature`` says what it accepts. Another layout of that frame
gives no answer (the diagnosis stays generic), and so does a TensorFlow outside 2.16-2.21.
"""
from __future__ import annotations

from .versions import log, version_supported

_SITE = ("saved_model/function_deserialization.py", "restored_function_body")


def _site_frame(chain):
    for exc in chain:
        tb = getattr(exc, "__traceback__", None)
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_name == _SITE[1] and code.co_filename.replace("\\", "/").endswith(_SITE[0]):
                return tb.tb_frame
            tb = tb.tb_next
    return None


def _mismatches(signature, inputs) -> set[str]:
    """What keeps ``inputs`` ((args, kwargs)) out of one saved trace's signature."""
    import tensorflow as tf

    try:
        tf.nest.assert_same_structure(signature, inputs)
    except (ValueError, TypeError):
        return {"structure"}
    found = set()
    for spec, value in zip(tf.nest.flatten(signature), tf.nest.flatten(inputs)):
        if not isinstance(spec, tf.TensorSpec):
            # a Python value the trace was made with is a constant of that trace
            if not isinstance(spec, tf.TypeSpec) and not _is_tensor(value) and not _same_value(spec, value):
                found.add("value")
            continue
        dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
        if dtype is None or shape is None:
            continue  # a Python value: TensorFlow converts it, its kind is not ours to tell
        if tf.as_dtype(dtype) != spec.dtype:
            found.add("dtype")
        elif not spec.shape.is_compatible_with(shape):
            found.add("shape")
    return found


def _is_tensor(value) -> bool:
    return hasattr(value, "dtype") and hasattr(value, "shape")


def _same_value(spec, value) -> bool:
    try:
        return type(spec) is type(value) and bool(spec == value)
    except Exception:  # noqa: BLE001 - values that cannot be compared are not the same
        return False


def restored_call_mismatch(chain) -> str | None:
    """"dtype" when every saved trace refuses an argument's dtype, "shape" when every one
    refuses only shapes, "value" when every one refuses only a Python value (a trace holds
    the Python arguments it was made with as constants), else None (mixed reasons, or not a
    restored function's refusal)."""
    frame = _site_frame(chain) if version_supported() else None
    if frame is None:  # another TensorFlow may keep other locals: no answer (generic)
        return None
    try:
        local = frame.f_locals
        inputs = (tuple(local["args"]), dict(local["kwargs"]))
        functions = local["concrete_functions"]
        names = list(local["saved_function"].concrete_functions)
        reasons = [_mismatches(functions[name].structured_input_signature, inputs) for name in names]
    except Exception:  # noqa: BLE001 - another TensorFlow's frame: no answer
        log.debug("tfdebug: unreadable restored-function frame", exc_info=True)
        return None
    if reasons and all("dtype" in r for r in reasons):
        return "dtype"
    if reasons and all(r == {"shape"} for r in reasons):
        return "shape"
    if reasons and all(r == {"value"} for r in reasons):
        return "value"
    return None


__all__ = ["restored_call_mismatch"]
