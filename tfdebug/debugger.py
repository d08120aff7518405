"""A debugger for tf.function code: ``breakpoint()``, ``debug()`` and the eager re-run.

``breakpoint()`` in eager code is pdb at the caller's line. Inside a traced function it adds
one ``tf.py_function`` that receives the caller's tensors (collected by name while tracing)
and, at run time, on every call, opens a pdb prompt where those names hold their runtime
values. ``debug(fn, *args)`` runs a call and, when it fails, re-runs that same call eagerly
with the same inputs and stops at the line the diagnosis blames. ``tfdebug run --pdb`` and
``%tfdebug rerun`` do the same for a script's failing tf.function call (found in the
traceback: nothing is recorded per call, so it costs nothing when it is off) and for a
notebook's failing cell.
"""
from __future__ import annotations

import bdb
import logging
import os
import pdb
import sys
import threading

import tensorflow as tf

from . import _frames, _tf
from ._quit import ABORTED

log = logging.getLogger("tfdebug")

_TFDEBUG_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_TF_DIRS = tuple(os.path.dirname(os.path.abspath(m.__file__)) + os.sep for m in (tf,)
                 if getattr(m, "__file__", None))
# Names AutoGraph adds to converted functions; never the user's.
_AUTOGRAPH_NAMES = {"ag__", "fscope", "do_return", "retval_", "get_state", "set_state",
                    "loop_body", "extra_test", "if_body", "else_body", "get_state_1",
                    "set_state_1", "itr"}
_prompt_lock = threading.Lock()  # one prompt at a time (tf.data runs maps in parallel)


class DebuggerQuit(StopIteration):
    """``q`` at a ``tfdebug.breakpoint()`` prompt inside a graph: the call is aborted.

    It is raised inside the graph's ``tf.py_function``. TensorFlow's py_func kernel turns a
    ``StopIteration`` into ``OutOfRange`` without logging it (any other class is logged by
    the C++ op kernel and the rendezvous, the whole Python traceback each time), so the
    caller gets ``tf.errors.OutOfRangeError`` carrying this text, and tfdebug's front ends
    show it as one line (``_quit``).
    """

    def __init__(self, where: str):
        super().__init__(f"{ABORTED}{where}. Use `c` to let the call continue.")


# -- breakpoint() ---------------------------------------------------------------------

@tf.autograph.experimental.do_not_convert
def breakpoint():  # noqa: A001 - the point of the name: it replaces the builtin in tf code
    """Stop at the caller's line, in eager code *and* at run time inside a tf.function.

    In eager code this is ``pdb.set_trace()`` at the caller. Inside a traced function
    (``@tf.function``, Keras ``train_step``, a ``tf.data`` map) it stops on every *call*,
    at a pdb prompt where the caller's tensors are names holding their runtime values:
    ``p loss``, ``pp locals()``, ``l``; ``c`` continues, ``q`` aborts the call (it fails
    with ``tf.errors.OutOfRangeError`` naming ``DebuggerQuit``, shown as one line; a loop
    that reads OutOfRangeError as the end of its data, as Keras' ``fit`` does, ends there). Python values show what they
    were while tracing. With ``jit_compile=True`` (XLA) there is no prompt: XLA cannot run
    Python, so TensorFlow rejects the function; drop jit_compile while debugging.
    ``PYTHONBREAKPOINT=0`` turns every stop off, as for the builtin.

    Example::

        @tf.function
        def train_step(x):
            loss = tf.reduce_sum(x * x)
            tfdebug.breakpoint()        # (Pdb) p loss  ->  <tf.Tensor: ... numpy=14.0>
            return loss
    """
    if os.environ.get("PYTHONBREAKPOINT") == "0":
        return None
    frame = _caller_frame(sys._getframe(1))
    if not _tf.inside_function():
        _set_trace_at(frame)
        return None
    return _graph_breakpoint(frame)


def _set_trace_at(frame) -> None:
    """``pdb.set_trace()`` that stops at ``frame``'s next line, not in the wrappers
    between it and us (AutoGraph's ``do_not_convert``): bdb's set_trace, minus set_step."""
    debugger = pdb.Pdb()
    debugger.reset()
    outer = frame
    while outer is not None:
        outer.f_trace = debugger.trace_dispatch
        debugger.botframe = outer
        outer = outer.f_back
    debugger._set_stopinfo(frame, None)
    sys.settrace(debugger.trace_dispatch)


def _caller_frame(frame):
    """The first frame outside tfdebug and TensorFlow (AutoGraph calls us through both)."""
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if not filename.startswith(_TFDEBUG_DIR) and not filename.startswith(_TF_DIRS):
            return frame
        frame = frame.f_back
    return sys._getframe(2)


def _graph_breakpoint(frame):
    where = _tf.traced_user_location() or (
        frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)
    python_values, fed, flat = _collect_tensors(frame)
    globals_ = frame.f_globals
    state = {"calls": 0}

    def prompt(*values):
        state["calls"] += 1
        namespace = dict(python_values)
        runtime = iter(values)
        for name, (structure, leaves, is_tensor) in fed.items():
            filled = [next(runtime) if tensor else leaf for leaf, tensor in zip(leaves, is_tensor)]
            namespace[name] = tf.nest.pack_sequence_as(structure, filled)
        _run_prompt(where, state["calls"], globals_, namespace)

    tf.py_function(func=prompt, inp=flat, Tout=[], name="tfdebug_breakpoint")
    return None


def _collect_tensors(frame):
    """The caller's locals: Python values as they are, tensor structures fed at run time.

    Returns (python values by name, {name: (structure, leaves, is-tensor mask)}, tensors).
    """
    graph = tf.compat.v1.get_default_graph()
    python_values, fed, flat = {}, {}, []
    for name, value in dict(frame.f_locals).items():
        if name in _AUTOGRAPH_NAMES or name.startswith(("ag__", "__")):
            continue
        try:
            leaves = tf.nest.flatten(value)
        except Exception:  # noqa: BLE001 - odd objects are shown as they were at trace time
            leaves = [value]
        tensors = [_usable(leaf, graph) for leaf in leaves] if len(leaves) <= 256 else []
        if not any(t is not None for t in tensors):
            python_values[name] = value
            continue
        fed[name] = (value, leaves, [t is not None for t in tensors])
        flat.extend(t for t in tensors if t is not None)
    return python_values, fed, flat


def _usable(value, graph):
    """``value`` as a tensor the current graph may use, or None."""
    if isinstance(value, tf.Variable):
        try:
            return tf.identity(value)
        except Exception:  # noqa: BLE001
            return None
    if not isinstance(value, tf.Tensor):
        return None
    if not hasattr(value, "graph"):  # an EagerTensor: captured as a constant
        return value
    g = graph
    while g is not None:  # this graph or an enclosing one (captured automatically)
        if value.graph is g:
            return value
        g = getattr(g, "outer_graph", None)
    return None


class _Prompt(pdb.Pdb):
    """pdb on a synthetic frame at the user's line whose locals are runtime values."""

    quit_requested = False

    def set_quit(self):
        self.quit_requested = True
        super().set_quit()


def _run_prompt(where, call: int, globals_, namespace) -> None:
    filename, lineno, function = where
    code = compile("\n" * (max(lineno, 1) - 1) + "None\n", filename, "exec")
    code = code.replace(co_name=function)
    shown = [n for n in namespace if not n.startswith("_")]
    with _prompt_lock:
        print(f"tfdebug.breakpoint: {function} at {os.path.basename(filename)}:{lineno}, "
              f"call {call} (graph mode; runtime values of: {', '.join(shown) or 'nothing'}). "
              f"c continues, q aborts the call.", file=sys.stdout, flush=True)
        debugger = _Prompt()
        debugger.run(code, dict(globals_), namespace)
        sys.stdout.flush()
    if debugger.quit_requested:
        raise DebuggerQuit(f"{filename}:{lineno} in {function}")


# -- debug() and the eager re-run -----------------------------------------------------

def debug(fn, *args, **kwargs):
    """Call ``fn(*args, **kwargs)``; when it fails, re-run it eagerly and stop at the fault.

    The re-run uses the same inputs under :func:`tfdebug.eager`, so pdb shows real values.
    When the eager re-run fails too, pdb opens post-mortem at the innermost *user* frame of
    that error (never TensorFlow's or AutoGraph's code). When only the graph fails, pdb
    stops at the user line the graph error names, with the eager values of that call.
    The original exception is re-raised afterwards, unchanged. Returns ``fn``'s result.

    Example::

        tfdebug.debug(train_step, x, y)     # (Pdb) p logits.shape
    """
    if not callable(fn):
        raise TypeError(f"debug(fn, *args) needs a callable first; got {type(fn).__name__}")
    try:
        return fn(*args, **kwargs)
    except Exception as exc:
        try:
            rerun_eagerly(fn, args, kwargs, exc)
        except bdb.BdbQuit:
            pass
        except Exception:  # noqa: BLE001 - the user's error matters, not ours
            log.debug("tfdebug: debug() re-run failed", exc_info=True)
        raise


def post_mortem_uncaught(exc: BaseException) -> None:
    """``tfdebug run --pdb``: debug the script's uncaught error at the offending user line.

    When it came from a tf.function call, that call is re-run eagerly with the inputs it
    was given (taken from the traceback); otherwise pdb opens on the original traceback.
    """
    try:
        call = _tf.failed_function_call(exc)
        if call is not None:
            function, args, kwargs = call
            rerun_eagerly(function, args, kwargs, exc)
        else:
            _say(f"{_describe(exc)}; opening the debugger at the innermost user frame")
            _post_mortem(exc.__traceback__, exc, blamed_line(exc))
    except bdb.BdbQuit:
        pass
    except Exception:  # noqa: BLE001
        log.debug("tfdebug: --pdb failed", exc_info=True)


def rerun_eagerly(fn, args, kwargs, original: BaseException) -> None:
    """Re-run ``fn(*args, **kwargs)`` eagerly and open pdb at the line the diagnosis of
    ``original`` blames (the one ``tfdebug run``, ``install()`` and notebooks print)."""
    from .modes import eager

    name = getattr(fn, "__name__", None) or getattr(fn, "name", repr(fn))
    blamed = blamed_line(original)
    _say(f"{name}() raised {_describe(original)}; re-running the same call eagerly "
         f"with the same inputs")
    try:
        with eager():
            fn(*args, **kwargs)
    except bdb.BdbQuit:
        raise
    except Exception as eager_exc:  # noqa: BLE001 - the error we debug
        at = _at(blamed) if blamed and _on_stack(eager_exc.__traceback__, blamed) else \
            "the innermost user frame"
        _say(f"the eager re-run raised {_describe(eager_exc)}; post-mortem at {at}")
        _post_mortem(eager_exc.__traceback__, eager_exc, blamed)
        return
    if blamed is None:
        _say("the eager re-run passed and the error names no user line; post-mortem on "
             "the original traceback")
        _post_mortem(original.__traceback__, original)
        return
    filename, lineno, _ = blamed
    _say(f"the call fails only as a graph; the eager re-run passed. Stopping at "
         f"{_at(blamed)}, the line the diagnosis blames, with the values of this call")
    if not _run_to_line(fn, args, kwargs, filename, lineno):
        _say(f"line {lineno} was not reached eagerly; post-mortem on the original traceback")
        _post_mortem(original.__traceback__, original)


def blamed_line(exc: BaseException):
    """(file, line, function) of the user line the diagnosis of ``exc`` blames; without a
    diagnosis, the first user line the graph error names; else None.

    This is the one answer every debugger front end stops at (``debug()``, ``tfdebug run
    --pdb``, ``%tfdebug rerun``), the line the printed diagnosis shows.
    """
    from .diagnosis import diagnose

    found = diagnose(exc)
    if found is not None and found.file and found.line and _frames.is_user_file(found.file):
        return found.file, found.line, found.function or ""
    locations = _tf.graph_error_locations(exc)
    return tuple(locations[0]) if locations else None


def _at(blamed) -> str:
    from .render import display_path

    filename, lineno, function = blamed
    return f"{display_path(filename)}:{lineno}" + (f" in {function}" if function else "")


def _on_stack(tb, blamed) -> bool:
    return any(_is_at(frame, line, blamed) for frame, line in _tb_entries(tb))


def _tb_entries(tb):
    while tb is not None:
        yield tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next


def _is_at(frame, lineno: int, blamed) -> bool:
    filename, line, _ = blamed
    return lineno == line and os.path.abspath(frame.f_code.co_filename) == os.path.abspath(filename)


class _UserPdb(pdb.Pdb):
    """pdb that opens post-mortem on the blamed line's frame when it is on the stack, else
    on the innermost user frame, never in TF or tfdebug."""

    blamed = None

    def setup(self, f, tb):
        result = super().setup(f, tb)
        user = [i for i in range(len(self.stack)) if _frames.is_user_frame(self.stack[i][0])]
        chosen = [i for i in user if self.blamed and _is_at(*self.stack[i], self.blamed)]
        if chosen or user:
            index = (chosen or user)[-1]
            self.curindex = index
            self.curframe = self.stack[index][0]
            self.curframe_locals = self.curframe.f_locals
        return result


def _post_mortem(tb, exc, blamed=None) -> None:
    if tb is None:
        return
    debugger = _UserPdb()
    debugger.blamed = blamed
    debugger.reset()
    debugger.interaction(None, tb)


def _run_to_line(fn, args, kwargs, filename: str, lineno: int) -> bool:
    """Run ``fn`` eagerly under pdb with one temporary breakpoint; True if it stopped."""
    from .modes import eager

    debugger = _UserPdb()
    error = debugger.set_break(filename, lineno, temporary=True)
    if error:
        log.debug("tfdebug: cannot break at %s:%s: %s", filename, lineno, error)
        return False
    stopped = {"hit": False}
    user_line = debugger.user_line

    def on_line(frame):
        stopped["hit"] = True
        return user_line(frame)

    debugger.user_line = on_line
    debugger.reset()
    # Stop only at the breakpoint: pretend we are "continuing" from this frame.
    debugger.botframe = sys._getframe()
    debugger._set_stopinfo(debugger.botframe, None, -1)
    try:
        with eager():
            sys.settrace(debugger.trace_dispatch)
            try:
                fn(*args, **kwargs)
            finally:
                sys.settrace(None)
    except bdb.BdbQuit:
        pass
    except Exception:  # noqa: BLE001 - it passed before; a second run may differ
        log.debug("tfdebug: second eager re-run failed", exc_info=True)
    finally:
        debugger.clear_all_breaks()
    return stopped["hit"]


def _describe(exc: BaseException) -> str:
    """``Class: first line``; for AutoGraph's rewritten errors, the line naming the class."""
    name = type(exc).__name__
    try:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    except Exception:  # noqa: BLE001 - a broken __str__ still gets a description
        lines = []
    tagged = [line[len(name) + 1:].strip() for line in lines if line.startswith(name + ":")]
    text = tagged[-1] if tagged else (lines[0] if lines else "")
    return f"{name}: {text[:200]}" if text else name


def _say(message: str) -> None:
    sys.stderr.flush()
    print(f"tfdebug.debug: {message}", file=sys.stdout, flush=True)
