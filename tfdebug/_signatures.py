"""Input signatures of traces: what each argument was, why two traces differ, how to stop it.

The trace hook gives TF's canonical function type; ``_tf.describe_trace_type`` turns each
argument's TraceType into plain tuples and this module turns those into small values that
print in the user's terms (``tensor float32 (32, 784)``, ``Python value 2``). ``diff``
explains a retrace argument by argument; ``suggest`` reads a whole trace history and writes
the fix (a ready-to-paste ``input_signature``, ``reduce_retracing=True``, tensors for
Python scalars). Reasons cite recipe ids; the recipes hold the prose.
"""
from __future__ import annotations

import dataclasses
import numbers
from typing import Any

from . import _tf

# Which recipe explains each kind of difference (recipes/TFD2nn.toml).
RECIPES = {
    "shape": "TFD200",
    "dtype": "TFD201",
    "value": "TFD202",
    "object": "TFD203",
    "new-function": "TFD204",
    "structure": "TFD205",
    "kwargs": "TFD206",
    "context": "TFD207",
}
VARIABLE_CREATION_RECIPE = "TFD208"


# -- one argument, described --------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Tensor:
    """A tensor argument: its static shape (None: unknown rank) and dtype name."""

    shape: tuple | None
    dtype: str
    replicas: str = ""   # "PerReplica x2" for a tf.distribute value whose replicas agree

    def __str__(self) -> str:
        text = f"tensor {self.dtype} {shape_text(self.shape)}"
        return f"{self.replicas} {text}" if self.replicas else text


@dataclasses.dataclass(frozen=True)
class Value:
    """A Python literal (int, float, bool, str, None, ...): every value is its own trace."""

    value: Any

    def __str__(self) -> str:
        if self.value is None:
            return "None"
        return f"Python {type(self.value).__name__} {self.value!r}"


@dataclasses.dataclass(frozen=True, eq=False)
class Object:
    """Any other Python object: TF keys the trace on the object's identity."""

    type_name: str
    ref: Any = None      # a weakref to the object, when it had one
    ident: int = 0

    def same(self, other: "Object") -> bool:
        if self.ref is not None and other.ref is not None:
            mine = self.ref()
            return mine is not None and mine is other.ref()
        return self.ident == other.ident

    def __str__(self) -> str:
        return f"a {self.type_name} object"


@dataclasses.dataclass(frozen=True)
class Nest:
    """A tuple, list, dict or namedtuple of arguments; ``items`` is ((key, item), ...)."""

    kind: str            # "tuple", "list", "dict" or the namedtuple's type name
    items: tuple

    def __str__(self) -> str:
        if self.kind == "dict":
            return f"dict with keys {_keys_text(k for k, _ in self.items)}"
        return f"{self.kind} of {len(self.items)}"


@dataclasses.dataclass(frozen=True)
class Spec:
    """A type TF describes by its own spec (ragged, sparse, iterators, per-replica values)."""

    text: str

    def __str__(self) -> str:
        return self.text


def shape_text(shape) -> str:
    if shape is None:
        return "<unknown rank>"
    dims = ", ".join("None" if d is None else str(d) for d in shape)
    return f"({dims},)" if len(shape) == 1 else f"({dims})"


def _keys_text(keys) -> str:
    return "{" + ", ".join(sorted(repr(k) for k in keys)) + "}"


def from_description(desc) -> Any:
    """Build the value for one ``_tf.describe_trace_type`` result."""
    tag = desc[0]
    if tag == "tensor":
        return Tensor(desc[1], desc[2])
    if tag == "value":
        return Value(desc[1])
    if tag == "object":
        return Object(desc[1], desc[2], desc[3])
    if tag in ("tuple", "list"):
        return Nest(tag, tuple((i, from_description(d)) for i, d in enumerate(desc[1])))
    if tag == "replicated":
        inner = from_description(desc[3])
        if isinstance(inner, Tensor):
            return Tensor(inner.shape, inner.dtype, f"{desc[1]} x{desc[2]}")
        return Spec(f"{desc[1]} x{desc[2]} {inner}")
    if tag == "namedtuple":
        return Nest(desc[1], tuple((k, from_description(d)) for k, d in desc[2]))
    if tag == "dict":
        return Nest("dict", tuple((k, from_description(d)) for k, d in desc[1]))
    return Spec(str(desc[1]))


def signature(parameters) -> tuple[tuple[str, Any], ...]:
    """((argument name, description), ...) from a trace's (name, TraceType) pairs."""
    return tuple((name, from_description(_tf.describe_trace_type(t))) for name, t in parameters)


def signature_text(sig) -> str:
    return ", ".join(f"{name}: {value}" for name, value in sig) or "(no arguments)"


# -- why two traces differ ----------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Reason:
    """One difference that made TensorFlow trace again, in the user's terms."""

    kind: str                 # a key of RECIPES
    argument: str | None      # "x", "batch[0]", "cfg['lr']" (None for the whole call)
    before: str | None
    after: str | None
    text: str                 # "x: shape (32, 784) -> (16, 784)"

    @property
    def recipe(self) -> str:
        return RECIPES[self.kind]

    def __str__(self) -> str:
        return self.text


def _reason(kind, path, before, after, text) -> Reason:
    return Reason(kind, path, before, after, f"{path}: {text}" if path else text)


def diff(old, new) -> list[Reason]:
    """Why signature ``new`` is not ``old``: one Reason per differing argument (or leaf)."""
    old_map, new_map = dict(old), dict(new)
    reasons = []
    if set(old_map) != set(new_map):
        before, after = _keys_text(old_map), _keys_text(new_map)
        reasons.append(Reason("kwargs", None, before, after,
                              f"a different set of arguments: {before} -> {after}"))
    for name, value in new:
        if name in old_map:
            reasons.extend(_diff(name, old_map[name], value))
    return reasons


def _diff(path: str, a, b) -> list[Reason]:
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        if a.replicas != b.replicas:
            return [_reason("structure", path, str(a), str(b), f"{a} -> {b}")]
        out = []
        if a.dtype != b.dtype:
            out.append(_reason("dtype", path, a.dtype, b.dtype, f"dtype {a.dtype} -> {b.dtype}"))
        if a.shape != b.shape:
            before, after = shape_text(a.shape), shape_text(b.shape)
            out.append(_reason("shape", path, before, after, f"shape {before} -> {after}"))
        return out
    if isinstance(a, Value) and isinstance(b, Value):
        if type(a.value) is type(b.value) and _same_value(a.value, b.value):
            return []
        before, after = _literal(a.value), _literal(b.value)
        return [_reason("value", path, before, after, f"Python value {before} -> {after}")]
    if isinstance(a, Object) and isinstance(b, Object):
        if a.same(b):
            return []
        what = (f"a new Python object ({b.type_name})" if a.type_name == b.type_name
                else f"a different Python object ({a.type_name} -> {b.type_name})")
        return [_reason("object", path, str(a), str(b), what)]
    if isinstance(a, Nest) and isinstance(b, Nest):
        if a.kind != b.kind or [k for k, _ in a.items] != [k for k, _ in b.items]:
            return [_reason("structure", path, str(a), str(b), f"structure {a} -> {b}")]
        out = []
        for (key, x), (_, y) in zip(a.items, b.items):
            out.extend(_diff(_child(path, a.kind, key), x, y))
        return out
    if isinstance(a, Spec) and isinstance(b, Spec):
        if a.text == b.text:
            return []
        return [_reason("shape", path, a.text, b.text, f"{a.text} -> {b.text}")]
    if {type(a), type(b)} == {Tensor, Value}:
        return [_reason("value", path, str(a), str(b), f"{a} -> {b}")]
    if isinstance(b, Object):
        return [_reason("object", path, str(a), str(b), f"{a} -> a new {b.type_name} object")]
    return [_reason("structure", path, str(a), str(b), f"{a} -> {b}")]


def _literal(value) -> str:
    """repr, with float noise rounded off: 0.24499999999999997 prints as 0.245."""
    if isinstance(value, float):
        return repr(float(f"{value:.12g}"))
    return repr(value)


def _same_value(x, y) -> bool:
    return x == y or (x != x and y != y)  # NaN matches NaN, as TF's Literal does


def _child(path: str, kind: str, key) -> str:
    if kind in ("tuple", "list", "dict"):
        return f"{path}[{key!r}]"
    return f"{path}.{key}"


def closest(previous: list, new, fewest: int = 0) -> tuple[Any, list[Reason]]:
    """The earlier signature closest to ``new`` (fewest differences; latest on ties).
    ``fewest``: the fewest differences any earlier signature can have (1 when none can equal
    ``new``): the latest one with that many is the answer, and the older ones are not read
    (a storm of one changing argument: one diff, not one per earlier signature)."""
    best, best_reasons = None, None
    for sig in reversed(previous):
        reasons = diff(sig, new)
        if best_reasons is None or len(reasons) < len(best_reasons):
            best, best_reasons = sig, reasons
            if len(reasons) <= fewest:
                break
    return best, best_reasons or []


# -- how to stop it --------------------------------------------------------------------

_CONSTANT = object()   # a Python value that never changed: input_signature cannot hold it


def _scalar_dtype(values) -> str | None:
    if all(isinstance(v, bool) for v in values):
        return "bool"
    if any(isinstance(v, bool) for v in values):
        return None
    if all(isinstance(v, numbers.Integral) for v in values):
        return "int32"
    if all(isinstance(v, numbers.Real) for v in values):
        return "float32"
    if all(isinstance(v, (str, bytes)) for v in values):
        return "string"
    return None


def _spec_code(shape, dtype: str) -> str:
    dims = "None" if shape is None else "[" + ", ".join("None" if d is None else str(d) for d in shape) + "]"
    return f"tf.TensorSpec(shape={dims}, dtype=tf.{dtype})"


def generalize(values: list):
    """The TensorSpec code that accepts every one of ``values`` (one argument's history).

    Returns _CONSTANT for a Python value that never changed, None when no single spec fits.
    """
    if all(isinstance(v, Value) for v in values):
        raw = [v.value for v in values]
        if all(type(r) is type(raw[0]) and _same_value(r, raw[0]) for r in raw):
            return _CONSTANT
        dtype = _scalar_dtype(raw)
        return None if dtype is None else _spec_code((), dtype)
    if any(isinstance(v, Tensor) and v.replicas for v in values):
        return None   # distributed values: an input_signature cannot describe them
    if all(isinstance(v, (Tensor, Value)) for v in values):
        tensors = [v if isinstance(v, Tensor) else None for v in values]
        scalars = [v.value for v in values if isinstance(v, Value)]
        dtypes = {t.dtype for t in tensors if t is not None}
        if len(dtypes) != 1 or (scalars and _scalar_dtype(scalars) is None):
            return None
        shapes = [t.shape if t is not None else () for t in tensors]
        return _spec_code(_common_shape(shapes), dtypes.pop())
    if all(isinstance(v, Nest) for v in values):
        first = values[0]
        keys = [k for k, _ in first.items]
        if any(v.kind != first.kind or [k for k, _ in v.items] != keys for v in values):
            return None
        if first.kind not in ("tuple", "list", "dict"):
            return None
        parts = []
        for i, key in enumerate(keys):
            part = generalize([v.items[i][1] for v in values])
            if part is None or part is _CONSTANT:
                return None
            parts.append(f"{key!r}: {part}" if first.kind == "dict" else part)
        body = ", ".join(parts)
        if first.kind == "dict":
            return "{" + body + "}"
        return f"({body},)" if first.kind == "tuple" and len(parts) == 1 else (
            f"({body})" if first.kind == "tuple" else f"[{body}]")
    return None


def _common_shape(shapes):
    if any(s is None for s in shapes) or len({len(s) for s in shapes}) != 1:
        return None
    return tuple(dims[0] if len(set(dims)) == 1 else None for dims in zip(*shapes))


@dataclasses.dataclass
class Suggestion:
    """The fix for one function's retraces."""

    input_signature: str | None = None   # "[tf.TensorSpec(shape=[None, 784], dtype=tf.float32)]"
    actions: list[str] = dataclasses.field(default_factory=list)

    def lines(self) -> list[str]:
        head = [f"@tf.function(input_signature={self.input_signature})"] if self.input_signature else []
        return head + self.actions

    def __str__(self) -> str:
        return "; ".join(self.lines())


def input_signature(signatures, defaults: dict | None = None) -> str | None:
    """A ready-to-paste ``input_signature`` list that accepts every signature, or None.

    Dimensions that varied become None; Python numbers that varied become scalar specs (TF
    converts them to tensors); trailing Python values that never changed and equal their
    default are left out. Anything a spec cannot express (dtypes that vary, objects,
    keyword-only sets that change) gives None.
    """
    if not signatures:
        return None
    names = [n for n, _ in signatures[-1]]
    if any([n for n, _ in sig] != names for sig in signatures):
        return None
    columns = [[dict(sig)[n] for sig in signatures] for n in names]
    specs = [generalize(col) for col in columns]
    defaults = defaults or {}
    while specs and specs[-1] is _CONSTANT:
        name, value = names[len(specs) - 1], columns[len(specs) - 1][0].value
        if name not in defaults or not _same_value(defaults[name], value):
            break
        specs.pop()
    for i, spec in enumerate(specs):
        # A float that never changed still converts safely (it only ever feeds math);
        # ints, bools and strings may drive Python control flow, so they stay Python.
        if spec is _CONSTANT and isinstance(columns[i][0].value, float):
            specs[i] = _spec_code((), "float32")
    if not specs or any(s is None or s is _CONSTANT for s in specs):
        return None
    return "[" + ", ".join(specs) + "]"


def suggest(signatures, reasons: list[Reason], *, user_function: bool,
            defaults: dict | None = None, name: str = "the function",
            definition: str | None = None) -> Suggestion:
    """The concrete fix for a function whose retraces had these ``reasons``.

    ``signatures`` are the traced signatures of the latest tf.function object, in order.
    """
    kinds = {r.kind for r in reasons}
    out = Suggestion()
    if "new-function" in kinds:
        where = f" (defined at {definition})" if definition else ""
        out.actions.append(f"create the tf.function for {name} once{where} and reuse it: "
                           f"move @tf.function out of the loop or the function that calls it")
    argument_kinds = kinds - {"new-function", "context"}
    if not argument_kinds:
        return out
    if user_function and argument_kinds <= {"shape", "value"}:
        out.input_signature = input_signature(signatures, defaults)
    if "shape" in argument_kinds:
        out.actions.append("reduce_retracing=True" if user_function else
                           "give the inputs one shape (pad them, or batch with drop_remainder=True)")
    for arg in _arguments(reasons, "value"):
        out.actions.append(f"pass {arg} as a tensor: tf.constant({arg})")
    for arg in _arguments(reasons, "dtype"):
        out.actions.append(f"give {arg} one dtype: tf.cast({arg}, tf.{_first_dtype(signatures, arg)})"
                           " before the call")
    for arg in _arguments(reasons, "object"):
        out.actions.append(f"reuse one object for {arg}, or pass the values it holds as tensors")
    for arg in _arguments(reasons, "structure"):
        out.actions.append(f"keep the structure of {arg} fixed (pad to one length, or use a "
                           "tf.RaggedTensor)")
    if "kwargs" in argument_kinds:
        out.actions.append("pass the same keyword arguments on every call")
    return out


def _arguments(reasons, kind) -> list[str]:
    seen = []
    for r in reasons:
        if r.kind == kind and r.argument and r.argument not in seen:
            seen.append(r.argument)
    return seen


def _first_dtype(signatures, path: str) -> str:
    root = path.split("[")[0].split(".")[0]
    for sig in signatures:
        value = dict(sig).get(root)
        if isinstance(value, Tensor):
            return value.dtype
    return "float32"
