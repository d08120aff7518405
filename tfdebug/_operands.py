"""The static shapes of the operands at the user's line, read from its frame after a failure.

TensorFlow's message lists shapes (``[?,3]``), but which ``?`` is the cause it does not say.
The user's frame (kept by the traceback) still holds the operands: for every tensor the
line names and every ``x.shape`` / ``x.shape[i]`` it reads, the static shape TensorFlow saw
while tracing. Only names and attribute chains are resolved, never called: an attribute is
read from an object's ``__dict__`` (no user property runs), and ``.shape`` only on
TensorFlow's and Keras' own tensor classes.

Example::

    frame = user_frame(exc, location.file, location.line)
    for text, value in line_shapes(frame, location.file, location.line):
        print(text, value)          # "x.shape[1]" None, "x" TensorShape([None, None])
"""
from __future__ import annotations

import ast
import inspect
import types

from . import _tf
from ._extract import chain_of, is_user, tb_frames
from ._source import enclosing_function, line_nodes, module_tree, statement_at

_MISSING = object()
_TENSOR_MODULES = ("tensorflow.", "keras.", "tf_keras.")


def user_frame(exc: BaseException, file: str, line: int):
    """The innermost frame of ``exc``'s chain running ``file:line`` (a frame of AutoGraph's
    generated code counts when its source map leads there), else None."""
    for member in chain_of(exc):
        for frame, lineno in reversed(tb_frames(member)):
            filename = frame.f_code.co_filename
            if filename == file and lineno == line:
                return frame
            if _tf.is_generated_file(filename) and _tf.frame_origin(frame, lineno) == (file, line):
                return frame
    return None


def tensor_like(value) -> bool:
    module = getattr(type(value), "__module__", "") or ""
    return module.startswith(_TENSOR_MODULES) and hasattr(type(value), "shape") \
        and hasattr(value, "dtype")


def _static(value):
    """``value``'s static shape (a TensorShape or a tuple), or _MISSING."""
    if not tensor_like(value):
        return _MISSING
    try:
        return value.shape
    except Exception:  # noqa: BLE001 - a tensor whose shape cannot be read says nothing
        return _MISSING


def _resolve(node: ast.AST, frame):
    """The value of a name or attribute chain in ``frame``, without running user code."""
    if isinstance(node, ast.Name):
        for scope in (frame.f_locals, frame.f_globals):
            if node.id in scope:
                return scope[node.id]
        return _MISSING
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, frame)
        if base is _MISSING:
            return _MISSING
        if node.attr == "shape":
            return _static(base)
        try:
            value = inspect.getattr_static(base, node.attr)
        except AttributeError:
            return _MISSING
        return value if not hasattr(type(value), "__get__") or tensor_like(value) else _MISSING
    return _MISSING


def _nodes_at(frame, file: str, line: int) -> list[ast.AST]:
    """The expression nodes of the statement at ``file:line`` on that line ([] when its source
    or ``frame`` is missing: nothing can be read)."""
    tree = module_tree(file)
    stmt = statement_at(tree, line) if tree is not None and frame is not None else None
    return line_nodes(stmt, line) if stmt is not None else []


def named_values(frame, file: str, line: int) -> list:
    """The values of the plain names at ``file:line`` in ``frame`` (nothing is called)."""
    values = []
    for node in _nodes_at(frame, file, line):
        if isinstance(node, ast.Name):
            value = _resolve(node, frame)
            if value is not _MISSING and not any(value is v for v in values):
                values.append(value)
    return values


def called_values(exc: BaseException, location) -> list:
    """The objects the calls of the statement at ``location``'s line call (``tf.scan`` for
    ``tf.scan(...)``), read from the user's frame without calling anything."""
    frame = user_frame(exc, location.file, location.line)
    tree = module_tree(location.file) if frame is not None else None
    stmt = statement_at(tree, location.line) if tree is not None else None
    calls = [node for node in ast.walk(stmt) if isinstance(node, ast.Call)] if stmt is not None else []
    return [value for value in (_resolve_callee(node.func, frame) for node in calls) if value is not _MISSING]


def _resolve_callee(node: ast.AST, frame):
    """:func:`_resolve`, and a module's attribute (``tf.scan``: a function, which
    :func:`_resolve` leaves alone as a descriptor)."""
    if isinstance(node, ast.Attribute):
        base = _resolve_callee(node.value, frame)
        if isinstance(base, types.ModuleType):
            return getattr(base, node.attr, _MISSING)
    return _resolve(node, frame)


def pipeline_py_function(exc: BaseException, location) -> tuple[str, int, str] | None:
    """``(file, line, function)`` of the ``tf.py_function`` whose op lost the static shape of a
    tf.data Dataset named at ``location``'s line (read from the pipeline's graphs), else None."""
    frame = user_frame(exc, location.file, location.line) if location is not None else None
    if frame is None:
        return None
    for value in named_values(frame, location.file, location.line):
        found = _tf.shape_lost_in_pipeline(value, is_user, py_function_only=True)
        if found is not None:
            return found
    return None


def _formatted_operands(node: ast.AST) -> list[ast.AST]:
    """The values ``node`` formats into a Python string: an f-string's fields, the arguments
    of ``"...".format(...)``, ``"...".join(...)``, ``str(...)``, the right side of
    ``"..." % ...``; [] for anything else."""
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
    if isinstance(node, ast.Call):
        func = node.func
        literal = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant) \
            and isinstance(func.value.value, str) and func.attr in ("format", "join")
        if literal or (isinstance(func, ast.Name) and func.id in ("str", "repr")):
            return list(node.args) + [k.value for k in node.keywords]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        return list(node.right.elts) if isinstance(node.right, ast.Tuple) else [node.right]
    return []


def formats_graph_tensor(frame, file: str, line: int) -> bool:
    """True when the user's ``line`` formats into a Python string a value of which a name
    (or attribute chain) holds a graph tensor in ``frame``: the string holds that
    placeholder's text, not a value."""
    for node in _nodes_at(frame, file, line):
        for operand in _formatted_operands(node):
            for part in ast.walk(operand):
                if isinstance(part, (ast.Name, ast.Attribute)) and _tf.is_symbolic(_resolve(part, frame)):
                    return True
    return False


def formatted_before(frame, file: str, line: int, names) -> int | None:
    """The last line before ``line``, in the function running it, that formats into a
    Python string a graph tensor ``frame`` holds under one of ``names`` (the tensor names a
    message quotes, ``"value:0"``): the string the failing line used was made there."""
    tree = module_tree(file) if frame is not None and names else None
    function = enclosing_function(tree, line) if tree is not None else None
    if function is None:
        return None
    found = None
    for node in ast.walk(function):
        lineno = getattr(node, "lineno", None)
        if lineno is None or lineno >= line or (found is not None and lineno <= found):
            continue
        for operand in _formatted_operands(node):
            for part in ast.walk(operand):
                if isinstance(part, (ast.Name, ast.Attribute)):
                    value = _resolve_outward(part, frame)
                    if _tf.is_symbolic(value) and getattr(value, "name", None) in names:
                        found = lineno
    return found


def _resolve_outward(node: ast.AST, frame):
    """As :func:`_resolve`, in ``frame`` or the frames of the same file it runs in (a
    comprehension's frame inside its function)."""
    filename = frame.f_code.co_filename
    for _ in range(4):
        value = _resolve(node, frame)
        if value is not _MISSING or frame.f_back is None or frame.f_back.f_code.co_filename != filename:
            return value
        frame = frame.f_back
    return _MISSING


def searches_graph_tensor(frame, file: str, line: int) -> bool:
    """True when the user's ``line`` tests membership (``a in t``, ``a not in t``) in a
    value a name (or attribute chain) holds as a graph tensor in ``frame``: Python then
    iterates the tensor to search it."""
    for node in _nodes_at(frame, file, line):
        if isinstance(node, ast.Compare):
            for op, right in zip(node.ops, node.comparators):
                if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Name, ast.Attribute)) \
                        and _tf.is_symbolic(_resolve(right, frame)):
                    return True
    return False


_KERAS_ROOTS = ("keras", "tf_keras")


def _callee(node: ast.AST, frame):
    """The callable a call's ``func`` names in ``frame``: a name, or attributes read through
    modules (``tf.keras.initializers.HeNormal``: library code, as an import would run) or from
    an object's class or ``__dict__`` (no property runs); _MISSING for anything else."""
    if isinstance(node, ast.Name):
        for scope in (frame.f_locals, frame.f_globals, frame.f_builtins):
            if node.id in scope:
                return scope[node.id]
        return _MISSING
    if not isinstance(node, ast.Attribute):
        return _MISSING
    base = _callee(node.value, frame)
    if base is _MISSING:
        return _MISSING
    if isinstance(base, types.ModuleType):
        return getattr(base, node.attr, _MISSING)
    try:
        value = inspect.getattr_static(base, node.attr)
    except AttributeError:
        return _MISSING
    if isinstance(value, (staticmethod, classmethod)):
        return value.__func__
    return value if isinstance(value, types.FunctionType) or not hasattr(type(value), "__get__") else _MISSING


def _is_keras(value) -> bool:
    """A class, function or object of Keras' own package (a class of it among the MRO)."""
    if isinstance(value, types.FunctionType):
        return (getattr(value, "__module__", "") or "").split(".")[0] in _KERAS_ROOTS
    cls = value if isinstance(value, type) else type(value)
    return any((getattr(c, "__module__", "") or "").split(".")[0] in _KERAS_ROOTS for c in cls.__mro__)


def calls_keras(frame, file: str, line: int) -> bool:
    """True when a call at the user's ``line`` calls, in ``frame``, a Keras object: a class
    (a layer, an initializer), a function (a utility), a method of one, or an instance
    (``init(shape)``); ``keras.X`` and ``tf.keras.X`` alike."""
    for node in _nodes_at(frame, file, line):
        if isinstance(node, ast.Call) and (callee := _callee(node.func, frame)) is not _MISSING \
                and _is_keras(callee):
            return True
    return False


def per_replica_names(frame, file: str, line: int) -> set[str]:
    """Class names of the per-replica values (``tf.distribute.DistributedValues`` that are not
    variables: ``PerReplica``, ``Mirrored``) that names at the user's ``line`` hold in
    ``frame``: values of one strategy's replicas, used where one value is needed."""
    return {type(value).__name__ for node in _nodes_at(frame, file, line)
            if isinstance(node, (ast.Name, ast.Attribute))
            and _tf.is_per_replica(value := _resolve(node, frame))}


def _index(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _index(node.operand)
        return -inner if inner is not None else None
    return None


def dims(shape) -> list | None:
    """A static shape as a list of ints and Nones; None for an unknown rank."""
    if isinstance(shape, tuple):
        return list(shape)
    rank = getattr(shape, "rank", None)
    if rank is None:
        return None
    try:
        return list(shape.as_list())
    except Exception:  # noqa: BLE001
        return None


def line_shapes(frame, file: str, line: int) -> list[tuple[str, object]]:
    """(source text, static value) for each ``x.shape[i]`` (a dim: int or None), ``x.shape``
    and tensor named at ``file:line`` that ``frame`` can resolve."""
    nodes = _nodes_at(frame, file, line)
    # `x.shape[i]` is judged by that dim, `x.shape` by the shape: not by x's other dims.
    covered = {id(node.value) for node in nodes
               if isinstance(node, ast.Attribute) and node.attr == "shape"}
    covered |= {id(node.value) for node in nodes if isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Attribute) and node.value.attr == "shape"
                and _index(node.slice) is not None}
    out, seen = [], set()
    for node in nodes:
        if id(node) in covered:
            continue
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "shape" and _index(node.slice) is not None:
            shape = _resolve(node.value, frame)
            value = dims(shape) if shape is not _MISSING else _MISSING
            if value is _MISSING:
                continue
            index = _index(node.slice)
            if value is None or not -len(value) <= index < len(value):
                continue  # an unknown rank, or an index out of range: TensorFlow says so
            item = (ast.unparse(node), value[index])
        elif isinstance(node, (ast.Name, ast.Attribute)):
            value = _resolve(node, frame)
            if not (isinstance(node, ast.Attribute) and node.attr == "shape"):
                value = _static(value)  # a tensor named at the line: its shape
            if value is _MISSING:
                continue
            item = (ast.unparse(node), value)
        else:
            continue
        if item[0] not in seen:
            seen.add(item[0])
            out.append(item)
    return out


def shape_indexes_known(exc: BaseException, location) -> bool:
    """True when every ``x.shape[i]`` at ``location``'s line is a known int in the user's
    frame: a None TensorFlow refused there came from somewhere else."""
    tree = module_tree(location.file)
    stmt = statement_at(tree, location.line) if tree is not None else None
    if stmt is None:
        return False
    written = {ast.unparse(node) for node in line_nodes(stmt, location.line)
               if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
               and node.value.attr == "shape"}
    if not written:
        return False
    read = dict(line_shapes(user_frame(exc, location.file, location.line), location.file, location.line))
    return all(isinstance(read.get(text), int) for text in written)


def unknown_operands(exc: BaseException, location) -> tuple[str, ...]:
    """What the user's line holds of unknown static shape: ``("x: static shape (None,
    None), dimensions 0, 1 unknown",)``; empty when nothing there is unknown or readable."""
    frame = user_frame(exc, location.file, location.line)
    return tuple(describe(text, value) for text, value in line_shapes(frame, location.file, location.line)
                 if is_unknown(value))


def is_unknown(value) -> bool:
    """True for a dim that is None, or a shape of unknown rank or with a None dim."""
    if value is None:
        return True
    if isinstance(value, int):
        return False
    known = dims(value)
    return known is None or any(d is None for d in known)


def describe(text: str, value) -> str:
    """``x: static shape (None, 3), dimension 0 unknown`` and the like."""
    if value is None or isinstance(value, int):
        return f"{text} is {value} while tracing"
    known = dims(value)
    if known is None:
        return f"{text}: static shape of unknown rank"
    shape = "(" + ", ".join(str(d) for d in known) + ("," if len(known) == 1 else "") + ")"
    unknown = [str(i) for i, d in enumerate(known) if d is None]
    what = f", dimension{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} unknown" if unknown else ""
    return f"{text}: static shape {shape}{what}"


__all__ = ["describe", "dims", "is_unknown", "line_shapes", "shape_indexes_known", "unknown_operands",
           "user_frame"]
