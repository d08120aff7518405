"""``print_to_tfprint()`` and ``ic()``: Python printing that works inside traced code.

Inside a tf.function, ``print`` runs once, while tracing, and shows placeholders. Within
``print_to_tfprint()``, a ``print`` called by user code that is being traced becomes a
``tf.print`` with the same ``sep``/``end``/stream, so it prints runtime values on every call;
f-strings and ``str.format`` of tensors inside that ``print(...)`` are converted too. The
graphs built this way live in a cache private to the scope: after it exits, each function
runs from its own traces again (or traces afresh, without the prints), at full speed.

``ic(x)`` is icecream's ``ic`` (prints ``ic| x: value`` and returns ``x``) that also works
in graph code, printing on every call.
"""
from __future__ import annotations

import ast
import builtins
import itertools
import logging
import os
import re
import sys
import threading

from . import _frames, _tf
from .render import use_color
from ._scope import Scope, run_all

log = logging.getLogger("tfdebug")

_lock = threading.Lock()
_depth = 0
_real_print = builtins.print
_TFDEBUG_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_TF_DIRS: tuple[str, ...] = ()


def _library_frame(filename: str) -> bool:
    global _TF_DIRS
    if not _TF_DIRS:
        import tensorflow
        _TF_DIRS = (os.path.dirname(os.path.abspath(tensorflow.__file__)) + os.sep,)
        python_tf = sys.modules.get("tensorflow.python")
        if python_tf is not None and getattr(python_tf, "__file__", None):
            _TF_DIRS += (os.path.dirname(os.path.dirname(os.path.abspath(python_tf.__file__)))
                         + os.sep,)
    return filename.startswith(_TFDEBUG_DIR) or filename.startswith(_TF_DIRS)


def _user_frame(frame):
    """The first frame above tfdebug and TensorFlow if it is the user's code, else None."""
    while frame is not None and _library_frame(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return None
    filename = frame.f_code.co_filename
    return frame if _frames.is_user_file(filename) or _tf.is_generated_file(filename) else None


# -- print_to_tfprint ---------------------------------------------------------------------

class print_to_tfprint(Scope):
    """Inside the scope, ``print(...)`` in traced code prints on every call with runtime
    values (as ``tf.print``, honouring ``sep``, ``end`` and ``file=sys.stdout/stderr``);
    plain eager code prints as usual. Functions that call ``print`` (in their code or in
    what they call) are traced afresh inside, into a private trace cache, so after the
    scope they print nothing and run at full speed; the others keep their traces.

    The switch is process-wide (it replaces ``builtins.print`` while active); datasets
    built inside the scope keep their prints, as their graphs are built once.

    Example::

        @tf.function
        def step(x):
            print("x =", x)          # normally once, as Tensor("x:0", ...)
            return x * 2

        with tfdebug.print_to_tfprint():
            step(tf.constant(1))     # x = 1
            step(tf.constant(2))     # x = 2
    """

    def _enter(self):
        _acquire()
        try:
            _tf.redirect_trace_caches(select=_prints)
        except BaseException:
            _release()
            raise
        return None

    def _exit(self, token, exc) -> None:
        run_all(_tf.restore_trace_caches, _release)


def _prints(tracing_options) -> bool:
    """Must this tf.function trace afresh in the scope? When its code or what it calls
    (the user functions the side-effect guard's reading of the source reaches) calls
    ``print``, or when one of their sources cannot be read (unknown: it retraces, as every
    function once did). The others keep their traces and cost nothing more per call."""
    from ._effects.finder import reached
    from ._source import function_node

    fn, instance, _kind = _tf.traced_target(tracing_options)
    codes = reached(fn, instance) if fn is not None else []
    if not codes:  # no user code reached: a library function's, or one we cannot read
        from ._effects.objects import unwrap_library

        code = getattr(unwrap_library(fn), "__code__", None) if fn is not None else None
        return code is None or _frames.is_user_file(code.co_filename)
    for code in codes:
        node = function_node(code)
        if node is None or any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                               and n.func.id == "print" for n in ast.walk(node)):
            return True
    return False


def _acquire() -> None:
    """The first open scope hooks tensor formatting and ``print`` (the hook first: if it
    fails, nothing has changed)."""
    global _depth
    with _lock:
        if _depth == 0:
            _tf.add_tensor_format_hook(_on_format)
            builtins.print = _print
        _depth += 1


def _release() -> None:
    """The last scope to close puts ``print`` back, then the tensor formatting."""
    global _depth
    with _lock:
        _depth -= 1
        if _depth == 0:
            if builtins.print is _print:
                builtins.print = _real_print
            _markers.clear()
            _tf.remove_tensor_format_hook(_on_format)


def active() -> bool:
    """True while a ``print_to_tfprint()`` scope is open (on any thread)."""
    return _depth > 0


def _print(*objects, sep=" ", end="\n", file=None, flush=False):
    """``print`` while print_to_tfprint() is active: tf.print for traced user code."""
    if not _tf.inside_function() or _user_frame(sys._getframe(1)) is None:
        return _real_print(*objects, sep=sep, end=end, file=file, flush=flush)
    stream = sys.stdout if file is None else file
    if stream is not sys.stdout and stream is not sys.stderr:
        # tf.print writes only to the process streams: keep Python's print for files
        return _real_print(*objects, sep=sep, end=end, file=file, flush=flush)
    import tensorflow as tf

    parts = []
    for obj in objects:
        parts.append(_expand(obj) if isinstance(obj, str) else [obj])
    flat = []
    for index, pieces in enumerate(parts):
        if index:
            flat.append(sep if sep is not None else " ")
        flat.extend(pieces)
    tf.print(*flat, sep="", end="\n" if end is None else end, output_stream=stream)


_tf.do_not_convert_instance(_print)

# A tensor formatted inside ``print(f"...")`` becomes a marker in the text; the print
# above splits the text at the markers and hands the tensors themselves to tf.print.
_markers: dict[str, object] = {}
_marker_ids = itertools.count()
_MARKER = re.compile("\x00tfdebug(\\d+)\x00")


def _on_format(tensor, text, caller):
    if builtins.print is not _print:
        return None
    frame = _user_frame(caller)
    if frame is None:
        return None
    where = _tf.mapped_location(frame)
    if where is None or not _inside_print(*where[:2]):
        return None
    marker = f"\x00tfdebug{next(_marker_ids)}\x00"
    _markers[marker] = tensor
    return marker


def _inside_print(filename: str, lineno: int) -> bool:
    """True when the statement on that line is a call of ``print`` (the text goes there)."""
    line = _frames.source_line(filename, lineno)
    try:
        node = ast.parse(line)
    except SyntaxError:
        return False
    return bool(node.body) and isinstance(node.body[0], ast.Expr) and \
        isinstance(node.body[0].value, ast.Call) and \
        isinstance(node.body[0].value.func, ast.Name) and node.body[0].value.func.id == "print"


def _expand(text: str) -> list:
    if "\x00tfdebug" not in text:
        return [text]
    pieces, last = [], 0
    for match in _MARKER.finditer(text):
        if match.start() > last:
            pieces.append(text[last:match.start()])
        pieces.append(_markers.pop(match.group(0), match.group(0)))
        last = match.end()
    if last < len(text):
        pieces.append(text[last:])
    return pieces


# -- ic ------------------------------------------------------------------------------------

class _IceCream:
    """``tfdebug.ic``: icecream's ``ic`` in eager code, a per-call print in graph code."""

    def __call__(self, *args):
        import icecream

        debugger = icecream.ic
        if _tf.inside_function():
            return _graph_ic(debugger, args, sys._getframe(1))
        if debugger.enabled:
            try:  # icecream reads the source of the frame that called it: the user's
                text = debugger._format(sys._getframe(1), *args)
            except Exception:  # noqa: BLE001 - another icecream version: less context
                return debugger(*args)
            _output(debugger)(text)
        return None if not args else args[0] if len(args) == 1 else args

    def configureOutput(self, **kwargs):  # noqa: N802 - icecream's own name
        """Same as ``icecream.ic.configureOutput`` (prefix, outputFunction, ...)."""
        import icecream

        return icecream.ic.configureOutput(**kwargs)

    def enable(self):
        import icecream

        icecream.ic.enable()

    def disable(self):
        import icecream

        icecream.ic.disable()

    def __repr__(self) -> str:
        return "tfdebug.ic"


def _output(debugger):
    """icecream's own output function, plain (no ANSI codes) where colour is unwanted: a pipe,
    a file, ``NO_COLOR``, ``TERM=dumb`` (icecream colours its default output always)."""
    import icecream.icecream as module

    output = debugger.outputFunction
    if output is getattr(module, "DEFAULT_OUTPUT_FUNCTION", None) and not use_color(sys.stderr):
        return _plain_stderr
    return output


def _plain_stderr(text: str) -> None:
    if sys.stderr is not None:  # not print(): print_to_tfprint() may have replaced it
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def _graph_ic(debugger, args, caller):
    import tensorflow as tf

    frame = _user_frame(caller)
    where = _tf.mapped_location(frame) if frame is not None else None
    names = _arg_texts(where, len(args)) if where else None
    if not args:
        label = f"{os.path.basename(where[0])}:{where[1]} in {where[2]}()" if where else "ic"
        texts = None
    else:
        label, texts = None, names or [None] * len(args)
    tensors = [tf.convert_to_tensor(a) if _is_tensorlike(a) else None for a in args]
    inputs = [t for t in tensors if t is not None]
    python_values = [None if t is not None else a for t, a in zip(tensors, args)]

    def emit(*values):
        if not debugger.enabled:
            return 0
        it = iter(values)
        shown = []
        for text, py_value, tensor in zip(texts or [], python_values, tensors):
            value = _plain(next(it)) if tensor is not None else py_value
            rendered = debugger.argToStringFunction(value)
            shown.append(f"{text}: {rendered}" if text else rendered)
        prefix = debugger.prefix() if callable(debugger.prefix) else debugger.prefix
        _output(debugger)(prefix + (label if label else ", ".join(shown)))
        return 0

    done = tf.py_function(emit, inputs, Tout=tf.int32, name="tfdebug_ic")
    if not args:
        return None
    with tf.control_dependencies([done]):
        out = [tf.identity(t) if t is not None else a for t, a in zip(tensors, args)]
    return out[0] if len(out) == 1 else tuple(out)


def _is_tensorlike(value) -> bool:
    import tensorflow as tf

    return isinstance(value, (tf.Tensor, tf.Variable))


def _plain(tensor):
    value = tensor.numpy()
    return value.item() if getattr(value, "ndim", 1) == 0 else value


def _arg_texts(where, count: int) -> list[str] | None:
    """The source text of each argument of the ``ic(...)`` call on that user line."""
    filename, lineno = where[0], where[1]
    line = _frames.source_line(filename, lineno)
    try:
        tree = ast.parse(line)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and len(node.args) == count and (
                (isinstance(node.func, ast.Name) and node.func.id == "ic")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "ic")):
            return [ast.get_source_segment(line, a) or "?" for a in node.args]
    return None


ic = _tf.do_not_convert_instance(_IceCream())
