"""Stale captures: Python values a graph froze at trace time that changed afterwards.

A tf.function reads globals, closure cells and attributes of Python objects while it is
traced, and the graph keeps the values it saw. Nothing is observed per call: at trace time
the function's bytecode says which names and ``self.attr`` / ``module.attr`` chains it reads
(following the user's own helper functions and methods it calls), and a small fingerprint
of each value is kept. Comparing fingerprints later (at the next retrace, at scope exit)
finds values that changed while the graph still holds the old one.
"""
from __future__ import annotations

import ast
import collections
import dataclasses
import dis
import functools
import inspect
import reprlib
import sys
import types
import weakref

import numpy as np
import tensorflow as tf

from . import _frames, _tf

MAX_DEPTH = 3           # helper calls followed from the traced function
MAX_ITEMS = 64          # lists/dicts larger than this are not fingerprinted
MAX_ARRAY = 1 << 20     # NumPy arrays larger than this are compared by identity
_MISSING = object()

_short = reprlib.Repr()
_short.maxstring, _short.maxother, _short.maxlist, _short.maxtuple = 40, 40, 6, 6


@dataclasses.dataclass(frozen=True)
class Read:
    """A Python value a traced function read: where, and how to read it again."""

    label: str          # "THRESHOLD", "scale", "self.counter", "config.LR"
    kind: str           # "global" | "closure" | "attribute" | "trainable" (a layer's flags)
    file: str
    line: int
    function: str       # the function whose line reads it
    getter: object = dataclasses.field(compare=False, repr=False)

    @property
    def key(self) -> tuple:
        return (self.label, self.file, self.line)


@dataclasses.dataclass(frozen=True)
class Snapshot:
    read: Read
    fingerprint: object
    shown: str


def fingerprint(value, depth: int = 0):
    """A comparable digest of ``value``, or None for values not worth tracking."""
    if depth > 3:
        return None
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return (type(value).__name__, value)
    if isinstance(value, (float, complex)):
        return (type(value).__name__, repr(value))
    if isinstance(value, np.generic):
        return ("np", value.dtype.str, repr(value.item()))
    if isinstance(value, np.ndarray):
        if value.size > MAX_ARRAY or value.dtype == object:
            return ("ndarray-id", id(value), value.shape)
        return ("ndarray", value.shape, value.dtype.str, hash(value.tobytes()))
    if isinstance(value, (tuple, list)) and len(value) <= MAX_ITEMS:
        items = tuple(fingerprint(v, depth + 1) for v in value)
        return None if items and all(i is None for i in items) else (type(value).__name__, items)
    if isinstance(value, dict) and len(value) <= MAX_ITEMS:
        items = tuple((repr(k), fingerprint(v, depth + 1)) for k, v in value.items())
        return None if items and all(i[1] is None for i in items) else ("dict", items)
    if isinstance(value, tf.Variable) or tf.is_tensor(value):
        return ("tensor-id", id(value))  # the graph captured this very object
    if _graph_object(value):
        return ("object-id", id(value))  # ... and this object's variables and ops
    return None


def _graph_object(value) -> bool:
    """A model, layer, optimizer, metric or tf.Module: a trace captures its variables, so
    the graph keeps using this very object after the name that held it is rebound."""
    from ._effects.objects import is_trackable

    return is_trackable(value) and not isinstance(value, tf.Variable) \
        and not (hasattr(value, "python_function") and hasattr(value, "get_concrete_function"))


def show(value) -> str:
    if isinstance(value, np.ndarray):
        return f"array{value.shape} {_short.repr(value.tolist()) if value.size <= 8 else value.dtype}"
    if tf.is_tensor(value) or isinstance(value, tf.Variable) or _graph_object(value):
        return f"{type(value).__name__} at {id(value):#x}"
    return _short.repr(value)


# -- what a function reads ------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Load:
    base: str          # "global" | "closure" | "self"
    name: str
    attrs: tuple
    line: int
    sized: bool = False  # the argument of ``len()``: its length is what the graph keeps


# The opcodes ``_plan`` reads, and how CPython 3.11 encodes their argument: an index into
# co_names (LOAD_GLOBAL's shifted by one bit), or a slot of the frame's locals, cells and
# free variables (``code._varname_from_oparg``).
_NAMED = {"LOAD_ATTR": 0, "LOAD_METHOD": 0, "STORE_ATTR": 0, "STORE_GLOBAL": 0,
          "LOAD_GLOBAL": 1}
_SLOTS = ("LOAD_FAST", "LOAD_DEREF", "LOAD_CLASSDEREF")
_FAST_DECODE = sys.version_info[:2] == (3, 11) and dis.opmap.get("CACHE") == 0


def instructions_of(code: types.CodeType) -> list[tuple[str, object, int | None]]:
    """``(opname, argval, line)`` of each instruction of ``code``, as ``dis.get_instructions``
    gives them (no inline caches; ``argval`` only for the opcodes ``_plan`` reads).

    On CPython 3.11 the bytecode is decoded here, a tenth of ``dis``'s time (which also
    renders every argument as text): a function's first trace reads its whole bytecode.
    Other versions, and any code this cannot decode, go through ``dis``."""
    if _FAST_DECODE and hasattr(code, "_varname_from_oparg"):
        try:
            return _decode_311(code)
        except Exception:  # noqa: BLE001 - dis knows every version's encoding
            pass
    return [(ins.opname, ins.argval, ins.positions.lineno if ins.positions else None)
            for ins in dis.get_instructions(code)]


def _decode_311(code: types.CodeType) -> list[tuple[str, object, int | None]]:
    raw, names, opname = code.co_code, code.co_names, dis.opname
    lines = [None] * (len(raw) // 2)
    for start, end, line in code.co_lines():
        lines[start // 2:end // 2] = [line] * ((end - start) // 2)
    slot_name = code._varname_from_oparg
    have_argument, extended = dis.HAVE_ARGUMENT, dis.EXTENDED_ARG
    found, extended_arg = [], 0
    for offset in range(0, len(raw), 2):
        op = raw[offset]
        if op == 0:  # CACHE: an inline cache entry, not an instruction
            continue
        if op >= have_argument:
            arg = raw[offset + 1] | extended_arg
            extended_arg = (arg << 8) if op == extended else 0
        else:
            arg, extended_arg = None, 0
        name = opname[op]
        shift = _NAMED.get(name)
        if shift is not None:
            argval = names[arg >> shift]
        elif name in _SLOTS:
            argval = slot_name(arg)
        else:
            argval = None
        found.append((name, argval, lines[offset // 2]))
    return found


@functools.lru_cache(maxsize=512)
def _plan(code: types.CodeType) -> tuple[tuple[_Load, ...], frozenset, frozenset]:
    """(loads, globals stored, self attributes stored) from one code object's bytecode."""
    self_name = code.co_varnames[0] if code.co_argcount else None
    instructions = instructions_of(code)
    loads, stored_globals, stored_attrs = [], set(), set()
    line = code.co_firstlineno
    for i, (op, argval, lineno) in enumerate(instructions):
        if lineno:
            line = lineno
        if op == "STORE_GLOBAL":
            stored_globals.add(argval)
        elif op == "STORE_ATTR" and i and instructions[i - 1][0] == "LOAD_FAST" \
                and instructions[i - 1][1] == self_name:
            stored_attrs.add(argval)
        base = None
        if op == "LOAD_GLOBAL":
            base = "global"
        elif op in ("LOAD_DEREF", "LOAD_CLASSDEREF") and argval in code.co_freevars:
            base = "closure"
        elif op == "LOAD_FAST" and self_name and argval == self_name:
            base = "self"
        if base is None:
            continue
        attrs, after = [], i + 1
        while after < len(instructions) and instructions[after][0] in ("LOAD_ATTR", "LOAD_METHOD"):
            attrs.append(instructions[after][1])
            after += 1
        if base == "self" and not attrs:
            continue
        # ``len(x)``: the builtin's load just before, the call right after (one argument)
        sized = i > 0 and instructions[i - 1][:2] == ("LOAD_GLOBAL", "len") \
            and after < len(instructions) and instructions[after][0] in ("PRECALL", "CALL")
        loads.append(_Load(base, argval, tuple(attrs), line, sized))
    for const in code.co_consts:   # comprehensions and lambdas read globals too
        if isinstance(const, types.CodeType):
            inner, inner_globals, _ = _plan(const)
            loads.extend(ld for ld in inner if ld.base == "global")
            stored_globals |= inner_globals
    return tuple(loads), frozenset(stored_globals), frozenset(stored_attrs)


def _static_get(obj, attr):
    """``obj.attr`` without running properties or ``__getattr__`` (reading has no effects)."""
    instance_dict = getattr(obj, "__dict__", None)
    if isinstance(instance_dict, dict) and attr in instance_dict:
        return instance_dict[attr]
    try:
        found = inspect.getattr_static(obj, attr)
    except AttributeError:
        return _MISSING
    if isinstance(found, (types.FunctionType, staticmethod, classmethod)):
        return getattr(obj, attr)  # a method: bound, so its ``self`` is known
    if hasattr(type(found), "__get__"):
        return _MISSING            # a property or another descriptor: not a plain value
    return found


def _follow(value, attrs):
    for attr in attrs:
        if value is _MISSING:
            return _MISSING
        value = _static_get(value, attr)
    return value


def _root_getter(load: _Load, fn, instance):
    if load.base == "global":
        namespace = fn.__globals__
        return lambda: namespace.get(load.name, _MISSING)
    if load.base == "closure":
        cell = fn.__closure__[fn.__code__.co_freevars.index(load.name)]

        def read_cell():
            try:
                return cell.cell_contents
            except ValueError:
                return _MISSING
        return read_cell
    try:
        ref = weakref.ref(instance)
        return lambda: (lambda obj: _MISSING if obj is None else obj)(ref())
    except TypeError:
        return lambda: instance


def _is_user_code(fn) -> bool:
    code = getattr(fn, "__code__", None)
    return code is not None and _frames.is_user_file(code.co_filename)


def reads(fn, instance=None) -> list[Read]:
    """The trackable Python values ``fn`` (bound to ``instance``) reads, at their lines.

    When ``fn`` is library code (Keras' train function), the user's own methods it runs
    (a layer's ``call``, a model's ``train_step``) are read instead.
    """
    found: dict[tuple, Read] = {}
    seen: set = set()
    if _is_user_code(fn):
        _collect(fn, instance, 0, seen, found)
    else:
        from ._effects import user_entry_points
        for user_fn, bound in user_entry_points(fn, instance):
            _collect(user_fn, bound, 1, seen, found)
    return list(found.values())


def _collect(fn, instance, depth, seen, found) -> None:
    if not _is_user_code(fn) or depth > MAX_DEPTH:
        return
    code = fn.__code__
    if (code, id(instance)) in seen:
        return
    seen.add((code, id(instance)))
    loads, stored_globals, stored_attrs = _plan(code)
    namespace = getattr(fn, "__globals__", None) or {}
    library_globals: dict[str, bool] = {}  # per global name: a library module (tf, np)?
    for load in loads:
        if load.base == "global":
            if load.name in stored_globals:
                continue
            library = library_globals.get(load.name)
            if library is None:
                value = namespace.get(load.name, _MISSING)
                library = library_globals[load.name] = isinstance(value, types.ModuleType) \
                    and not _frames.is_user_file(getattr(value, "__file__", None))
            if library:
                continue       # tf.float32, np.pi: library constants do not go stale
        if load.base == "self" and (instance is None or load.attrs[0] in stored_attrs):
            continue
        if load.base != "self" and _only_written(code.co_filename, load):
            continue  # `counts[0] += 1`: Python changes the container; the graph reads nothing
        try:
            root = _root_getter(load, fn, instance)
            value = root()
            if isinstance(value, types.ModuleType) and not _frames.is_user_file(
                    getattr(value, "__file__", None)):
                continue       # tf.float32, np.pi: library constants do not go stale
            if load.attrs and load.attrs[-1] in TRAINABLE_LISTS:
                _trainable_read(load, root, code, found)
                continue
            value = _follow(value, load.attrs)
        except Exception:  # noqa: BLE001 - an odd object is simply not tracked
            continue
        if value is _MISSING:
            continue
        if isinstance(value, types.MethodType):
            if not _is_user_code(value.__func__) and load.attrs and _graph_object(value.__self__):
                # `optimizer.apply_gradients(...)`: the object the method is bound to; a
                # learning rate it calls while traced is the user's code run by the trace
                if load.attrs[-1] in _tf.RATE_READERS:
                    _collect_callable(_tf.rate_callable(value.__self__), depth + 1, seen, found)
                load = dataclasses.replace(load, attrs=load.attrs[:-1])
                value = value.__self__
            else:
                _collect(value.__func__, value.__self__, depth + 1, seen, found)
                continue
        if isinstance(value, types.FunctionType):
            _collect(value, None, depth + 1, seen, found)
            continue
        label = ".".join(("self" if load.base == "self" else load.name, *load.attrs))
        getter = functools.partial(_reread, root, load.attrs)
        if load.sized:
            # ``len(self.memory)`` becomes a Python int in the graph: its length is the
            # captured value, however large the container (its items are not fingerprinted)
            if not isinstance(value, SIZED):
                continue
            label, getter = f"len({label})", functools.partial(_reread_len, root, load.attrs)
        elif fingerprint(value) is None:
            continue
        kind = "attribute" if load.attrs else load.base
        read = Read(label, kind, code.co_filename, load.line, code.co_qualname, getter)
        found.setdefault(read.key, read)


# A Keras layer's properties that list its variables by their ``trainable`` flags: a trace
# that reads one keeps that list in its graph (``apply_gradients`` on the variables it held).
TRAINABLE_LISTS = frozenset({"trainable_variables", "trainable_weights",
                             "non_trainable_variables", "non_trainable_weights"})


def _trainable_read(load: _Load, root, code, found) -> None:
    """``disc.trainable_variables`` read while tracing: the graph keeps the variables that
    the ``trainable`` flags of ``disc`` and its sublayers selected then; those flags are the
    value read (a Keras layer's, read without running its properties)."""
    owner = functools.partial(_reread, root, load.attrs[:-1])
    if _trainable_state(owner()) is _MISSING:
        return
    label = ".".join(("self" if load.base == "self" else load.name, *load.attrs[:-1], "trainable"))
    read = Read(label, "trainable", code.co_filename, load.line, code.co_qualname,
                lambda: _trainable_state(owner()))
    found.setdefault(read.key, read)


class _Flags(tuple):
    """``((layer name, trainable), ...)``, shown as the flag when all agree."""

    def __repr__(self) -> str:
        values = {flag for _name, flag in self}
        return str(values.pop()) if len(values) == 1 else \
            ", ".join(f"{name}={flag}" for name, flag in self)


def _trainable_state(layer):
    """The ``trainable`` flags of a Keras layer and its sublayers (``_Flags``), else _MISSING."""
    from ._effects.objects import is_layer

    flags = _tf.trainable_flags(layer) if is_layer(layer) else {}
    return _Flags((name, flag) for _ref, name, flag in flags.values()) if flags else _MISSING


def _only_written(filename: str, load: _Load) -> bool:
    """The statement at the load's line uses the name only as the container its targets
    write into (``counts[0] += 1``, ``cache[key] = v``): no value of it reaches the graph
    there (the side-effect guard reports the write)."""
    from ._source import module_tree, statement_at

    tree = module_tree(filename)
    stmt = statement_at(tree, load.line) if tree is not None else None
    if isinstance(stmt, ast.AugAssign):
        targets, value = [stmt.target], stmt.value
    elif isinstance(stmt, ast.Assign):
        targets, value = stmt.targets, stmt.value
    else:
        return False

    def root(node):
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    written = any(isinstance(t, (ast.Subscript, ast.Attribute)) and root(t) == load.name for t in targets)
    read = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} | {
        n.id for t in targets if isinstance(t, ast.Subscript) for n in ast.walk(t.slice)
        if isinstance(n, ast.Name)}
    return written and load.name not in read


def _collect_callable(value, depth, seen, found) -> None:
    """A callable the library calls during the trace, read as the user's code it runs."""
    from ._effects.objects import callable_entry

    entry = callable_entry(value)
    if entry is not None:
        _collect(entry[0], entry[1], depth, seen, found)


def _reread(root, attrs):
    return _follow(root(), attrs)


def _reread_len(root, attrs):
    value = _follow(root(), attrs)
    return len(value) if isinstance(value, SIZED) else _MISSING


# the containers whose ``len()`` a trace turns into a constant (a tensor's is the graph's own)
SIZED = (list, tuple, dict, set, frozenset, collections.deque, str, bytes, bytearray, range)


def snapshot(read_list) -> dict[tuple, Snapshot]:
    """Fingerprints of the values ``read_list`` names, as they are now."""
    out = {}
    for read in read_list:
        try:
            value = read.getter()
            fp = fingerprint(value) if value is not _MISSING else None
        except Exception:  # noqa: BLE001
            continue
        if fp is not None:
            out[read.key] = Snapshot(read, fp, show(value))
    return out


def changed(snap: Snapshot) -> str | None:
    """The value's new text when it no longer matches ``snap``; None when unchanged."""
    try:
        value = snap.read.getter()
    except Exception:  # noqa: BLE001
        return None
    if value is _MISSING:
        return None
    fp = fingerprint(value)
    if fp is None or fp == snap.fingerprint:
        return None
    return show(value)
