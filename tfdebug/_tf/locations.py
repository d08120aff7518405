"""Where the user's code is: the line being traced, and the call and lines an error names."""
from __future__ import annotations

import os
import re
import sys

from .autograph import _GENERATED_MARKER, _autograph_source_map, is_generated_file
from .targets import is_tf_function
from .versions import log, version_supported


def _tf_stack_module():
    try:
        from tensorflow.python.util import tf_stack
    except ImportError:
        return None
    return tf_stack if callable(getattr(tf_stack, "extract_stack", None)) else None


def traced_user_location() -> tuple[str, int, str] | None:
    """(file, line, function) of the innermost user line being traced or run.

    The stack is walked from here up, frame by frame, until a user frame: while AutoGraph
    runs converted code, Python frames point into generated files, which are mapped back to
    the user's source with the source map TF's own stack extraction applies
    (``mapped_location``). When that walk fails, TF's ``tf_stack.extract_stack`` is asked.
    """
    from .. import _frames

    try:
        return _walk_to_user(sys._getframe(1), _frames.user_file_test())
    except Exception:  # noqa: BLE001 - TF's own stack extraction, then plain frames
        log.debug("tfdebug: walking the stack to the user's line failed", exc_info=True)
    tf_stack = _tf_stack_module()
    if tf_stack is not None:
        try:
            for fs in reversed(tf_stack.extract_stack()):
                if _frames.is_user_file(fs.filename):
                    return fs.filename, fs.lineno, fs.name
        except Exception:  # noqa: BLE001 - fall back to plain frames
            log.debug("tfdebug: tf_stack.extract_stack failed", exc_info=True)
    frame = _frames.user_caller(skip=1)
    if frame is None:
        return None
    return frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name


_NOTHING_KNOWN: dict = {}


def _walk_to_user(frame, is_user) -> tuple[str, int, str] | None:
    source_map = None
    known = getattr(is_user, "known", _NOTHING_KNOWN)  # answers given before: no call per frame
    while frame is not None:
        code = frame.f_code
        filename = code.co_filename
        if _GENERATED_MARKER in filename:  # is_generated_file, without a call per frame
            if source_map is None:  # read once per walk, only when converted code runs
                source_map = _autograph_source_map()
            origin = source_map.get((filename, frame.f_lineno))
            if origin is not None and is_user(str(origin[0])):
                return str(origin[0]), int(origin[1]), str(origin[2])
        elif known.get(filename) is not False and is_user(filename):
            return filename, frame.f_lineno, code.co_name
        frame = frame.f_back
    return None


def failed_function_call(exc: BaseException):
    """``(tf_function, args, kwargs)`` of the outermost tf.function call in exc's traceback.

    Nothing is recorded per call: the traceback keeps the frames of the failed call alive,
    and the frame of ``Function.__call__`` (or TF's traceback-filtering wrapper around it,
    which survives filtering) holds the function and the very inputs it was called with.
    Returns None when the error did not come through a tf.function call.
    """
    tb = exc.__traceback__
    while tb is not None:
        found = _call_in_frame(tb.tb_frame)
        if found is not None:
            return found
        tb = tb.tb_next
    return None


def _call_in_frame(frame):
    code = frame.f_code
    if os.sep + "tensorflow" + os.sep not in code.co_filename:
        return None
    try:
        local = frame.f_locals
    except Exception:  # noqa: BLE001
        return None
    if code.co_name == "__call__" and is_tf_function(local.get("self")):
        return local["self"], tuple(local.get("args", ())), dict(local.get("kwds", {}) or {})
    if code.co_name == "error_handler":
        args = local.get("args") or ()
        if args and is_tf_function(args[0]):
            return args[0], tuple(args[1:]), dict(local.get("kwargs", {}) or {})
    return None


_FILE_LINE = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def graph_error_locations(exc: BaseException) -> list[tuple[str, int, str]]:
    """User (file, line, function) that a graph-mode error names, innermost first.

    AutoGraph rewrites trace-time errors with the user's source lines ("in user code:"),
    and out-of-scope tensor errors carry the stack where the tensor was defined; both are
    in the message. The traceback's own user frames come last.
    """
    from .. import _frames

    found: list[tuple[str, int, str]] = []
    metadata = getattr(exc, "ag_error_metadata", None)
    for fs in reversed(list(getattr(metadata, "translated_stack", None) or [])):
        filename, lineno, name = getattr(fs, "filename", None), getattr(fs, "lineno", None), \
            getattr(fs, "function_name", getattr(fs, "name", ""))
        if _frames.is_user_file(filename) and lineno:
            found.append((filename, int(lineno), name))
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__ gives no locations
        message = ""
    for filename, lineno, name in reversed(_FILE_LINE.findall(message)):
        if _frames.is_user_file(filename) and name != "<module>":
            found.append((filename, int(lineno), name))
    tb, frames = exc.__traceback__, []
    while tb is not None:
        if _frames.is_user_frame(tb.tb_frame):
            frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno, tb.tb_frame.f_code.co_name))
        tb = tb.tb_next
    found.extend(reversed(frames))
    unique = []
    for item in found:
        if item not in unique:
            unique.append(item)
    return unique


def op_creation_stack(exc: BaseException) -> list[tuple[str, int, str]]:
    """(file, line, function) where the graph op that failed at run time was created.

    Graph-mode (Session, ``tf.compat.v1``) errors carry the failing ``op``, whose
    ``traceback`` is the stack that built it; innermost first. [] when there is none.
    """
    return _creation_stack(getattr(exc, "op", None))


def _creation_stack(op) -> list[tuple[str, int, str]]:
    try:
        stack = list(getattr(op, "traceback", None) or [])
    except Exception:  # noqa: BLE001 - an op from another layout gives no stack
        log.debug("tfdebug: cannot read the op traceback", exc_info=True)
        return []
    out = []
    for frame in reversed(stack[-500:]):
        filename, lineno = getattr(frame, "filename", None), getattr(frame, "lineno", None)
        if isinstance(filename, str) and isinstance(lineno, int):
            out.append((filename, lineno, str(getattr(frame, "name", "") or "")))
    return out


def op_user_site(op, is_user) -> tuple[str, int, str] | None:
    """(file, line, function) of the innermost user frame of the stack that made ``op``."""
    return next(((f, n, fn) for f, n, fn in _creation_stack(op) if is_user(f)), None)


# Raise sites whose frame holds the tensor they refused, by (file tail, function): the local
# naming it. A tf.while_loop body output whose shape or dtype differs from its input is made
# by an op of the body; that op's creation stack is the user line that changed it. A symbolic
# tensor's own methods refuse what needs a value (bool, iteration, len, NumPy, hash).
_REFUSED_TENSOR = {
    ("ops/while_v2.py", "_check_shapes_compat"): "t",
    ("ops/while_v2.py", "_check_inputs_outputs_types_match"): "out",
    **{("framework/tensor.py", name): "self" for name in
       ("__getattr__", "_disallow", "__iter__", "__hash__", "__array__", "__len__")},
}
# Ops TensorFlow adds around a value without changing it (while_v2 wraps body outputs).
_PASS_THROUGH_OPS = frozenset({"Identity", "IdentityN"})
# Frames that build a graph: a tf.function's call and trace, tf.data's function tracing,
# AutoGraph's converted code.
_TRACING_FILES = ("framework/func_graph.py", "polymorphic_function/polymorphic_function.py",
                  "polymorphic_function/tracing_compilation.py", "data/ops/structured_function.py")


def _file_tail(filename: str) -> str:
    return "/".join(filename.replace(os.sep, "/").rsplit("/", 2)[-2:])


# Tensor methods (framework/tensor.py) that refuse only a graph tensor (read from its source:
# eager tensors override __array__ and __len__; _disallow serves the bool and iteration
# refusals of graph tensors), and the modules of TensorFlow's cond builders, whose branch
# checks are bare asserts ("AssertionError: [2, 1]").
_GRAPH_TENSOR_REFUSALS = frozenset({"__array__", "__len__", "_disallow"})
_COND_BUILDERS = frozenset({"tensorflow.python.ops.cond", "tensorflow.python.ops.cond_v2",
                            "tensorflow.python.ops.control_flow_switch_case"})


def refuses_only_graph_tensors(filename: str, function: str) -> bool:
    """True for a frame (file, function) of a Tensor method that refuses only graph tensors."""
    return _file_tail(filename) == "framework/tensor.py" and function in _GRAPH_TENSOR_REFUSALS


def is_cond_builder(callee) -> bool:
    """True for tf.cond / tf.switch_case (their module, read from the callable)."""
    return getattr(callee, "__module__", None) in _COND_BUILDERS


def _refused_tensor(chain):
    """The tensor the innermost raise site of ``chain`` refused, or None."""
    for exc in chain:
        tb = getattr(exc, "__traceback__", None)
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is None:
            continue
        code = tb.tb_frame.f_code
        local = _REFUSED_TENSOR.get((_file_tail(code.co_filename), code.co_name))
        if local is not None:
            return tb.tb_frame.f_locals.get(local)
    return None


def handle_refused_by_invariant(chain) -> bool:
    """while_v2 refused a loop variable that is a handle (the flow of a TensorArray or a
    TensorList: a ``variant`` scalar on every iteration) against a shape invariant of another
    rank, so the invariant declared for it is wrong, not the loop body.
    ``_check_shapes_compat`` (ops/while_v2.py, TF 2.16-2.21) holds them as ``t`` and ``shape``."""
    for exc in chain if version_supported() else ():
        tb = getattr(exc, "__traceback__", None)
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        code = tb.tb_frame.f_code if tb is not None else None
        if code is None or (_file_tail(code.co_filename), code.co_name) != \
                ("ops/while_v2.py", "_check_shapes_compat"):
            continue
        local = tb.tb_frame.f_locals
        dtype = getattr(getattr(local.get("t"), "dtype", None), "name", None)
        rank = getattr(local.get("shape"), "rank", 0)
        return dtype == "variant" and rank != 0
    return False


def refused_tensor_origin(chain) -> list[tuple[str, int, str]]:
    """Where the tensor a raise site refused was made: (file, line, function), innermost first.

    ``chain`` is the exception and the ones it was raised from; the innermost frame of
    each is asked. [] when no raise site of ``_REFUSED_TENSOR`` holds a tensor.
    """
    op = getattr(_refused_tensor(chain), "op", None)
    for _ in range(20):
        inputs = list(getattr(op, "inputs", None) or []) if op is not None else []
        if getattr(op, "type", None) not in _PASS_THROUGH_OPS or not inputs:
            break
        op = inputs[0].op
    return _creation_stack(op) if op is not None else []


def _output_check_frame(chain):
    """The frame of ``convert`` (framework/func_graph.py), TensorFlow's check that a traced
    Python function's outputs are tensors, when it raised "must return zero or more Tensors";
    None when no such frame is in the traceback (another layout), or TensorFlow is outside
    2.16-2.21."""
    from .tracebacks import unfiltered_frames

    for exc in chain if version_supported() else ():
        for frame, _ in unfiltered_frames(exc):
            code = frame.f_code
            if code.co_name == "convert" and _file_tail(code.co_filename) == "framework/func_graph.py":
                return frame
    return None


def refused_return_value(chain):
    """The value a traced function returned that TensorFlow could not make a graph output
    (``convert`` holds it as ``x``), or None."""
    frame = _output_check_frame(chain)
    return frame.f_locals.get("x") if frame is not None else None


# AutoGraph's staged statements (autograph/operators/control_flow.py) trace their bodies as
# functions whose outputs are the variables the statement assigns: the branches of an ``if``
# on a tensor, the body of a ``while``/``for`` on one.
# cond_v2 traces AutoGraph's branch functions themselves; a while loop's body (AutoGraph's
# or the user's) is traced inside while_v2's wrapper.
_STAGED_BODIES = {("tensorflow.python.autograph.operators.control_flow", "_tf_if_stmt"): "if",
                  ("tensorflow.python.ops.while_v2", "while_loop"): "loop"}


def staged_statement_output(chain) -> str | None:
    """"if" / "loop" when the traced function whose output TensorFlow refused is the body of
    a staged ``if`` on a tensor (AutoGraph's tf.cond branches) or of a while loop (so the
    refused value is a variable that statement assigns), else None."""
    frame = _output_check_frame(chain)
    function = frame.f_locals.get("python_func") if frame is not None else None
    outer = str(getattr(function, "__qualname__", "")).split(".<locals>")[0]
    return _STAGED_BODIES.get((getattr(function, "__module__", None), outer))


# Where a trace starts (inputs become placeholders, then the Python function runs).
_TRACE_ENTRIES = frozenset({("framework/func_graph.py", "func_graph_from_py_func"),
                            ("polymorphic_function/tracing_compilation.py", "_create_concrete_function")})


def inside_trace(frames) -> bool:
    """Does one of ``frames`` start a trace (TensorFlow's tracing of a Python function)?"""
    return any((_file_tail(frame.f_code.co_filename), frame.f_code.co_name) in _TRACE_ENTRIES
               for frame, _ in frames)


def unlifted_variable_origins(chain) -> list[tuple[str, int, str]]:
    """Where the initial values of the variables a tf.function's first call could not lift
    were computed: (file, line, function), innermost first, the first variable's first.

    ``Function``'s first call (``_call``, ``get_concrete_function``'s variant, the lifting
    itself) keeps the ``(variable, initial value)`` pairs of its first trace in an
    ``initializers`` local when it refuses them (XLA cannot run the cond-guarded
    initialisation; tf.data's functions cannot lift a value computed from their inputs); each
    initial value is a graph tensor whose op's stack, up to the trace's entry, is the traced
    code that made it. [] when no such frame is in the traceback, or TensorFlow is outside
    2.16-2.21.
    """
    for exc in chain if version_supported() else ():
        tb = getattr(exc, "__traceback__", None)
        while tb is not None:
            code = tb.tb_frame.f_code
            pairs = tb.tb_frame.f_locals.get("initializers") \
                if _file_tail(code.co_filename).endswith("polymorphic_function.py") else None
            if isinstance(pairs, list):
                out = []
                for pair in pairs[:50]:
                    init = pair[1] if isinstance(pair, tuple) and len(pair) == 2 else None
                    try:
                        op = init.op
                    except Exception:  # noqa: BLE001 - an eager value or another layout: no stack
                        continue
                    for filename, lineno, name in _creation_stack(op):
                        if (_file_tail(filename), name) in _TRACE_ENTRIES:
                            break  # the frames beyond called the trace: not the traced code
                        out.append((filename, lineno, name))
                if out:
                    return out
            tb = tb.tb_next
    return []


def called_tf_functions(frames) -> list:
    """The tf.functions whose call the frames run: ``Function.__call__``/``_call`` frames of
    polymorphic_function.py hold the Function as ``self`` (TF 2.16-2.21; another layout:
    none found, no claim). TensorFlow's traceback filter keeps these frames."""
    found = []
    for frame, _ in frames:
        code = frame.f_code
        if code.co_name in ("__call__", "_call") and \
                _file_tail(code.co_filename) == "polymorphic_function/polymorphic_function.py":
            function = frame.f_locals.get("self")
            if is_tf_function(function) and all(function is not f for f in found):
                found.append(function)
    return found


def raised_running_graph(chain) -> bool:
    """Whether an op failed while a traced graph *ran* (an ``OpError`` whose traceback holds
    no frame of graph building: no tracing code, no AutoGraph-generated code), not while it
    was built."""
    try:
        from tensorflow.python.framework import errors
    except ImportError:  # another layout: no claim
        return False
    return bool(chain) and isinstance(chain[0], errors.OpError) and not _built_graph(chain)


def _built_graph(chain) -> bool:
    """A frame of graph building (tracing code, AutoGraph's generated code) is in the chain's
    tracebacks: the error was raised while a graph was built, not while one ran."""
    for exc in chain:
        tb = getattr(exc, "__traceback__", None)
        while tb is not None:
            filename = tb.tb_frame.f_code.co_filename
            if _file_tail(filename) in _TRACING_FILES or is_generated_file(filename):
                return True
            tb = tb.tb_next
    return False


def leaked_graph_tensor(chain) -> bool:
    """Whether the refused tensor is one of a tf.function's graph, used where no graph is
    being built: kept from an earlier trace (an attribute, a list) and used in eager code."""
    graph = getattr(_refused_tensor(chain), "graph", None)
    if not getattr(graph, "building_function", False):  # eager, or a plain tf.Graph (TF1 style)
        return False
    # A finished trace set its outputs; the graph of a trace that failed (the error raised
    # while tracing, its frames hidden by Keras' traceback filter) has none.
    if getattr(graph, "structured_outputs", None) is None and not getattr(graph, "outputs", None):
        return False
    if _built_graph(chain):
        return False
    return failed_function_call(chain[0]) is None if chain else False


# Raise sites, besides ``_REFUSED_TENSOR``'s, whose frame holds the graph tensor used where
# its graph is out of scope: an eager op given one (``quick_execute`` holds its ``inputs``),
# a function graph refusing one of a graph it does not enclose.
_OUT_OF_SCOPE_SITES = {("eager/execute.py", "quick_execute"): "inputs",
                       ("framework/func_graph.py", "_validate_in_scope"): "tensor"}


def _out_of_scope_tensor(chain):
    """The graph tensor of a function graph that the innermost raise site of ``chain`` was
    given out of scope, or None."""
    for exc in chain:
        tb = getattr(exc, "__traceback__", None)
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is None:
            continue
        code = tb.tb_frame.f_code
        local = _OUT_OF_SCOPE_SITES.get((_file_tail(code.co_filename), code.co_name))
        value = tb.tb_frame.f_locals.get(local) if local is not None else None
        for tensor in (value if isinstance(value, (list, tuple)) else [value])[:100]:
            if _function_graph_of(tensor) is not None:
                return tensor
    return None


def _function_graph_of(tensor):
    try:
        graph = tensor.graph  # an eager tensor raises: it has no graph
    except Exception:  # noqa: BLE001
        return None
    return graph if getattr(graph, "building_function", False) else None


def leaked_argument(chain):
    """``(graph, name, index, count)`` when the graph tensor an error refused out of its scope
    is the placeholder TensorFlow made for an argument of the traced function of ``graph``:
    ``name`` is the one TensorFlow gave it (``function_type.placeholder_arguments`` names it
    after the parameter, in its ``_user_specified_name`` attribute; tf.data's wrapper, which
    takes ``*args``, names them ``args_0``...), ``index`` its position among the ``count``
    argument placeholders. None for a tensor an op of the function made, a captured input,
    or when TensorFlow is outside 2.16-2.21."""
    if not version_supported():
        return None
    try:
        tensor = _refused_tensor(chain)
        if _function_graph_of(tensor) is None:
            tensor = _out_of_scope_tensor(chain)
        graph = _function_graph_of(tensor)
        if graph is None or tensor.op.type != "Placeholder":
            return None
        inputs = list(graph.inputs)
        captured = len(graph.internal_captures) + len(getattr(graph, "deferred_internal_captures", ()))
        arguments = inputs[:len(inputs) - captured]
        index = next((i for i, t in enumerate(arguments) if t is tensor), None)
        if index is None:
            return None  # a captured value's placeholder: made at the line that captured it
        name = tensor.op.get_attr("_user_specified_name")
    except Exception:  # noqa: BLE001 - another layout: no claim
        log.debug("tfdebug: reading the leaked input failed", exc_info=True)
        return None
    name = name.decode("utf-8", "replace") if isinstance(name, bytes) else name
    return graph, (name if isinstance(name, str) else ""), index, len(arguments)


_PYFUNC_TOKEN = re.compile(r"\bpyfunc_\d+\b")


def registered_py_function(message: str):
    """The Python function of the ``tf.py_function`` / ``tf.numpy_function`` op a message
    names by its token (``pyfunc_0``): TensorFlow's registry (``script_ops._py_funcs``) maps
    it while the op's graph lives. None when the message names none or it is gone."""
    found = _PYFUNC_TOKEN.search(message[-20_000:]) if isinstance(message, str) else None
    if found is None:
        return None
    try:
        from tensorflow.python.ops import script_ops
        function = script_ops._py_funcs.get(found.group(0))
    except Exception:  # noqa: BLE001 - another layout: no registry, no claim
        return None
    return getattr(function, "_func", function)  # py_function wraps it in an EagerFunc


def refused_argument(chain):
    """The argument value a tf.function could not make a trace type of: TensorFlow's
    ``from_value`` (core/function/trace_type/trace_type_builder.py) holds it when the
    exception passed through it (an object that looks like an array but is no tensor, such
    as a Keras 3 variable, read with ``__array__`` while tracing). None otherwise."""
    from .tracebacks import unfiltered_frames

    for exc in chain if version_supported() else ():
        found = None
        for frame, _ in unfiltered_frames(exc):
            code = frame.f_code
            if code.co_name == "from_value" and _file_tail(code.co_filename) == "trace_type/trace_type_builder.py":
                found = frame  # the innermost one: nested structures recurse
        if found is not None:
            return found.f_locals.get("value")
    return None


# A tf.data iterator's ``__next__`` (data/ops/iterator_ops.py, TF 2.16-2.21), which Python's
# builtin ``next`` calls, makes the get-next op in a graph; AutoGraph's call wrappers may sit
# between it and the user's line.
_ITERATOR_NEXT = ("ops/iterator_ops.py", "__next__")
_AUTOGRAPH_DIR = "/tensorflow/python/autograph/"


def iterator_next_past_end(chain, is_user) -> tuple[str, int, str] | None:
    """(file, line, function) of the user's line whose call of Python's ``next`` on a tf.data
    iterator made the op of a tf.function's graph that ran past the dataset's end (an
    ``OutOfRangeError`` at run time); None otherwise. The op is found by the node names
    TensorFlow's own parser reads from the error (``error_interpolation.parse_message``) in
    the graphs of the failed tf.function's traces (and the functions nested in them), and
    its creation stack (``op.traceback``) says who made it: every such op must agree."""
    found = set()
    for exc in chain if version_supported() else ():
        if not _out_of_range(exc):
            continue
        for op in _failed_ops(exc):
            stack = _creation_stack(op)
            user = next((i for i, (filename, _, _) in enumerate(stack) if is_user(filename)), None)
            callees = [(_file_tail(f), name) for f, _, name in stack[:user or 0]
                       if _AUTOGRAPH_DIR not in f.replace(os.sep, "/")]
            if user is None or not callees or callees[-1] != _ITERATOR_NEXT:
                return None
            found.add(stack[user])
    return found.pop() if len(found) == 1 else None


def _out_of_range(exc) -> bool:
    try:
        from tensorflow.python.framework import errors
        return isinstance(exc, errors.OutOfRangeError)
    except Exception:  # noqa: BLE001 - another layout: no claim
        return False


def _failed_ops(exc) -> list:
    """The ops a run-time error of a tf.function names: its ``op`` (graph-mode errors), else
    those of the node names in its message found in the graphs of the tf.function's traces."""
    if getattr(exc, "op", None) is not None:
        return [exc.op]
    call = failed_function_call(exc)
    try:
        from tensorflow.python.framework import error_interpolation
        _, _, nodes = error_interpolation.parse_message(str(getattr(exc, "message", "")))
        names = {tag.name for tag in nodes}
        graphs = [cf.graph for cf in call[0]._list_all_concrete_functions()] if call and names else []
    except Exception:  # noqa: BLE001 - another layout: no op, no claim
        log.debug("tfdebug: cannot read the failed function's graphs", exc_info=True)
        return []
    ops, seen = [], set()
    while graphs and len(seen) < 500:
        graph = graphs.pop()
        if graph is None or id(graph) in seen:
            continue
        seen.add(id(graph))
        for name in names:
            try:
                ops.append(graph.get_operation_by_name(name))
            except (KeyError, ValueError):
                pass
        functions = getattr(graph, "_functions", None)  # a loop body's, a branch's graph
        graphs.extend(getattr(f, "graph", None) for f in (functions.values() if isinstance(functions, dict) else ()))
    return ops
