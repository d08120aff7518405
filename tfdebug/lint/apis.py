"""What TF and Keras names give: which calls return a tensor (or a tuple, a dataset, a
model...), of which dtype family, read from the API table generated from TensorFlow itself.

Names are canonical dotted paths after imports (``tensorflow.reduce_sum``, ``keras.ops.sum``).
"""
from __future__ import annotations

import ast
import os

from .findings import debug
from .values import Kind

# The API table (``tf_api.json``), written by ``tools/tf_api.py`` from the installed
# TensorFlow and Keras, read on first use (no TensorFlow import, ever).
_TABLE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_api.json")
_table: dict | None = None

# Parameters that set a result's dtype (``tf.zeros(dtype=)``, ``tf.shape(out_type=)``).
DTYPE_PARAMS = ("dtype", "out_type", "output_type", "out_idx", "Tout", "index_dtype")

_DTYPE_NAMES = {
    "bool": "bool", "string": "string",
    **{f"float{n}": "float" for n in (16, 32, 64)}, "bfloat16": "float", "half": "float",
    "double": "float",
    **{f"int{n}": "int" for n in (8, 16, 32, 64)}, **{f"uint{n}": "int" for n in (8, 16, 32, 64)},
}


_DATASET_FN_METHODS = {"map", "filter", "flat_map", "interleave", "parallel_interleave"}


_GRAPH_LOOP_SHAPE_OPS = {"concat", "stack", "pad", "tile", "repeat", "append"}


# `%d`, `%5.2f`, `%x`: %-conversions that need a concrete number (a tensor makes them fail).
# Compiled when first used (``re`` caches it): most analyses meet no %-format.
_NUMERIC_PERCENT = r"%[-+ #0]*(\d+|\*)?(\.\d+)?[diouxXeEfFgGc]"


_NAMED_SHAPE_CTORS = {"range", "zeros", "ones", "fill", "normal", "uniform", "truncated_normal",
                      "eye"}


_LOGGING_CALLEES = {"debug", "info", "warning", "warn", "error", "exception", "critical",
                    "log"}


def _canonical(dotted: str) -> str:
    """Fold the spellings of one API together: tf.keras/tf_keras/keras.src -> keras."""
    for old, new in (("tensorflow.compat.v2.", "tensorflow."), ("tensorflow.compat.v1.", "tensorflow."),
                     ("tensorflow.keras.", "keras."), ("tensorflow.python.keras.", "keras."),
                     ("tf_keras.", "keras."), ("keras.src.", "keras.")):
        if dotted.startswith(old):
            return new + dotted[len(old):]
    if dotted in ("tensorflow.keras", "tf_keras", "keras.src"):
        return "keras"
    return dotted


def api_facts(name: str) -> dict | None:
    """What the table says of the canonical API ``name`` (None: not in it, so unknown)."""
    global _table
    if _table is None:
        _table = _Rows.read(_TABLE_FILE) or _read_whole(_TABLE_FILE)
    if isinstance(_table, _Rows):
        try:
            return _table.get(name)
        except ValueError:  # a row that is not JSON: the file is read whole, as before
            _table = _read_whole(_TABLE_FILE)
    return _table.get(name)


def _read_whole(path: str) -> dict:
    import json  # (here: a run on files without TensorFlow never pays for it)

    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)["apis"]
    except (OSError, ValueError, KeyError, TypeError):
        debug("tfdebug lint: cannot read %s", path)
        return {}


class _Rows:
    """The table as ``tools/tf_api.py`` writes it, one API per line in name order, each row
    parsed when first looked up (found by bisection): an analysis asks about a few of its
    1,600-odd APIs, and parsing them all cost a first diagnosis more than a millisecond."""

    def __init__(self, rows: list[str]):
        self.rows = rows
        self.parsed: dict[str, dict | None] = {}

    @classmethod
    def read(cls, path: str) -> "_Rows | None":
        """The rows of the table at ``path``; None when it is laid out otherwise."""
        try:
            with open(path, encoding="utf-8") as fh:
                lines = fh.read().split("\n")
            start = lines.index('  "apis": {') + 1
        except (OSError, ValueError):
            return None
        rows = lines[start:-3]
        # sorted, the first and the last row in the layout: every row between is too
        if lines[0] != "{" or lines[-3:] != ["  }", "}", ""] or not rows or \
                rows != sorted(rows) or not (rows[0] + rows[-1]).startswith('    "') or \
                not rows[-1].startswith('    "'):
            return None
        return cls(rows)

    def get(self, name: str) -> dict | None:
        facts = self.parsed.get(name, _UNREAD)
        if facts is _UNREAD:
            import bisect
            import json

            head = f"    {json.dumps(name)}: "
            at = bisect.bisect_left(self.rows, head)
            row = self.rows[at] if at < len(self.rows) else ""
            facts = json.loads(row[len(head):].removesuffix(",")) \
                if row.startswith(head) else None
            self.parsed[name] = facts
        return facts


_UNREAD = object()


def api_kind(name: str, call: ast.Call, kind_of) -> Kind | None:
    """The kind of ``call``, a call of the canonical API ``name``, from the table; None when
    the table does not know it. ``kind_of`` gives the kinds of the call's arguments."""
    facts = api_facts(name)
    if facts is None:
        return None
    what = facts.get("kind")
    arity = _arity(call)
    if what == "mixed":
        what = facts.get("arity", {}).get(str(arity)) if arity is not None else None
    if what == "class":
        what = facts.get("of")
        if what == "variable":
            return Kind("tensor", _dtype_param(call, "dtype", 1) or (
                _arg_dtype(call.args[0], kind_of) if call.args else None))
        return Kind(what) if what in ("dataset", "model", "loss", "tape") else None
    if what in ("dataset", "model"):
        return Kind(what)
    if what == "tensors" or (what == "tuple" and facts.get("of") == "tensor"):
        return Kind("tensors")
    if what in ("tensor", "variable"):
        return Kind("tensor", _result_dtype(facts, call, arity, kind_of))
    return None


def _arity(call: ast.Call) -> int | None:
    """How many arguments (other than ``name=`` and a dtype) the call passes; None when
    ``*args``/``**kwargs`` hide it."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
            kw.arg is None for kw in call.keywords):
        return None
    return len(call.args) + sum(1 for kw in call.keywords
                                if kw.arg != "name" and kw.arg not in DTYPE_PARAMS)


def _dtype_param(call: ast.Call, param: str, position: int | None) -> str | None:
    given = next((kw.value for kw in call.keywords if kw.arg == param), None)
    if given is None and position is not None and position < len(call.args):
        given = call.args[position]
    return _dtype_literal(given) if given is not None else None


def _arg_dtype(node, kind_of) -> str | None:
    kind = kind_of(node)
    return kind.dtype if kind is not None and kind.what == "tensor" else _literal_dtype(node)


def _result_dtype(facts: dict, call: ast.Call, arity, kind_of) -> str | None:
    param = facts.get("dtype_param")
    if param:
        name, position, default = param
        if any(kw.arg == name for kw in call.keywords) or (
                position is not None and position < len(call.args)):
            return _dtype_param(call, name, position)  # None: a dtype the checker cannot read
        if default:
            return _family(default)
    rules = facts.get("dtype") or {}
    rule = rules.get(str(arity), rules.get("*")) if arity is not None else rules.get("*")
    if rule is None:
        return None
    if rule.startswith("@"):
        index = int(rule[1:])
        return _arg_dtype(call.args[index], kind_of) if index < len(call.args) else None
    return _family(rule)


def _family(dtype: str) -> str | None:
    """``int64`` -> ``int``: the families the checks reason about."""
    return _DTYPE_NAMES.get(dtype)


def _dtype_literal(node) -> str | None:
    if isinstance(node, ast.Attribute):
        return _DTYPE_NAMES.get(node.attr)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _DTYPE_NAMES.get(node.value)
    return None


def _literal_dtype(node) -> str | None:
    """The dtype TF infers from a Python literal (or a nested list of them)."""
    while isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        node = node.elts[0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            return "bool"
        if isinstance(value, int):
            return "int"
        if isinstance(value, float):
            return "float"
        if isinstance(value, (str, bytes)):
            return "string"
    return None
