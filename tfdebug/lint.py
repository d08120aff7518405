"""``tfdebug lint``: find tf.function / AutoGraph pitfalls in source, without running it.

The checker reads Python source with :mod:`ast` only: it never imports or runs the code it
checks. It first works out which code runs as a graph (``@tf.function`` in any spelling,
``tf.function(fn)``, Keras ``call``/``train_step``/..., ``tf.data`` ``map``/``filter``
functions, Keras metric/loss functions, and the same-module helpers they call), and whether
AutoGraph converts it. Then it follows which local names hold symbolic tensors and reports
the constructs that fail or misbehave there. When a value's tensor-ness is unknown it stays
silent: a false alarm costs more than a missed finding.

Every check cites a recipe (``CHECKS``), so ``tfdebug explain TFD101`` tells the whole story.

Example::

    from tfdebug import lint
    for finding in lint.lint_source("@tf.function\\ndef f(x):\\n    return x.numpy()\\n",
                                    "f.py", header="import tensorflow as tf\\n"):
        print(finding.text())
"""
from __future__ import annotations

import ast
import dataclasses
import fnmatch
import json
import logging
import os
import re
import tokenize

from ._ast import KERAS_LOOPS, attribute_chain

log = logging.getLogger("tfdebug")

# check name -> (recipe id, category). The one table of what lint cites; a test asserts
# that every id exists in recipes/ with this category.
CHECKS: dict[str, tuple[str, str]] = {
    "tensor-bool": ("TFD101", "tensor-as-bool"),
    "tensor-bool-keras": ("TFD105", "tensor-as-bool"),
    "nonbool-condition": ("TFD102", "tensor-as-bool"),
    "assert-tensor": ("TFD103", "tensor-as-bool"),
    "in-list": ("TFD104", "tensor-as-bool"),
    "set-seed-tensor": ("TFD106", "tensor-as-bool"),
    "iterate-tensor": ("TFD110", "tensor-iteration"),
    "enumerate-tensor": ("TFD111", "tensor-iteration"),
    "comprehension-tensor": ("TFD112", "tensor-iteration"),
    "append-in-graph-loop": ("TFD115", "out-of-scope-tensor"),
    "unhashable": ("TFD118", "unhashable-tensor"),
    "len-tensor": ("TFD120", "unknown-length"),
    "try-except": ("TFD125", "unsupported-syntax"),
    "yield": ("TFD126", "unsupported-syntax"),
    "return-in-graph-loop": ("TFD127", "unsupported-syntax"),
    "shared-lambda-line": ("TFD130", "autograph-conversion"),
    "variable-in-body": ("TFD135", "variable-creation"),
    "keras-object-in-body": ("TFD136", "variable-creation"),
    "numpy-method": ("TFD140", "numpy-in-graph"),
    "numpy-call": ("TFD141", "numpy-in-graph"),
    "numpy-in-data": ("TFD145", "data-pipeline"),
    "loop-var-grows": ("TFD150", "loop-var-shape"),
    "loop-var-dtype": ("TFD151", "loop-var-shape"),
    "branch-undefined": ("TFD155", "branch-mismatch"),
    "branch-structure": ("TFD156", "branch-mismatch"),
    "keras-call-tf-function": ("TFD165", "keras-misuse"),
    "py-function-shape": ("TFD170", "unknown-shape"),
    "fstring-tensor": ("TFD175", "string-format"),
    "format-spec-tensor": ("TFD176", "string-format"),
    "percent-format-tensor": ("TFD177", "string-format"),
    "keras-loop-in-graph": ("TFD167", "keras-misuse"),
    "list-index-tensor": ("TFD119", "unhashable-tensor"),
    "tf-function-in-loop": ("TFD204", "retracing"),
    "shape-changing-arg": ("TFD200", "retracing"),
    "python-scalar-arg": ("TFD202", "retracing"),
    "stale-global": ("TFD210", "stale-capture"),
    "print": ("TFD300", "trace-time-side-effect"),
    "global-write": ("TFD301", "trace-time-side-effect"),
    "container-mutation": ("TFD302", "trace-time-side-effect"),
    "attribute-mutation": ("TFD303", "trace-time-side-effect"),
    "python-random": ("TFD304", "trace-time-side-effect"),
    "python-clock": ("TFD305", "trace-time-side-effect"),
    "python-io": ("TFD306", "trace-time-side-effect"),
    "python-input": ("TFD307", "trace-time-side-effect"),
    "stale-capture": ("TFD308", "trace-time-side-effect"),
    "float-meets-int": ("TFD161", "dtype-mismatch"),
    "keras-training-flag": ("TFD320", "keras-training-flag"),
}

# Codes for files that could not be checked (flake8's spelling): unreadable, syntax error,
# and a failure of the checker itself (reported, never raised).
READ_ERROR, SYNTAX_ERROR, INTERNAL_ERROR = "E902", "E999", "E900"

DEFAULT_EXCLUDE = (".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox", ".nox",
                   ".eggs", "*.egg-info", "build", "dist", "node_modules", ".mypy_cache",
                   ".pytest_cache", ".ruff_cache", ".ipynb_checkpoints")

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[\w\-]+(?:[\s,]+[\w\-]+)*))?", re.I)
_IGNORE = re.compile(r"#\s*tfdebug:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I)


class LintUsageError(ValueError):
    """Bad options or configuration; the message says what was wrong and how to fix it."""


@dataclasses.dataclass(frozen=True, order=True)
class LintFinding:
    """One problem at ``path:line:col``; ``check`` is the internal check name."""

    path: str
    line: int
    col: int
    code: str
    message: str
    check: str = ""
    category: str | None = None

    def text(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}"

    def to_json(self) -> dict:
        title = docs = None
        if self.code.startswith("TFD"):
            try:
                from . import recipebook
                recipe = recipebook.get(self.code)
                title, docs = recipe.title, recipe.docs or None
            except Exception:  # a missing recipe must not break the report
                log.debug("tfdebug lint: no recipe %s", self.code, exc_info=True)
        return {"file": self.path, "line": self.line, "column": self.col, "code": self.code,
                "category": self.category, "check": self.check or None,
                "message": self.message, "title": title, "docs": docs}


# --------------------------------------------------------------------------- knowledge
# What a name resolves to after imports: "tensorflow.reduce_sum", "keras.ops.sum", ...

_TF_NOT_TENSOR = {  # top-level tf names whose result is not a (single) tensor
    "function", "print", "config", "is_tensor", "executing_eagerly", "get_static_value",
    "cond", "while_loop", "switch_case", "case", "nest", "unstack", "split", "meshgrid",
    "dynamic_partition", "unique", "unique_with_counts", "name_scope", "device",
    "control_dependencies", "init_scope", "group", "no_op", "tuple", "custom_gradient",
    "recompute_grad", "vectorized_map", "map_fn", "scan", "foldl", "foldr", "gradients",
    "register_tensor_conversion_function", "py_func", "numpy_function", "py_function",
    "make_ndarray", "make_tensor_proto", "import_graph_def", "get_logger", "type_spec_from_value",
    "Assert", "assert_equal", "assert_rank", "assert_greater", "assert_less", "ensure_shape",
    "timestamp", "keras", "data", "io", "saved_model", "summary", "train", "distribute",
    "autograph", "debugging", "experimental", "compat", "lookup", "sysconfig", "test",
    "sparse", "ragged", "estimator", "feature_column", "tpu", "xla", "lite", "types",
    "dtypes", "errors", "graph_util", "queue", "raw_ops", "audio", "version", "mlir",
}
_TF_NOT_TENSOR -= {"ensure_shape"}  # ensure_shape returns its tensor
_TF_TENSOR_MODULES = {"math", "linalg", "nn", "random", "strings", "signal", "image",
                      "bitwise", "dtypes"}
_TF_RANDOM_NOT_TENSOR = {"set_seed", "Generator", "get_global_generator",
                         "set_global_generator", "create_rng_state", "experimental"}
_KERAS_OPS_NOT_TENSOR = {"shape", "is_tensor", "dtype", "convert_to_numpy", "unstack", "split",
                         "cond", "while_loop", "fori_loop", "scan", "map", "vectorized_map",
                         "custom_gradient", "switch", "associative_scan", "core", "nn",
                         "numpy", "math", "linalg", "image", "standardize_dtype", "ndim",
                         "is_int_dtype", "is_float_dtype", "result_type", "unique"}
# ops that return several tensors (a tuple/list), so unpacking their result is fine
_MULTI_OUTPUT = {"moments", "weighted_moments", "top_k", "eigh", "eig", "qr", "svd", "slogdet",
                 "lu", "lu_factor", "unique", "unique_with_counts", "meshgrid", "split",
                 "unstack", "histogram", "lstsq", "normalize_moments", "fused_batch_norm",
                 "sufficient_statistics", "ctc_beam_search_decoder", "ctc_greedy_decoder",
                 "nonzero", "fft", "fft2", "fftn", "rfft", "irfft", "stft", "istft",
                 "broadcast_arrays", "broadcast_gradient_args", "dynamic_partition",
                 "batch_normalization_with_global", "ctc_decode", "max_pool_with_argmax",
                 "in_top_k", "fractional_max_pool", "fractional_avg_pool", "tridiagonal_solve",
                 "eigvals", "combined_non_max_suppression", "non_max_suppression_padded",
                 "unicode_decode_with_offsets", "sample_distorted_bounding_box", "while_loop",
                 "cond", "map_fn", "scan", "switch_case", "case", "custom_gradient", "divmod",
                 "frexp", "modf", "sort_with_indices", "polar", "cholesky_inverse"}
_KERAS_OPS_MODULES = {"numpy", "nn", "math", "linalg", "image"}
_DTYPE_NAMES = {
    "bool": "bool", "string": "string",
    **{f"float{n}": "float" for n in (16, 32, 64)}, "bfloat16": "float", "half": "float",
    "double": "float",
    **{f"int{n}": "int" for n in (8, 16, 32, 64)}, **{f"uint{n}": "int" for n in (8, 16, 32, 64)},
}
_BOOL_RESULT = {"reduce_any", "reduce_all", "equal", "not_equal", "less", "greater",
                "less_equal", "greater_equal", "logical_and", "logical_or", "logical_not",
                "logical_xor", "is_finite", "is_nan", "is_inf", "isfinite", "isnan", "isinf",
                "in_top_k", "is_non_decreasing", "is_strictly_increasing"}
_INT_RESULT = {"shape", "size", "rank", "argmax", "argmin", "range", "where", "shape_n",
               "count_nonzero", "searchsorted", "bincount", "histogram_fixed_width"}
_SAME_DTYPE = {"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
               "abs", "square", "identity", "transpose", "reshape", "concat", "stack",
               "squeeze", "expand_dims", "tile", "gather", "cumsum", "reverse", "clip_by_value",
               "maximum", "minimum", "negative", "stop_gradient", "sort", "roll", "pad"}
_FLOAT_RESULT = {"ones", "zeros", "normal", "uniform", "truncated_normal", "eye", "sqrt",
                 "exp", "log", "sigmoid", "tanh", "softmax", "matmul", "one_hot", "linspace",
                 "reduce_logsumexp", "reduce_std", "reduce_variance", "sin", "cos"}
_DATASET_SOURCES = {"Dataset", "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset",
                    "experimental", "Options"}
_DATASET_FN_METHODS = {"map", "filter", "flat_map", "interleave", "parallel_interleave"}
_GRAPH_LOOP_SHAPE_OPS = {"concat", "stack", "pad", "tile", "repeat", "append"}
_KERAS_MODEL_CTORS = {"Sequential", "Model", "Functional"}
_KERAS_BASES = {"Layer", "Model", "Sequential", "Functional"}
_KERAS_TRACED_METHODS = {"call", "train_step", "test_step", "predict_step"}
# `%d`, `%5.2f`, `%x`: %-conversions that need a concrete number (a tensor makes them fail).
_NUMERIC_PERCENT = re.compile(r"%[-+ #0]*(\d+|\*)?(\.\d+)?[diouxXeEfFgGc]")
_MUTATORS = {"append", "extend", "insert", "add", "update", "pop", "popitem", "setdefault",
             "clear", "remove", "discard", "appendleft", "extendleft"}
_NAMED_SHAPE_CTORS = {"range", "zeros", "ones", "fill", "normal", "uniform", "truncated_normal",
                      "eye"}
_CLOCKS = {"time.time", "time.perf_counter", "time.monotonic", "time.time_ns",
           "time.process_time", "datetime.datetime.now", "datetime.datetime.utcnow",
           "datetime.date.today", "datetime.now", "datetime.utcnow", "datetime.today"}
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


def _tensor_api(name: str) -> bool:
    """Does calling the canonical ``name`` return a single symbolic tensor (in graph code)?"""
    parts = name.split(".")
    if parts[-1] in _MULTI_OUTPUT:
        return False
    if parts[0] == "tensorflow":
        if len(parts) == 2:
            leaf = parts[1]
            return leaf not in _TF_NOT_TENSOR and not leaf[:1].isupper() and not leaf.startswith("assert_")
        if len(parts) == 3 and parts[1] in _TF_TENSOR_MODULES:
            leaf = parts[2]
            if parts[1] == "random" and leaf in _TF_RANDOM_NOT_TENSOR:
                return False
            if parts[1] == "dtypes":
                return leaf in ("cast", "saturate_cast", "complex")
            return not leaf[:1].isupper() and leaf not in ("unstack", "split", "unique")
        if len(parts) == 3 and parts[1] == "io":
            return parts[2] in ("read_file", "decode_raw", "decode_image", "decode_jpeg",
                                "decode_png", "parse_tensor", "serialize_tensor", "decode_csv")
        return False
    if parts[:2] == ["keras", "ops"] and (len(parts) == 3 or (
            len(parts) == 4 and parts[2] in _KERAS_OPS_MODULES)):
        return parts[-1] not in _KERAS_OPS_NOT_TENSOR and not parts[-1][:1].isupper()
    return False


def _dtype_of_api(name: str, call: ast.Call, arg_dtype) -> str | None:
    leaf = name.rsplit(".", 1)[-1]
    for kw in call.keywords:
        if kw.arg == "dtype":
            return _dtype_literal(kw.value)
    if leaf == "cast" and len(call.args) > 1:
        return _dtype_literal(call.args[1])
    if leaf in ("constant", "convert_to_tensor") and call.args:
        return _literal_dtype(call.args[0]) or arg_dtype
    if leaf in _BOOL_RESULT:
        return "bool"
    if leaf == "range":  # int32 only when every bound is an int; float bounds give floats
        if call.args and all(_literal_dtype(a) == "int" for a in call.args):
            return "int"
        return arg_dtype if len(call.args) == 1 else None
    if leaf in _INT_RESULT:
        return "int"
    if leaf in _FLOAT_RESULT:
        return "float"
    if leaf in _SAME_DTYPE:
        return arg_dtype
    return None


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


# --------------------------------------------------------------------------- value kinds

@dataclasses.dataclass(frozen=True)
class Kind:
    """What the checker knows of a value: ``what`` and, for tensors, the dtype family."""

    what: str           # tensor | tensors | dataset | model | list | dict | set | scalar | str | tape
    dtype: str | None = None


TENSOR = Kind("tensor")
SCALAR = Kind("scalar")


def _is_tensor(kind) -> bool:
    return kind is not None and kind.what == "tensor"


def _join(a, b):
    return a if a == b else None


# --------------------------------------------------------------------------- module facts

@dataclasses.dataclass
class Context:
    """How a function is run: as a graph? converted by AutoGraph? by whom?"""

    graph: bool
    converted: bool
    kind: str            # host | function | keras | metric | data
    entry: bool = False  # the traced function itself, not a helper it calls
    keras_name: str = ""


class _Module:
    """Facts about one module that every function's analysis needs."""

    def __init__(self, tree: ast.Module, path: str, lines: list[str]):
        self.tree, self.path, self.lines = tree, path, lines
        self.aliases: dict[str, str] = {}
        self.defs: dict[str, ast.AST] = {}          # module-level function / lambda names
        self.classes: dict[str, ast.ClassDef] = {}
        self.parent_class: dict[int, ast.ClassDef] = {}
        self.parent_func: dict[int, ast.AST] = {}
        self.env: dict[str, Kind] = {}
        self.tf_functions: dict[str, ast.AST] = {}  # names bound to tf.function objects
        self.no_retrace: set[int] = set()           # tf.functions with a relaxed signature
        self.entries: list[tuple[ast.AST, Context, dict]] = []
        self.call_args: dict[int, list[list]] = {}  # def id -> arg kinds per host call site
        self.loop_assigned_attrs: set[str] = set()
        self.called_in_loop: set[str] = set()       # functions/methods called inside a loop
        self.relaxed_names: set[str] = set()        # tf.function(...) names with a relaxed signature
        self.loop_assigned_globals: set[str] = set()
        self.made_in_loop: set[int] = set()         # defs/lambdas re-made on every iteration
        self.declared_globals: set[str] = set()     # names in any `global` statement
        self.stored_attrs: set[str] = set()         # attribute names assigned anywhere (`o.a = v`)
        self.calls_set_shape = False
        self.functions: list[ast.AST] = []          # every def, in source order
        self.lambdas: dict[int, list[ast.Lambda]] = {}
        self.calls: list[tuple[ast.Call, ast.AST | None]] = []  # (call, enclosing function)
        self.hosts_nested_tf: set[int] = set()      # functions that define decorated functions
        self.findings: dict[tuple, LintFinding] = {}

    # --- names
    def resolve(self, node) -> str | None:
        """The canonical dotted name of ``node`` (``tf.math.add`` -> ``tensorflow.math.add``)."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        parts.append(self.aliases[node.id])
        return _canonical(".".join(reversed(parts)))

    def is_tf_function(self, node) -> bool:
        target = node.func if isinstance(node, ast.Call) else node
        return self.resolve(target) == "tensorflow.function"

    def report(self, check: str, node, message: str, line: int | None = None) -> None:
        code, category = CHECKS[check]
        line = line or node.lineno
        col = (node.col_offset + 1) if line == getattr(node, "lineno", None) else 1
        key = (line, col, code)
        if key not in self.findings:
            self.findings[key] = LintFinding(self.path, line, col, code, message, check, category)


# --------------------------------------------------------------------------- the walker

class _Walker:
    """Walks one function body in source order, tracking the kinds of local names."""

    def __init__(self, mod: _Module, func, ctx: Context, params: dict[str, Kind] | None = None):
        self.mod, self.func, self.ctx = mod, func, ctx
        self.env: dict[str, Kind | None] = dict(params or {})
        self.local_defs: dict[str, ast.AST] = {}
        self.assigned: set[str] = set(params or {})
        self.globals: set[str] = set()
        self.loops: list[tuple[ast.AST, bool, set]] = []   # (node, graph loop?, names bound before)
        self.eager_guard = 0
        self.in_raise = 0
        self.in_log = 0
        self.has_tape = False
        self.if_depth = 0
        self.cache: dict[int, Kind | None] = {}
        self.requests: list[tuple[ast.AST, Context, dict]] = []
        self.cls = mod.parent_class.get(id(func))
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            self.assigned |= {a.arg for a in _all_args(func.args)}
            self.local_names = _locally_bound(func)
        else:
            self.local_names = set()

    # ------------------------------------------------------------------ kinds
    def kind(self, node) -> Kind | None:
        """What ``node`` evaluates to here (cached per statement: env changes between them)."""
        key = id(node)
        if key in self.cache:
            return self.cache[key]
        result = self.cache[key] = self._kind(node)
        return result

    def _kind(self, node) -> Kind | None:
        mod = self.mod
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            if node.id in self.local_names:
                return None
            kind = mod.env.get(node.id)
            if self.ctx.graph and _is_tensor(kind):
                return None  # a captured eager tensor: a constant of the graph, not an input
            return kind
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (str, bytes)):
                return Kind("str")
            if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
                return SCALAR
            return None
        if isinstance(node, ast.JoinedStr):
            return Kind("str")
        if isinstance(node, (ast.List, ast.Tuple)):
            return Kind("list")
        if isinstance(node, ast.Dict):
            return Kind("dict")
        if isinstance(node, ast.Set):
            return Kind("set")
        if isinstance(node, ast.Call):
            return self._call_kind(node)
        if isinstance(node, ast.Attribute):
            return None  # x.shape, x.dtype, obj.attr: never assumed to be a tensor
        if isinstance(node, ast.Subscript):
            base = self.kind(node.value)
            if base is None:
                return None
            if base.what == "tensor":
                return base
            if base.what == "tensors":
                return Kind("tensor", base.dtype)
            return None
        if isinstance(node, ast.BinOp):
            left, right = self.kind(node.left), self.kind(node.right)
            if isinstance(node.op, ast.Mod) and left is not None and left.what == "str":
                return left
            if _is_tensor(left) or _is_tensor(right):
                if isinstance(node.op, ast.Div):
                    return Kind("tensor", "float")
                dt = [k.dtype for k in (left, right) if _is_tensor(k)]
                lit = [_literal_dtype(n) for n in (node.left, node.right)]
                dtype = "float" if "float" in dt + lit else (dt[0] if len(set(dt)) == 1 else None)
                return Kind("tensor", dtype)
            if left == SCALAR and right == SCALAR:
                return SCALAR
            return None
        if isinstance(node, ast.UnaryOp):
            inner = self.kind(node.operand)
            if _is_tensor(inner) and not isinstance(node.op, ast.Not):
                return inner
            if _is_tensor(inner) and self.ctx.converted:
                return Kind("tensor", "bool")
            return None
        if isinstance(node, ast.Compare):
            if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
                return None
            if any(_is_tensor(self.kind(n)) for n in [node.left, *node.comparators]):
                return Kind("tensor", "bool")
            return None
        if isinstance(node, ast.BoolOp):
            if self.ctx.converted and any(_is_tensor(self.kind(v)) for v in node.values):
                return Kind("tensor", "bool")
            return None
        if isinstance(node, ast.NamedExpr):
            return self.kind(node.value)
        return None

    def _call_kind(self, node: ast.Call) -> Kind | None:
        mod = self.mod
        name = mod.resolve(node.func)
        if name:
            if name.startswith("tensorflow.data.") and name.rsplit(".", 1)[-1] in _DATASET_SOURCES | {
                    "from_tensor_slices", "from_tensors", "range", "from_generator", "zip",
                    "list_files", "load", "sample_from_datasets", "choose_from_datasets"}:
                return Kind("dataset")
            if name.startswith("tensorflow.") and name.rsplit(".", 1)[-1] in ("unstack", "split"):
                return Kind("tensors")
            if name in ("tensorflow.GradientTape",):
                return Kind("tape")
            if name.startswith("keras.") and name.rsplit(".", 1)[-1] in _KERAS_MODEL_CTORS:
                return Kind("model")
            if name in ("tensorflow.Variable", "keras.Variable"):
                return Kind("tensor", _dtype_of_api(name, node, None) or (
                    _literal_dtype(node.args[0]) if node.args else None))
            if _tensor_api(name):
                arg = self.kind(node.args[0]) if node.args else None
                return Kind("tensor", _dtype_of_api(name, node, arg.dtype if _is_tensor(arg) else None))
            return None
        func = node.func
        if isinstance(func, ast.Attribute):
            base = self.kind(func.value)
            if base is not None and base.what == "dataset":
                return base  # ds.map(...).batch(...) is still a dataset
            if base is not None and base.what == "tensor" and func.attr in (
                    "assign", "assign_add", "assign_sub", "read_value", "__getitem__"):
                return Kind("tensor", base.dtype)
            return None
        if isinstance(func, ast.Name):
            if func.id in ("range", "len", "int", "float"):
                return SCALAR
            if func.id in ("list", "tuple", "sorted"):
                return Kind("list")
            if func.id == "dict":
                return Kind("dict")
            if func.id == "set":
                return Kind("set")
            if func.id == "str":
                return Kind("str")
            cls = mod.classes.get(func.id)
            if cls is not None and _keras_class_kind(mod, cls) == "model":
                return Kind("model")
        return None

    # ------------------------------------------------------------------ statements
    def run(self):
        func = self.func
        if isinstance(func, ast.Lambda):
            self.expr(func.body)
            if self.ctx.kind == "data":
                self._check_data_return(func.body)
        else:
            self.block(func.body)
        return self

    def block(self, stmts):
        for stmt in stmts:
            try:
                self.stmt(stmt)
            except RecursionError:
                log.debug("tfdebug lint: too deep at %s:%s", self.mod.path, stmt.lineno)

    def stmt(self, node):
        self.cache.clear()
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is not None:
            method(node)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.local_defs[node.name] = node
            self.env[node.name] = None
            self._nested_tf_function(node)
            return
        if isinstance(node, ast.ClassDef):
            return
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            self.globals.update(node.names)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)

    def s_Expr(self, node):
        self.expr(node.value)

    def s_Return(self, node):
        if node.value is not None:
            self.expr(node.value)
            if self.ctx.kind == "data" and self.ctx.entry:
                self._check_data_return(node.value)
        graph_loop = next((lp for lp in reversed(self.loops) if lp[1]), None)
        if graph_loop is not None and self.ctx.converted:
            self.mod.report("return-in-graph-loop", node,
                            "`return` inside a loop over a tensor; AutoGraph cannot convert it "
                            "(break out of the loop, then return)")

    def s_Assign(self, node):
        self.expr(node.value)
        value_kind = self.kind(node.value)
        for target in node.targets:
            self.bind(target, node.value, value_kind, node)

    def s_AnnAssign(self, node):
        if node.value is not None:
            self.expr(node.value)
            self.bind(node.target, node.value, self.kind(node.value), node)

    def s_AugAssign(self, node):
        ctx, mod = self.ctx, self.mod
        self.expr(node.value)
        target = node.target
        if isinstance(target, ast.Name):
            before = self.env.get(target.id)
            after = self.kind(ast.BinOp(left=target, op=node.op, right=node.value))
            if ctx.graph and target.id in self.globals:
                mod.report("global-write", node, f"`{target.id}` is a global written inside "
                           "traced code: it changes once per trace, not once per call")
            if (ctx.converted and before == SCALAR and _is_tensor(after)
                    and after.dtype == "float" and self._int_literal_init(target.id)
                    and any(lp[1] and target.id in lp[2] for lp in self.loops)):
                mod.report("loop-var-dtype", node, f"loop variable `{target.id}` starts as a "
                           "Python int (int32 tensor) but becomes float inside the tensor loop; "
                           "initialise it as a float (0.0)")
            self.env[target.id] = after if after is not None else (
                before if _is_tensor(before) else None)
            self.assigned.add(target.id)
        elif isinstance(target, ast.Attribute):
            self.expr(target.value)
            if ctx.graph and ctx.kind in ("function", "data", "helper"):
                owner = _dotted(target.value) or "object"
                mod.report("attribute-mutation", node, f"`{owner}.{target.attr}` is updated "
                           "inside traced code: it runs once per trace, not once per call; "
                           "keep the state in a tf.Variable")
        elif isinstance(target, ast.Subscript):
            self.expr(target)

    def _block_maybe_dead(self, body, dead: bool):
        """Walk ``body``; when it never runs while tracing, its trace-time checks stay quiet."""
        self.eager_guard += dead
        self.block(body)
        self.eager_guard -= dead

    def s_If(self, node):
        ctx, mod = self.ctx, self.mod
        self.expr(node.test)
        test_kind = self.kind(node.test)
        # Branches that never run while tracing: `if tf.executing_eagerly():` (its `else` does
        # run), and `if DEBUG:` on a module constant that is falsy and never reassigned.
        negated = isinstance(node.test, ast.UnaryOp) and isinstance(node.test.op, ast.Not)
        eager_test = _mentions(node.test, "executing_eagerly")
        body_dead = (eager_test and not negated) or _falsy_constant(mod, node.test)
        else_dead = eager_test and negated
        if _is_tensor(test_kind):
            self._bool_context(node.test, node, "an `if` condition")
            if ctx.converted and test_kind.dtype in ("int", "float", "string") and not isinstance(
                    node.test, (ast.Compare, ast.BoolOp)):
                mod.report("nonbool-condition", node, "`if` on a non-boolean tensor: AutoGraph "
                           "needs a scalar tf.bool; write the comparison (e.g. `x != 0`)",
                           )
        before = dict(self.env)
        bound_before = set(self.assigned)
        self.if_depth += 1
        self._block_maybe_dead(node.body, body_dead)
        body_env, body_assigned = self.env, self.assigned
        self.env, self.assigned = dict(before), set(bound_before)
        self._block_maybe_dead(node.orelse, else_dead)
        self.if_depth -= 1
        else_env, else_assigned = self.env, self.assigned
        if ctx.converted and _is_tensor(test_kind):
            self._branch_checks(node, bound_before, body_assigned, else_assigned)
        merged = {}
        for key in set(body_env) | set(else_env):
            if _terminates(node.body):
                merged[key] = else_env.get(key)
            elif _terminates(node.orelse):
                merged[key] = body_env.get(key)
            else:
                merged[key] = _join(body_env.get(key), else_env.get(key))
        self.env = merged
        self.assigned = body_assigned | else_assigned

    def s_While(self, node):
        self.expr(node.test)
        test_kind = self.kind(node.test)
        graph_loop = False
        if _is_tensor(test_kind):
            self._bool_context(node.test, node, "a `while` condition")
            graph_loop = self.ctx.converted
            if self.ctx.converted and test_kind.dtype in ("int", "float", "string") and not isinstance(
                    node.test, (ast.Compare, ast.BoolOp)):
                self.mod.report("nonbool-condition", node, "`while` on a non-boolean tensor: "
                                "AutoGraph needs a scalar tf.bool; write the comparison")
        self._loop(node, graph_loop, node.body, node.orelse)

    def s_For(self, node):
        ctx, mod = self.ctx, self.mod
        self.expr(node.iter)
        it = node.iter
        it_kind = self.kind(it)
        graph_loop = False
        elem = None
        if _is_tensor(it_kind):
            if ctx.graph and not ctx.converted:
                mod.report("iterate-tensor", node, "`for` over a symbolic tensor in code "
                           "AutoGraph does not convert; use tf.range/tf.map_fn or keras.ops")
            graph_loop = ctx.converted
            elem = Kind("tensor", it_kind.dtype)
        elif it_kind is not None and it_kind.what == "dataset":
            # converted to Dataset.reduce, which relaxes shapes: only the append check applies
            self._loop(node, ctx.converted, node.body, node.orelse, target=node.target,
                       shape_checks=False)
            return
        elif isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in (
                "enumerate", "zip"):
            tensors = [a for a in it.args if _is_tensor(self.kind(a))]
            if ctx.graph and tensors:
                mod.report("enumerate-tensor", it, f"`{it.func.id}()` over a symbolic tensor is "
                           "not converted by AutoGraph; loop over tf.range and index instead")
        elif isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
            elem = SCALAR if not any(_is_tensor(self.kind(a)) for a in it.args) else None
            if elem is None and ctx.converted:
                graph_loop, elem = True, Kind("tensor", "int")
        elif isinstance(it, (ast.List, ast.Tuple)) and it.elts and all(
                _literal_dtype(e) in ("int", "float") for e in it.elts):
            elem = SCALAR
        self._loop(node, graph_loop, node.body, node.orelse, target=node.target, elem=elem)

    def _loop(self, node, graph_loop, body, orelse, target=None, elem=None, shape_checks=True):
        bound_before = set(self.assigned)
        if target is not None:
            self.bind(target, None, elem, node, loop_target=True)
        before = dict(self.env)
        self.loops.append((node, graph_loop, bound_before))
        self.block(body)
        self.loops.pop()
        if graph_loop and shape_checks:
            self._loop_shape_checks(node, body, bound_before)
        self.block(orelse)
        for key in set(self.env) | set(before):
            self.env[key] = _join(self.env.get(key), before.get(key)) if not (
                _is_tensor(self.env.get(key)) and before.get(key) == SCALAR) else self.env.get(key)

    def s_With(self, node):
        for item in node.items:
            self.expr(item.context_expr)
            kind = self.kind(item.context_expr)
            if kind is not None and kind.what == "tape":
                self.has_tape = True
            if item.optional_vars is not None:
                self.bind(item.optional_vars, None, kind, node)
        eager = any(_mentions(i.context_expr, "init_scope") for i in node.items)
        self.eager_guard += eager
        self.block(node.body)
        self.eager_guard -= eager

    s_AsyncWith = s_With

    def s_Try(self, node):
        ctx, mod = self.ctx, self.mod
        if ctx.graph:
            for handler in node.handlers:
                names = _handler_names(handler.type)
                caught = [n for n in names if (mod.resolve(n) or "").startswith("tensorflow.errors.")]
                if caught:
                    mod.report("try-except", node, "`try`/`except "
                               f"{_dotted(caught[0])}` in traced code only catches trace-time "
                               "errors; the op fails later, when the graph runs")
                    break
        self.if_depth += 1
        self.block(node.body)
        self.if_depth -= 1
        for handler in node.handlers:
            if handler.name:
                self.env[handler.name] = None
            self.block(handler.body)
        self.block(node.orelse)
        self.block(node.finalbody)

    s_TryStar = s_Try

    def s_Assert(self, node):
        self.expr(node.test)
        if self.ctx.graph and _is_tensor(self.kind(node.test)):
            self.mod.report("assert-tensor", node, "`assert` on a symbolic tensor; AutoGraph does "
                            "not convert it: use tf.debugging.assert_* instead")

    def s_Raise(self, node):
        self.in_raise += 1
        for child in (node.exc, node.cause):
            if child is not None:
                self.expr(child)
        self.in_raise -= 1

    def s_Match(self, node):
        self.expr(node.subject)
        for case in node.match_cases:
            self.block(case.body)

    # ------------------------------------------------------------------ binding
    def bind(self, target, value, kind, stmt, loop_target=False):
        ctx, mod = self.ctx, self.mod
        if isinstance(target, ast.Name):
            if ctx.graph and target.id in self.globals and not loop_target:
                mod.report("global-write", stmt, f"`{target.id}` is a global assigned inside "
                           "traced code: it changes once per trace, not once per call")
            self.env[target.id] = kind
            self.assigned.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if ctx.graph and _is_tensor(kind) and not loop_target:
                mod.report("iterate-tensor", stmt, "unpacking a symbolic tensor into names "
                           "iterates it in Python; index it (`x[0]`, `x[1]`) or use tf.unstack")
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for t, v in zip(target.elts, value.elts):
                    self.bind(t, v, self.kind(v), stmt, loop_target)
            else:
                inner = Kind("tensor", kind.dtype) if kind is not None and kind.what == "tensors" else None
                if loop_target and isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Call) \
                        and isinstance(stmt.iter.func, ast.Name) and stmt.iter.func.id == "enumerate":
                    inner = None
                    if target.elts and isinstance(target.elts[0], ast.Name):
                        self.env[target.elts[0].id] = SCALAR
                        self.assigned.add(target.elts[0].id)
                        for t in target.elts[1:]:
                            self.bind(t, None, None, stmt, loop_target)
                        return
                for t in target.elts:
                    self.bind(t, None, inner, stmt, loop_target)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, None, None, stmt, loop_target)
        elif isinstance(target, ast.Attribute):
            self.expr(target.value)
        elif isinstance(target, ast.Subscript):
            self.expr(target.value)
            self.expr(target.slice)
            base = self.kind(target.value)
            if ctx.graph and base is not None and base.what == "dict" and _is_tensor(
                    self.kind(target.slice)):
                mod.report("unhashable", target, "a symbolic tensor used as a dict key; use a "
                           "tf.lookup table (or `tensor.ref()` as the key)")
            if ctx.graph and isinstance(target.value, ast.Name):
                self._container_mutation(target.value.id, stmt, "item assignment")

    # ------------------------------------------------------------------ expressions
    def expr(self, node):
        """Run the expression checks on ``node`` and everything inside it."""
        stack = [node]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Lambda):
                continue  # a lambda's body runs when it is called; entries are walked on their own
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                self._comprehension(node)
                continue
            check = getattr(self, "e_" + type(node).__name__, None)
            if check is not None and check(node) is False:
                continue
            stack.extend(reversed(list(ast.iter_child_nodes(node))))

    def _comprehension(self, node):
        saved = dict(self.env)
        for gen in node.generators:
            self.expr(gen.iter)
            it_kind = self.kind(gen.iter)
            if self.ctx.graph and _is_tensor(it_kind):
                self.mod.report("comprehension-tensor", gen.iter, "a comprehension iterates a "
                                "symbolic tensor; AutoGraph does not convert comprehensions: use a "
                                "`for` loop with tf.TensorArray, tf.map_fn or a static Python range")
            elem = Kind("tensor", it_kind.dtype) if _is_tensor(it_kind) else (
                SCALAR if isinstance(gen.iter, ast.Call) and isinstance(gen.iter.func, ast.Name)
                and gen.iter.func.id == "range" else None)
            self._bind_comp(gen.target, elem)
            for cond in gen.ifs:
                self.expr(cond)
                if self.ctx.graph and _is_tensor(self.kind(cond)):
                    self._report_bool(cond, "a comprehension `if`", always=True)
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for part in parts:
            self.expr(part)
        if isinstance(node, ast.DictComp) and self.ctx.graph and _is_tensor(self.kind(node.key)):
            self.mod.report("unhashable", node.key, "a symbolic tensor used as a dict key; use "
                            "a tf.lookup table (or `tensor.ref()` as the key)")
        self.env = saved

    def _bind_comp(self, target, kind):
        if isinstance(target, ast.Name):
            self.env[target.id] = kind
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self._bind_comp(t, None)

    def e_Call(self, node):
        ctx, mod = self.ctx, self.mod
        func = node.func
        name = mod.resolve(func)
        leaf = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name is not None and name.rsplit(".", 1)[-1] in _LOGGING_CALLEES and name.startswith(
                ("logging.", "absl.logging.")):
            self.in_log += 1
            for child in ast.iter_child_nodes(node):
                self.expr(child)
            self.in_log -= 1
            return False
        if name == "tensorflow.function" or (isinstance(func, ast.Call) and mod.is_tf_function(func)):
            self._tf_function_call(node)
        if ctx.graph:
            self._graph_call(node, name, leaf)
        elif name is None and isinstance(func, ast.Name):
            self._host_call(node)
        if isinstance(func, ast.Attribute) and func.attr in _DATASET_FN_METHODS and node.args:
            self._dataset_call(node)
        if isinstance(func, ast.Attribute) and func.attr == "compile":
            self._compile_call(node)
        if name in ("tensorflow.py_function", "tensorflow.numpy_function", "tensorflow.py_func"):
            # the Python function runs eagerly; only its other arguments are graph code
            for arg in node.args[1:]:
                self.expr(arg)
            for kw in node.keywords:
                if kw.arg not in ("func",):
                    self.expr(kw.value)
            return False
        return None

    def _graph_call(self, node, name, leaf):
        ctx, mod = self.ctx, self.mod
        func = node.func
        args_kinds = [self.kind(a) for a in node.args]
        if isinstance(func, ast.Attribute) and func.attr == "numpy" and not node.args and \
                not self.eager_guard and not (ctx.kind == "keras" and self._conditional()):
            # (a Keras call guarded by a condition may be the eager or another backend's path)
            if ctx.kind == "data":
                mod.report("numpy-in-data", node, "`.numpy()` in a tf.data function: dataset "
                           "functions always run as graphs (even with run_functions_eagerly); "
                           "use TF ops or tf.py_function")
            else:
                mod.report("numpy-method", node, "`.numpy()` inside traced code: tensors are "
                           "symbolic there; return the tensor and call .numpy() outside")
        if name is not None and name.startswith("numpy."):
            if name.startswith("numpy.random."):
                if not self.eager_guard:
                    mod.report("python-random", node, f"`{_dotted(func)}()` in traced code runs "
                               "once per trace: the random value is frozen into the graph; use "
                               "tf.random")
            elif any(_is_tensor(k) for k in args_kinds) or any(
                    _is_tensor(self.kind(kw.value)) for kw in node.keywords):
                check = "numpy-in-data" if ctx.kind == "data" else "numpy-call"
                mod.report(check, node, f"`{_dotted(func)}()` is given a symbolic tensor; "
                           "use the TensorFlow op (or tf.numpy_function)")
            elif self._reads_stale_state(node):
                mod.report("stale-capture", node, f"`{_dotted(func)}()` reads Python state that "
                           "changes between calls; the value is frozen when the function is "
                           "traced: pass it as a tensor argument")
        elif name is not None and name.startswith("random.") and name.count(".") == 1:
            if not self.eager_guard:
                mod.report("python-random", node, f"`{_dotted(func)}()` in traced code runs once "
                           "per trace: the value is frozen into the graph; use tf.random")
        elif name in _CLOCKS and not self.eager_guard:
            mod.report("python-clock", node, f"`{_dotted(func)}()` in traced code is read once, "
                       "at trace time; use tf.timestamp()")
        if isinstance(func, ast.Name) and func.id not in self.env and func.id not in self.local_defs \
                and func.id not in mod.defs:
            builtin = func.id
            if builtin == "print" and not self.eager_guard:
                mod.report("print", node, "`print()` in traced code runs once per trace, not "
                           "once per call; use tf.print")
            elif builtin == "open" and not self.eager_guard and ctx.kind != "keras":
                mod.report("python-io", node, "`open()` in traced code reads or writes once, at "
                           "trace time; use tf.io ops (tf.io.read_file, tf.io.write_file)")
            elif builtin == "input" and not self.eager_guard:
                mod.report("python-input", node, "`input()` in traced code asks once, at trace "
                           "time; read the value outside and pass it in as a tensor")
            elif builtin == "bool" and args_kinds and _is_tensor(args_kinds[0]):
                self._report_bool(node, "`bool()`", always=True)
            elif builtin == "len" and args_kinds and _is_tensor(args_kinds[0]) and not ctx.converted:
                mod.report("len-tensor", node, "`len()` of a symbolic tensor in code AutoGraph "
                           "does not convert; use tf.shape(x)[0] (or x.shape.rank)")
            elif builtin == "str" and args_kinds and _is_tensor(args_kinds[0]):
                self._string_format(node)
        if name == "tensorflow.random.set_seed" and args_kinds and _is_tensor(args_kinds[0]):
            mod.report("set-seed-tensor", node, "tf.random.set_seed() needs a Python int, not a "
                       "tensor; use a stateless op (tf.random.stateless_*) with a seed tensor")
        if name in ("tensorflow.Variable",) and ctx.kind in ("function", "helper") and \
                not self._conditional() and not self.eager_guard:
            mod.report("variable-in-body", node, "tf.Variable created in the body of a "
                       "tf.function: it is created on every trace; create it once outside (or "
                       "guard it with `if self.v is None`)")
        if name is not None and name.startswith(("keras.layers.", "keras.optimizers.")) and \
                name.rsplit(".", 1)[-1][:1].isupper() and ctx.kind in ("function", "helper") and \
                not self._conditional() and not self.eager_guard:
            mod.report("keras-object-in-body", node, f"`{_dotted(func)}` is constructed inside a "
                       "tf.function: its variables are created on every trace; build it once "
                       "outside")
        if isinstance(func, ast.Attribute) and func.attr == "format" and isinstance(
                func.value, ast.Constant) and isinstance(func.value.value, str):
            if any(_is_tensor(k) for k in args_kinds) or any(
                    _is_tensor(self.kind(kw.value)) for kw in node.keywords):
                self._string_format(node)
        if isinstance(func, ast.Attribute) and func.attr in _MUTATORS and isinstance(
                func.value, ast.Name):
            owner = func.value.id
            graph_loop = next((lp for lp in reversed(self.loops) if lp[1]), None)
            if (func.attr == "append" and graph_loop is not None and owner in graph_loop[2]
                    and (self.env.get(owner) or Kind("?")).what == "list"):
                mod.report("append-in-graph-loop", node, f"`{owner}.append()` inside a loop over a "
                           "tensor: the appended tensors cannot leave the loop; use "
                           "tf.TensorArray")
            else:
                self._container_mutation(owner, node, f"`.{func.attr}()`")
        elif ctx.graph and isinstance(func, ast.Attribute) and func.attr in _MUTATORS \
                and not self.eager_guard and _self_attribute(func.value) in _init_containers(self.cls):
            mod.report("container-mutation", node, f"`.{func.attr}()` on `self."
                       f"{func.value.attr}`, a Python container made in `__init__`: it runs once "
                       "per trace, not on every call; use a keras.metrics.Mean or a tf.Variable")
        if ctx.kind in ("function", "helper") and self.has_tape:
            self._training_flag(node, func)
        if ctx.graph and isinstance(func, ast.Attribute) and func.attr in KERAS_LOOPS \
                and self._is_model(func.value):
            mod.report("keras-loop-in-graph", node, f"`{_dotted(func)}()` is Keras' own loop and "
                       "fails inside a tf.function; call the model itself: "
                       f"`{_dotted(func.value)}(x, training=False)`")
        self._request_helper(node, func)

    def _host_call(self, node):
        """A call in host code: remember argument kinds for call-site inference, check retraces."""
        mod = self.mod
        func = node.func
        target = mod.tf_functions.get(func.id) or mod.defs.get(func.id)
        if target is None or func.id in self.local_names:
            return
        mod.call_args.setdefault(id(target), []).append(
            [self.kind(a) for a in node.args] + [(kw.arg, self.kind(kw.value)) for kw in node.keywords])
        if func.id not in mod.tf_functions or func.id in mod.relaxed_names or (
                isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef))
                and target.name == func.id and id(target) in mod.no_retrace):
            return
        loop_vars = self._python_loop_vars()
        changing = self._names_changed_in_loops()
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            if isinstance(arg, ast.Name) and arg.id in changing and self.kind(arg) == SCALAR:
                mod.report("python-scalar-arg", node, f"`{func.id}` gets the Python number "
                           f"`{arg.id}`, which changes in the loop: every new value traces the "
                           f"function again; pass tf.constant({arg.id}) or keep it in a "
                           "tf.Variable")
                return
        if not loop_vars:
            return
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            if isinstance(arg, ast.Name) and arg.id in loop_vars:
                mod.report("python-scalar-arg", node, f"`{func.id}` gets the Python number "
                           f"`{arg.id}` from a loop: every new value traces the function again; "
                           f"pass tf.constant({arg.id})")
                return
            if isinstance(arg, ast.Call):
                sub = mod.resolve(arg.func) or ""
                if sub.startswith("tensorflow.") and sub.rsplit(".", 1)[-1] in _NAMED_SHAPE_CTORS:
                    shape_args = arg.args[:2] if sub.endswith(".range") else arg.args[:1]
                    if any(_mentions_name(a, loop_vars) for a in shape_args):
                        mod.report("shape-changing-arg", node, f"`{func.id}` gets a tensor whose "
                                   "shape changes with the loop: every new shape traces the "
                                   "function again; pass an input_signature with None dimensions "
                                   "or reduce_retracing=True")
                        return

    def _names_changed_in_loops(self) -> set[str]:
        names = set()
        for loop, graph_loop, _ in self.loops:
            if graph_loop:
                continue
            for stmt in _walk_stmts(loop.body):
                if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                    names.add(stmt.target.id)
                elif isinstance(stmt, ast.Assign) and any(
                        isinstance(t, ast.Name) and _mentions_name(stmt.value, {t.id})
                        for t in stmt.targets):
                    names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        return names

    def _python_loop_vars(self) -> set[str]:
        names = set()
        for loop, graph_loop, _ in self.loops:
            if graph_loop or not isinstance(loop, ast.For):
                continue
            it = loop.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in (
                    "range", "enumerate"):
                if it.func.id == "range" and isinstance(loop.target, ast.Name):
                    names.add(loop.target.id)
                elif it.func.id == "enumerate" and isinstance(loop.target, ast.Tuple) and \
                        isinstance(loop.target.elts[0], ast.Name):
                    names.add(loop.target.elts[0].id)
            elif isinstance(it, (ast.List, ast.Tuple)) and it.elts and isinstance(loop.target, ast.Name) \
                    and all(_literal_dtype(e) in ("int", "float") for e in it.elts):
                names.add(loop.target.id)
        # a name reassigned in the loop body is no longer the loop's number
        return names

    def e_Compare(self, node):
        if not self.ctx.graph:
            return None
        left = self.kind(node.left)
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)) and _is_tensor(left):
                if isinstance(right, (ast.List, ast.Tuple, ast.Set)) or (
                        self.kind(right) is not None and self.kind(right).what == "list"):
                    self.mod.report("in-list", node, "`in` tests a symbolic tensor against a "
                                    "Python list; use tf.reduce_any(tf.equal(x, [...]))")
                elif self.kind(right) is not None and self.kind(right).what in ("dict", "set"):
                    self.mod.report("unhashable", node, "a symbolic tensor looked up in a dict/set; "
                                    "use a tf.lookup table")
        return None

    def e_BoolOp(self, node):
        if self.ctx.graph and not self.ctx.converted:
            for value in node.values:
                if _is_tensor(self.kind(value)):
                    self._report_bool(value, "`and`/`or`")
                    break
        return None

    def e_UnaryOp(self, node):
        if self.ctx.graph and not self.ctx.converted and isinstance(node.op, ast.Not) and \
                _is_tensor(self.kind(node.operand)):
            self._report_bool(node, "`not`")
        return None

    def e_IfExp(self, node):
        if self.ctx.graph and not self.ctx.converted and _is_tensor(self.kind(node.test)):
            self._report_bool(node.test, "a conditional expression (`a if cond else b`)")
        return None

    def e_Subscript(self, node):
        if self.ctx.graph:
            base = self.kind(node.value)
            if base is not None and base.what == "dict" and _is_tensor(self.kind(node.slice)):
                self.mod.report("unhashable", node, "a symbolic tensor used as a dict key; use a "
                                "tf.lookup table (or `tensor.ref()` as the key)")
            elif base is not None and base.what in ("list", "tuple") and _is_tensor(
                    self.kind(node.slice)):
                self.mod.report("list-index-tensor", node, "a Python list indexed with a "
                                "symbolic tensor fails while tracing; make it a tensor and use "
                                "tf.gather")
        return None

    def e_Dict(self, node):
        if self.ctx.graph:
            for key in node.keys:
                if key is not None and _is_tensor(self.kind(key)):
                    self.mod.report("unhashable", key, "a symbolic tensor used as a dict key; "
                                    "use `tensor.ref()` or a tf.lookup table")
        return None

    def e_JoinedStr(self, node):
        if not self.ctx.graph or self.in_raise or self.in_log:
            return False
        for value in node.values:
            if isinstance(value, ast.FormattedValue) and _is_tensor(self.kind(value.value)):
                if value.format_spec is not None:
                    self.mod.report("format-spec-tensor", node, "a format spec applied to a "
                                    "symbolic tensor fails; use tf.strings.format or tf.print")
                else:
                    self._string_format(node)
                break
        return None

    def e_BinOp(self, node):
        if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            for tensor_side, other in ((node.left, node.right), (node.right, node.left)):
                kind = self.kind(tensor_side)
                if _is_tensor(kind) and kind.dtype == "int" and _literal_dtype(other) == "float" \
                        and isinstance(other, (ast.Constant, ast.UnaryOp)):
                    self.mod.report("float-meets-int", node, "a Python float meets an integer "
                                    "tensor; TensorFlow does not promote dtypes: tf.cast the "
                                    "tensor to float first")
                    break
        if (self.ctx.graph and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant)
                and isinstance(node.left.value, str) and not self.in_raise and not self.in_log):
            right = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            if any(_is_tensor(self.kind(r)) for r in right):
                if _NUMERIC_PERCENT.search(node.left.value):
                    self.mod.report("percent-format-tensor", node, "a numeric %-format (`%d`, "
                                    "`%f`) of a symbolic tensor fails while tracing; use "
                                    "tf.print or tf.strings.format")
                else:
                    self._string_format(node)
        return None

    def e_Yield(self, node):
        if self.ctx.entry and self.ctx.kind in ("function", "data"):
            self.mod.report("yield", node, "a generator cannot be a tf.function (or tf.data "
                            "function); build the result as tensors, or use "
                            "tf.data.Dataset.from_generator")
        return None

    e_YieldFrom = e_Yield

    def e_Name(self, node):
        mod, ctx = self.mod, self.ctx
        if (ctx.graph and ctx.kind in ("function", "helper") and isinstance(node.ctx, ast.Load)
                and node.id in mod.loop_assigned_globals and node.id not in self.local_names
                and id(self.func) not in mod.made_in_loop  # a new function sees the new value
                and node.id not in self.env and node.id not in mod.defs
                and node.id not in mod.classes and node.id not in mod.aliases):
            mod.report("stale-global", node, f"the global `{node.id}` is reassigned in a loop, but "
                       "the traced function keeps the value it saw when it was traced; pass it "
                       "as a tensor argument or keep it in a tf.Variable")
        return None

    def e_NamedExpr(self, node):
        self.expr(node.value)
        if isinstance(node.target, ast.Name):
            self.env[node.target.id] = self.kind(node.value)
        return False

    # ------------------------------------------------------------------ helpers for checks
    def _report_bool(self, node, what, always=False):
        ctx = self.ctx
        if not ctx.graph or (ctx.converted and not always):
            return
        if ctx.kind in ("keras", "metric"):
            where = (f"Keras `{ctx.keras_name or 'call'}`" if ctx.kind == "keras"
                     else "a Keras loss/metric")
            self.mod.report("tensor-bool-keras", node, f"{what} on a symbolic tensor in {where}, "
                            "which Keras traces without AutoGraph; use tf.where/tf.cond "
                            "(or keras.ops.where/cond)")
        else:
            reason = "" if always else " in code AutoGraph does not convert"
            self.mod.report("tensor-bool", node, f"{what} on a symbolic tensor{reason}; use "
                            "tf.where/tf.cond or a TF comparison op")

    def _bool_context(self, test, stmt, what):
        if self.ctx.graph and not self.ctx.converted:
            self._report_bool(test, what)

    def _string_format(self, node):
        if self.in_raise or self.in_log:
            return
        self.mod.report("fstring-tensor", node, "a Python string built from a symbolic tensor "
                        "shows `Tensor(\"...\")`, not its value; use tf.strings.format, "
                        "tf.strings.join or tf.print")

    def _conditional(self) -> bool:
        """Inside an `if` (e.g. `if self.v is None:`) or a `try`? Then stay silent."""
        return self.if_depth > 0

    def _container_mutation(self, owner, node, how):
        if _mentions(node, "executing_eagerly") or self.eager_guard:
            return  # a probe recording whether this ran eagerly, or code that never traces
        if owner in self.assigned or owner in self.local_names or owner in self.env:
            return
        if owner in ("self", "cls") or owner in self.mod.aliases:
            return
        kind = self.mod.env.get(owner)
        closure = _closure_binding(self.mod, self.func, owner)
        if (kind is not None and kind.what in ("list", "dict", "set")) or closure:
            self.mod.report("container-mutation", node, f"{how} on `{owner}`, a Python "
                            "container from outside the traced function: it runs once per "
                            "trace, not on every call; return the values or use a tf.Variable")

    def _is_model(self, node) -> bool:
        """Is ``node`` a name bound to a Keras model (``keras.Sequential(...)``, ...)?"""
        if not isinstance(node, ast.Name):
            return False
        kind = self.env.get(node.id) if node.id in self.env else self.mod.env.get(node.id)
        return kind is not None and kind.what == "model"

    def _training_flag(self, node, func):
        if any(kw.arg == "training" or kw.arg is None for kw in node.keywords):
            return
        if self._is_model(func):
            self.mod.report("keras-training-flag", node, f"Keras model `{func.id}` is called in a "
                            "custom training step without `training=`; pass training=True so "
                            "Dropout/BatchNorm train")

    def _reads_stale_state(self, node) -> bool:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Load) and \
                    sub.attr in self.mod.loop_assigned_attrs:
                return True
            if isinstance(sub, ast.Name) and sub.id in self.mod.loop_assigned_globals and \
                    sub.id not in self.assigned and sub.id not in self.local_names:
                return True
        return False

    def _int_literal_init(self, name) -> bool:
        for stmt in ast.walk(self.func):
            if isinstance(stmt, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                return _literal_dtype(stmt.value) == "int"
        return False

    def _branch_checks(self, node, bound_before, body_assigned, else_assigned):
        mod = self.mod
        if _terminates(node.body) or _terminates(node.orelse):
            return
        used_after = _names_used_after(self.func, node)
        for name in sorted((body_assigned ^ else_assigned) - bound_before):
            if name in used_after and name not in self.local_defs:
                where = "`if`" if name in body_assigned else "`else`"
                mod.report("branch-undefined", node, f"`{name}` is set only in the {where} branch "
                           "of an `if` on a tensor but used after it; define it before the `if` "
                           "(or in both branches)")
                return
        body_shapes, else_shapes = _branch_structures(node.body), _branch_structures(node.orelse)
        for name in sorted(set(body_shapes) & set(else_shapes)):
            a, b = body_shapes[name], else_shapes[name]
            if a is not None and b is not None and a != b:
                mod.report("branch-structure", node, f"the branches of this tensor `if` give "
                           f"`{name}` different structures ({a} vs {b}); return the same "
                           "nesting from both")
                return

    def _loop_shape_checks(self, loop, body, bound_before):
        mod = self.mod
        if any(_mentions(s, "set_loop_options") for s in body):
            return
        for stmt in _walk_stmts(body):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                    stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call):
                name = stmt.targets[0].id
                callee = mod.resolve(stmt.value.func) or ""
                if name in bound_before and callee.startswith("tensorflow.") and \
                        callee.rsplit(".", 1)[-1] in _GRAPH_LOOP_SHAPE_OPS and stmt.value.args and \
                        _mentions_name(stmt.value.args[0], {name}):
                    mod.report("loop-var-grows", stmt, f"`{name}` grows on every iteration of a "
                               "loop over a tensor; declare a shape invariant with "
                               "tf.autograph.experimental.set_loop_options or use tf.TensorArray")

    def _check_data_return(self, value):
        mod = self.mod
        if mod.calls_set_shape:
            return
        name = mod.resolve(value.func) if isinstance(value, ast.Call) else None
        if name in ("tensorflow.py_function", "tensorflow.numpy_function"):
            mod.report("py-function-shape", value, "the dataset element comes from "
                       f"{name.replace('tensorflow', 'tf')}() and has an unknown shape; restore "
                       "it with tf.ensure_shape / set_shape before Keras needs it")

    def _nested_tf_function(self, node):
        mod = self.mod
        decorated = any(mod.is_tf_function(d) for d in node.decorator_list)
        if not decorated:
            return
        if self.loops:
            mod.report("tf-function-in-loop", node, "a tf.function is defined inside a loop: "
                       "each iteration makes a new function that traces again; define it once")
        elif isinstance(self.func, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                self.ctx.graph or self.func.name in mod.called_in_loop) and _called_not_kept(
                self.func, node.name):
            mod.report("tf-function-in-loop", node, f"tf.function `{node.name}` is created anew "
                       "on every call of its enclosing function, and traced again each time; "
                       "define it once, outside")

    def _tf_function_call(self, node):
        mod = self.mod
        func = self.func
        if isinstance(node.func, ast.Call) and isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and not self.loops and (self.ctx.graph or func.name in mod.called_in_loop):
            mod.report("tf-function-in-loop", node, f"tf.function(...) is created and called on "
                       f"every call of `{func.name}`, so it traces every time; create it once, "
                       "outside")
            return
        if self.loops:
            mod.report("tf-function-in-loop", node, "tf.function(...) is called inside a loop: "
                       "each iteration makes a new function that traces again; create it once")

    def _dataset_call(self, node):
        mod = self.mod
        receiver = self.kind(node.func.value)
        if not ((receiver is not None and receiver.what == "dataset") or any(
                kw.arg in ("num_parallel_calls", "deterministic") for kw in node.keywords)):
            return
        fn = _resolve_fn(mod, node.args[0], self)
        if fn is not None:
            params = {a.arg: TENSOR for a in _all_args(fn.args) if a.arg not in ("self", "cls")}
            mod.entries.append((fn, Context(True, True, "data", entry=True), params))

    def _compile_call(self, node):
        mod = self.mod
        for kw in node.keywords:
            if kw.arg not in ("loss", "metrics", "weighted_metrics"):
                continue
            values = kw.value.elts if isinstance(kw.value, (ast.List, ast.Tuple)) else (
                kw.value.values if isinstance(kw.value, ast.Dict) else [kw.value])
            for value in values:
                fn = _resolve_fn(mod, value, self) if isinstance(value, (ast.Name, ast.Lambda)) else None
                if fn is not None:
                    params = {a.arg: TENSOR for a in _all_args(fn.args)[:2]}
                    mod.entries.append((fn, Context(True, False, "metric", entry=True), params))

    def _request_helper(self, node, func):
        mod = self.mod
        target = None
        if isinstance(func, ast.Name):
            if func.id in self.local_defs:
                target = self.local_defs[func.id]
            elif func.id not in self.env and func.id in mod.defs:
                target = mod.defs[func.id]
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == "self" and self.cls is not None:
            target = _method(self.cls, func.attr)
        if target is None or target is self.func:
            return
        if isinstance(target, ast.Lambda):
            params = [a.arg for a in _all_args(target.args)]
        else:
            params = [a.arg for a in _all_args(target.args)]
            if params and params[0] in ("self", "cls") and isinstance(func, ast.Attribute):
                params = params[1:]
        kinds = {}
        for pname, arg in zip(params, node.args):
            kinds[pname] = self.kind(arg)
        for kw in node.keywords:
            if kw.arg in params:
                kinds[kw.arg] = self.kind(kw.value)
        ctx = dataclasses.replace(self.ctx, entry=False,
                                  kind="helper" if self.ctx.kind == "function" else self.ctx.kind)
        self.requests.append((target, ctx, kinds))


# --------------------------------------------------------------------------- small helpers

def _all_args(args: ast.arguments):
    return [*args.posonlyargs, *args.args, *([args.vararg] if args.vararg else []),
            *args.kwonlyargs, *([args.kwarg] if args.kwarg else [])]


def _dotted(node) -> str:
    """``a.b.c`` for an attribute chain rooted at a name, else ""."""
    parts, rooted = attribute_chain(node)
    return ".".join(parts) if rooted else ""


def _falsy_constant(mod, test) -> bool:
    """Is ``test`` a flag that is off for good: a module name bound once to False/None/0/""
    (``DEBUG``), or such a class attribute read through a module-level instance
    (``cfg.keep_history`` with ``cfg = Config()``), that nothing rebinds?"""
    if isinstance(test, ast.Name):
        value = _single_binding(mod.tree.body, test.id)
        return isinstance(value, ast.Constant) and not value.value \
            and test.id not in mod.loop_assigned_globals and test.id not in mod.declared_globals
    if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name):
        instance = _single_binding(mod.tree.body, test.value.id)
        cls = mod.classes.get(getattr(getattr(instance, "func", None), "id", None))
        value = _single_binding(cls.body, test.attr) if cls is not None else None
        return isinstance(value, ast.Constant) and not value.value \
            and test.attr not in mod.stored_attrs
    return False


def _single_binding(body, name):
    """The value of the one ``name = value`` among ``body``'s statements, else None."""
    values = [stmt.value for stmt in body if isinstance(stmt, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)]
    return values[0] if len(values) == 1 else None


def _mentions(node, attr: str) -> bool:
    return any((isinstance(n, ast.Attribute) and n.attr == attr) or (
        isinstance(n, ast.Name) and n.id == attr) for n in ast.walk(node))


def _mentions_name(node, names) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _handler_names(node):
    if node is None:
        return []
    if isinstance(node, ast.Tuple):
        return list(node.elts)
    return [node]


def _terminates(body) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _walk_stmts(body):
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _walk_stmts(getattr(stmt, field, []) or [])
        for handler in getattr(stmt, "handlers", []) or []:
            yield from _walk_stmts(handler.body)


def _locally_bound(func) -> set[str]:
    """Names the function binds itself (Python's rule: assigned anywhere => local)."""
    names = {a.arg for a in _all_args(func.args)}
    declared = set()
    body = func.body if isinstance(func.body, list) else []
    for stmt in _walk_stmts(body):
        if isinstance(stmt, (ast.Global, ast.Nonlocal)):
            declared.update(stmt.names)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
            continue
        targets = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            targets = [stmt.target]
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            targets = [stmt.target]
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
        for target in targets:  # `d[k] = v` / `o.a = v` bind nothing: `d` and `o` stay free
            for n in ast.walk(target):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    names.add(n.id)
    return names - declared


def _closure_binding(mod, func, name) -> bool:
    """Is ``name`` a local of a function enclosing ``func`` (a closure variable)?"""
    parent = mod.parent_func.get(id(func))
    while parent is not None:
        if name in _locally_bound(parent):
            return True
        parent = mod.parent_func.get(id(parent))
    return False


def _names_used_after(func, node) -> set[str]:
    end = getattr(node, "end_lineno", node.lineno)
    return {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            and n.lineno > end}


def _branch_structures(body) -> dict:
    out = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Name):
            value = stmt.value
            if isinstance(value, (ast.Tuple, ast.List)):
                out[stmt.targets[0].id] = f"a {len(value.elts)}-tuple"
            elif isinstance(value, (ast.Name, ast.BinOp, ast.UnaryOp)) or (
                    isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                    and _dotted(value.func).startswith(("tf.", "tensorflow."))):
                out[stmt.targets[0].id] = "a single tensor"
            else:
                out[stmt.targets[0].id] = None
    return out


def _called_not_kept(outer, name) -> bool:
    """Is the nested function ``name`` only called in ``outer`` (not returned, stored, passed)?"""
    callees = {id(n.func) for n in ast.walk(outer) if isinstance(n, ast.Call)}
    uses = [n for n in ast.walk(outer) if isinstance(n, ast.Name) and n.id == name
            and isinstance(n.ctx, ast.Load)]
    return bool(uses) and all(id(n) in callees for n in uses)


def _self_attribute(node) -> str | None:
    """``"history"`` for ``self.history``; None for anything else."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _init_containers(cls: ast.ClassDef | None) -> set[str]:
    """Attributes that ``cls.__init__`` sets to a new list/dict/set (``self.history = []``)."""
    init = _method(cls, "__init__") if cls is not None else None
    names = set()
    for stmt in ast.walk(init) if init is not None else ():
        if isinstance(stmt, ast.Assign) and (
                isinstance(stmt.value, (ast.List, ast.Dict, ast.Set)) or (
                    isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
                    and stmt.value.func.id in ("list", "dict", "set") and not stmt.value.args)):
            names.update(filter(None, (_self_attribute(t) for t in stmt.targets)))
    return names


def _method(cls: ast.ClassDef, name: str):
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            return stmt
    return None


def _resolve_fn(mod, node, walker=None):
    if isinstance(node, ast.Lambda):
        return node
    if isinstance(node, ast.Name):
        if walker is not None and node.id in walker.local_defs:
            return walker.local_defs[node.id]
        return mod.defs.get(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
            and walker is not None and walker.cls is not None:
        return _method(walker.cls, node.attr)
    return None


def _keras_class_kind(mod, cls, seen=None) -> str | None:
    """'model' or 'layer' for Keras subclasses (also through same-module bases), else None."""
    seen = seen or set()
    if cls.name in seen:
        return None
    seen.add(cls.name)
    for base in cls.bases:
        name = mod.resolve(base) or ""
        if name.startswith("keras."):
            leaf = name.rsplit(".", 1)[-1]
            if leaf in ("Model", "Sequential", "Functional"):
                return "model"
            if leaf == "Layer" or name.startswith("keras.layers."):
                return "layer"
        if isinstance(base, ast.Name) and base.id in mod.classes:
            found = _keras_class_kind(mod, mod.classes[base.id], seen)
            if found:
                return found
    return None


# --------------------------------------------------------------------------- module driver

def _index(mod: _Module) -> None:
    """One walk over the tree: imports, functions, classes, calls and loop facts."""
    aliases = {}
    stack = [(mod.tree, None, None, False)]
    while stack:
        node, cls, func, in_loop = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                if isinstance(child, ast.Call):
                    mod.calls.append((child, func))
                    if in_loop:
                        callee = child.func
                        mod.called_in_loop.add(callee.attr if isinstance(callee, ast.Attribute)
                                               else getattr(callee, "id", ""))
                elif isinstance(child, ast.Attribute):
                    if child.attr in ("set_shape", "ensure_shape"):
                        mod.calls_set_shape = True
                    if isinstance(child.ctx, ast.Store):
                        mod.stored_attrs.add(child.attr)
                elif isinstance(child, ast.Lambda):
                    mod.lambdas.setdefault(child.lineno, []).append(child)
                    if in_loop:
                        mod.made_in_loop.add(id(child))
                    if cls is not None:
                        mod.parent_class[id(child)] = cls
                    if func is not None:
                        mod.parent_func[id(child)] = func
                    stack.append((child, None, child, False))
                    continue
                stack.append((child, cls, func, in_loop))
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                mod.functions.append(child)
                if in_loop:
                    mod.made_in_loop.add(id(child))
                if cls is not None:
                    mod.parent_class[id(child)] = cls
                if func is not None:
                    mod.parent_func[id(child)] = func
                    if child.decorator_list:
                        mod.hosts_nested_tf.add(id(func))
                elif cls is None:
                    mod.defs[child.name] = child
                stack.append((child, None, child, False))
                continue
            if isinstance(child, ast.ClassDef):
                if func is None and cls is None:
                    mod.classes[child.name] = child
                stack.append((child, child, func, in_loop))
                continue
            if isinstance(child, ast.Global):
                mod.declared_globals.update(child.names)
            if isinstance(child, ast.Import):
                for a in child.names:
                    if a.asname:
                        aliases[a.asname] = a.name
                    else:
                        aliases[a.name.split(".")[0]] = a.name.split(".")[0]
            elif isinstance(child, ast.ImportFrom):
                if child.module and not child.level:
                    for a in child.names:
                        aliases[a.asname or a.name] = f"{child.module}.{a.name}"
                elif child.module and "keras" in child.module:  # relative imports in keras itself
                    for a in child.names:
                        aliases.setdefault(a.asname or a.name, f"keras.{child.module}.{a.name}")
            elif in_loop and isinstance(child, (ast.Assign, ast.AugAssign)):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and not (
                            isinstance(t.value, ast.Name) and t.value.id == "self"):
                        mod.loop_assigned_attrs.add(t.attr)
                    elif isinstance(t, ast.Name) and func is None:
                        mod.loop_assigned_globals.add(t.id)
            stack.append((child, cls, func, in_loop or isinstance(child, (ast.For, ast.While,
                                                                          ast.AsyncFor))))
    mod.aliases = {k: _canonical(v) for k, v in aliases.items()}
    mod.functions.sort(key=lambda f: (f.lineno, f.col_offset))
    # module-level names bound to lambdas: `relu = lambda x: ...`, `a, b = (lambda...), (lambda...)`
    for stmt in mod.tree.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                pairs = [(target, stmt.value)]
                if isinstance(target, ast.Tuple) and isinstance(stmt.value, ast.Tuple) and len(
                        target.elts) == len(stmt.value.elts):
                    pairs = list(zip(target.elts, stmt.value.elts))
                for t, v in pairs:
                    if isinstance(t, ast.Name) and isinstance(v, ast.Lambda):
                        mod.defs[t.id] = v


def _module_env(mod: _Module) -> None:
    """Kinds of module-level names, and the names bound to tf.function objects."""
    walker = _Walker(mod, mod.tree, Context(False, False, "host"))
    relaxed: dict[str, bool] = {}
    for stmt in _walk_stmts(mod.tree.body):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and \
                mod.is_tf_function(stmt.value):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    relaxed[target.id] = relaxed.get(target.id, True) and any(
                        kw.arg in ("input_signature", "reduce_retracing")
                        for kw in stmt.value.keywords)
                    fn = _resolve_fn(mod, stmt.value.args[0]) if stmt.value.args else None
                    if fn is not None:
                        mod.tf_functions[target.id] = fn
    mod.relaxed_names = {name for name, ok in relaxed.items() if ok}
    for stmt in mod.tree.body:
        if isinstance(stmt, ast.Assign):
            walker.cache.clear()
            try:
                kind = walker.kind(stmt.value)
            except RecursionError:
                kind = None
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    mod.env[target.id] = _join(mod.env[target.id], kind) if target.id in mod.env else kind
                    if isinstance(stmt.value, ast.Call) and mod.is_tf_function(stmt.value) and \
                            stmt.value.args:
                        fn = _resolve_fn(mod, stmt.value.args[0])
                        if fn is not None:
                            mod.tf_functions[target.id] = fn


def _decorator_entry(mod: _Module, func) -> Context | None:
    for dec in func.decorator_list:
        if mod.is_tf_function(dec):
            converted = True
            if isinstance(dec, ast.Call):
                for kw in dec.keywords:
                    if kw.arg == "autograph" and isinstance(kw.value, ast.Constant) and \
                            kw.value.value is False:
                        converted = False
                    if kw.arg in ("input_signature", "reduce_retracing"):
                        mod.no_retrace.add(id(func))
            return Context(True, converted, "function", entry=True)
    return None


def _find_entries(mod: _Module) -> None:
    for node in mod.functions:
        ctx = _decorator_entry(mod, node)
        cls = mod.parent_class.get(id(node))
        keras = _keras_class_kind(mod, cls) if cls is not None else None
        if ctx is not None:
            if keras and node.name == "call":
                dec = next(d for d in node.decorator_list if mod.is_tf_function(d))
                mod.report("keras-call-tf-function", dec, "`@tf.function` on a Keras `call`: "
                           "Keras already compiles the step; remove the decorator (use "
                           "jit_compile= or run_eagerly= on compile)")
            params = {}
            if any(isinstance(d, ast.Call) and any(kw.arg == "input_signature" for kw in d.keywords)
                   for d in node.decorator_list):
                params = {a.arg: TENSOR for a in _all_args(node.args) if a.arg not in ("self", "cls")}
            mod.entries.append((node, ctx, params))
            if cls is None and mod.parent_func.get(id(node)) is None:
                mod.tf_functions[node.name] = node
        elif keras and node.name in _KERAS_TRACED_METHODS:
            mod.entries.append((node, Context(True, False, "keras", entry=True,
                                              keras_name=node.name), {}))
    for node, _ in mod.calls:
        if mod.is_tf_function(node) and node.args:
            fn = node.args[0]
            target = _resolve_fn(mod, fn)
            if target is None and isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) \
                    and fn.value.id == "self":
                for cls in mod.classes.values():
                    if node.lineno >= cls.lineno and node.end_lineno <= cls.end_lineno:
                        target = _method(cls, fn.attr)
            if target is not None:
                converted = not any(kw.arg == "autograph" and isinstance(kw.value, ast.Constant)
                                    and kw.value.value is False for kw in node.keywords)
                mod.entries.append((target, Context(True, converted, "function", entry=True), {}))


def _shared_lambda_lines(mod: _Module) -> None:
    entry_ids = {id(fn) for fn, ctx, _ in mod.entries if ctx.converted}
    for line, group in mod.lambdas.items():
        if len(group) < 2:
            continue
        for lam in group:
            signature = ast.dump(lam.args)
            if id(lam) in entry_ids and sum(ast.dump(o.args) == signature for o in group) > 1:
                mod.report("shared-lambda-line", lam, "two lambdas with the same arguments share "
                           "this line, so AutoGraph cannot find this one's source and runs it "
                           "unconverted; put it on its own line or use def")
                break


def _call_site_params(mod: _Module, fn, params: dict) -> dict:
    """Parameters that every host call site passes a tensor for (and no site contradicts)."""
    sites = mod.call_args.get(id(fn))
    if not sites or isinstance(fn, ast.Lambda):
        return params
    names = [a.arg for a in _all_args(fn.args)]
    out = dict(params)
    for i, pname in enumerate(names):
        if pname in out:
            continue
        kinds = []
        for site in sites:
            positional = [k for k in site if not isinstance(k, tuple)]
            keyword = dict(k for k in site if isinstance(k, tuple))
            kinds.append(positional[i] if i < len(positional) else keyword.get(pname))
        if kinds and all(_is_tensor(k) for k in kinds):
            dtypes = {k.dtype for k in kinds}
            out[pname] = Kind("tensor", dtypes.pop() if len(dtypes) == 1 else None)
    return out


def _host_functions(mod: _Module) -> list:
    """Functions whose plain-Python body matters: they build datasets, compile models, make
    or call tf.functions (call-site inference, retracing checks)."""
    wanted = set(mod.hosts_nested_tf)
    names = set(mod.defs) | set(mod.tf_functions)
    for call, func in mod.calls:
        if func is None or id(func) in wanted or isinstance(func, ast.Lambda):
            continue
        callee = call.func
        if isinstance(callee, ast.Attribute):
            if callee.attr in _DATASET_FN_METHODS or callee.attr == "compile" or \
                    callee.attr == "function":
                wanted.add(id(func))
        elif isinstance(callee, ast.Name) and (callee.id in names or callee.id in mod.aliases):
            wanted.add(id(func))
    return [f for f in mod.functions if id(f) in wanted]


def analyse(tree: ast.Module, path: str, lines: list[str]) -> list[LintFinding]:
    """All findings in one parsed module (unsuppressed, unfiltered)."""
    mod = _Module(tree, path, lines)
    _index(mod)
    if not any(v.startswith(("tensorflow", "keras")) for v in mod.aliases.values()):
        return []
    _module_env(mod)
    _find_entries(mod)
    # host pass: the module body and every function, as plain Python
    host = _Walker(mod, tree, Context(False, False, "host"))
    host.local_names = set()
    host.block(tree.body)
    for node in _host_functions(mod):
        _Walker(mod, node, Context(False, False, "host")).run()
    _shared_lambda_lines(mod)
    # graph pass: entries, then the helpers they call (each function at most a few times)
    queue = [(fn, ctx, _call_site_params(mod, fn, params) if ctx.kind == "function" else params)
             for fn, ctx, params in mod.entries]
    done: dict[tuple, int] = {}
    while queue:
        fn, ctx, params = queue.pop(0)
        key = (id(fn), ctx.converted, ctx.kind, ctx.entry,
               tuple(sorted((k, v) for k, v in params.items() if v is not None)))
        per_fn = sum(1 for k in done if k[0] == id(fn))
        if key in done or per_fn >= 4:
            continue
        done[key] = 1
        walker = _Walker(mod, fn, ctx, params).run()
        queue.extend(walker.requests)
    return sorted(mod.findings.values())


# --------------------------------------------------------------------------- files & options

@dataclasses.dataclass
class Options:
    """What to check: ``select``/``ignore`` hold recipe ids, id prefixes or categories."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    jobs: int = 0

    def wants(self, code: str, category: str | None) -> bool:
        def hit(patterns):
            return any(code.startswith(p) or p == category for p in patterns)
        if code in (READ_ERROR, SYNTAX_ERROR, INTERNAL_ERROR):
            return not hit(self.ignore) or not self.ignore
        if self.select and not hit(self.select):
            return False
        return not hit(self.ignore)


def check_selectors(values, what: str) -> tuple[str, ...]:
    """Validate --select/--ignore values: recipe ids, id prefixes (``TFD1``) or categories."""
    from .recipebook import CATEGORIES

    out = []
    known_codes = {code for code, _ in CHECKS.values()} | {READ_ERROR, SYNTAX_ERROR, INTERNAL_ERROR}
    for raw in values:
        for value in (v.strip() for v in str(raw).split(",")):
            if not value:
                continue
            upper = value.upper()
            if upper in ("ALL",):
                out.append("TFD")
            elif value in CATEGORIES:
                out.append(value)
            elif upper.startswith(("TFD", "E9")) and any(c.startswith(upper) for c in known_codes):
                out.append(upper)
            elif re.fullmatch(r"TFD\d{3}", upper):
                out.append(upper)  # a real recipe id that lint does not check: harmless
            else:
                raise LintUsageError(
                    f"{what}: {value!r} is neither a recipe id (like TFD101), an id prefix "
                    f"(like TFD1) nor a category (like tensor-as-bool); "
                    f"`tfdebug recipes` lists them")
    return tuple(out)


def suppressed(line_text: str, code: str, category: str | None) -> bool:
    """Does the source line carry ``# noqa[: CODES]`` or ``# tfdebug: ignore[CODES]`` for code?"""
    if "#" not in line_text:
        return False
    for pattern in (_IGNORE, _NOQA):
        m = pattern.search(line_text)
        if m:
            codes = m.group("codes")
            if not codes:
                return True
            wanted = {c.strip() for c in re.split(r"[\s,]+", codes) if c.strip()}
            if code in {c.upper() for c in wanted} or (category and category in wanted):
                return True
    return False


def read_source(path: str) -> tuple[str | None, LintFinding | None]:
    """The text of ``path`` (PEP 263 encoding, default UTF-8), or a finding saying why not."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return None, LintFinding(path, 1, 1, READ_ERROR, f"cannot read file: {exc.strerror or exc}")
    try:
        import io
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, LookupError) as exc:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            line = data[:bad.start].count(b"\n") + 1
            return None, LintFinding(path, line, 1, READ_ERROR,
                                     f"not valid utf-8 text (byte 0x{data[bad.start]:02x}); "
                                     "save the file as UTF-8 or declare its encoding")
        return None, LintFinding(path, 1, 1, READ_ERROR, f"bad encoding declaration: {exc}")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        return None, LintFinding(path, line, 1, READ_ERROR,
                                 f"not valid {exc.encoding} text (byte 0x{data[exc.start]:02x}); "
                                 "save the file as UTF-8 or declare its encoding")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None


def lint_source(source: str, path: str = "<string>", header: str = "") -> list[LintFinding]:
    """Findings for ``source`` (syntax errors become an E999 finding; never raises).

    ``header`` is prepended (e.g. imports) and line numbers are those of ``source``.
    """
    offset = header.count("\n")
    text = header + source
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError) as exc:
        line = max(1, (getattr(exc, "lineno", None) or 1 + offset) - offset)
        col = getattr(exc, "offset", None) or 1
        return [LintFinding(path, line, col, SYNTAX_ERROR,
                            f"SyntaxError: {getattr(exc, 'msg', None) or exc}")]
    except (RecursionError, MemoryError) as exc:
        return [LintFinding(path, 1, 1, SYNTAX_ERROR, f"cannot parse: {type(exc).__name__}")]
    lines = text.splitlines()
    try:
        findings = analyse(tree, path, lines)
    except Exception as exc:  # a checker bug must not stop the run: report it, keep going
        log.debug("tfdebug lint: internal error on %s", path, exc_info=True)
        return [LintFinding(path, 1, 1, INTERNAL_ERROR,
                            f"tfdebug could not check this file ({type(exc).__name__}: {exc}); "
                            "please report it")]
    out = []
    for f in findings:
        text_line = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
        if suppressed(text_line, f.code, f.category):
            continue
        out.append(dataclasses.replace(f, line=f.line - offset) if offset else f)
    return out


def lint_file(path: str) -> list[LintFinding]:
    text, problem = read_source(path)
    if problem is not None:
        return [problem]
    return lint_source(text, path)


def _excluded(relpath: str, patterns) -> bool:
    """flake8's rule: a pattern matches the base name or the path (relative to the argument)."""
    norm = relpath.replace(os.sep, "/")
    name = norm.rstrip("/").rsplit("/", 1)[-1]
    for pattern in patterns:
        p = pattern.rstrip("/").removeprefix("./")
        if fnmatch.fnmatch(name, p) or fnmatch.fnmatch(norm, p) or fnmatch.fnmatch(norm, p + "/*"):
            return True
    return False


def collect_files(paths, exclude=()) -> list[str]:
    """The .py files under ``paths`` (files given by name are always kept)."""
    patterns = tuple(DEFAULT_EXCLUDE) + tuple(exclude)
    files = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                rel = os.path.relpath(root, path)
                rel = "" if rel == "." else rel + "/"
                dirs[:] = sorted(d for d in dirs if not _excluded(rel + d, patterns))
                for name in sorted(names):
                    if name.endswith((".py", ".pyi")) and not _excluded(rel + name, patterns):
                        files.append(os.path.normpath(os.path.join(root, name)))
        elif os.path.exists(path):
            files.append(path)
        else:
            raise LintUsageError(f"{path}: no such file or directory")
    return files


def lint_paths(paths, options: Options | None = None) -> list[LintFinding]:
    """Lint files and folders; returns the selected, unsuppressed findings, sorted.

    Example::

        findings = lint_paths(["src/"], Options(select=("tensor-as-bool",)))
    """
    options = options or Options()
    files = collect_files(paths, options.exclude)
    jobs = options.jobs or (min(os.cpu_count() or 1, 8) if len(files) >= 64 else 1)
    results: list[LintFinding] = []
    if jobs > 1 and len(files) > 1:
        import multiprocessing

        chunk = max(1, len(files) // (jobs * 8))
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        with multiprocessing.get_context(method).Pool(jobs) as pool:
            for found in pool.imap(lint_file, files, chunksize=chunk):
                results.extend(found)
    else:
        for path in files:
            results.extend(lint_file(path))
    return sorted(f for f in results if options.wants(f.code, f.category))


# --------------------------------------------------------------------------- configuration

def load_config(start: str | None = None) -> tuple[dict, str | None]:
    """``[tool.tfdebug]`` of the nearest pyproject.toml at or above ``start`` (default: cwd)."""
    import tomllib

    folder = os.path.abspath(start or os.getcwd())
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            try:
                with open(candidate, "rb") as fh:
                    data = tomllib.load(fh)
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise LintUsageError(f"{candidate}: cannot read [tool.tfdebug]: {exc}") from None
            section = data.get("tool", {}).get("tfdebug", {})
            if not isinstance(section, dict):
                raise LintUsageError(f"{candidate}: [tool.tfdebug] must be a table")
            return section, candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return {}, None
        folder = parent


def options_from(config: dict, source: str | None, select=None, ignore=None, exclude=None,
                 jobs: int = 0) -> Options:
    """Merge ``[tool.tfdebug]`` with command-line values (the command line wins per key)."""
    def listed(key):
        value = config.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise LintUsageError(f"{source}: [tool.tfdebug] {key} must be a list of strings, "
                                 f"like {key} = [\"TFD101\", \"retracing\"]")
        return value
    where = f"{source} [tool.tfdebug]"
    sel = check_selectors(select if select else listed("select"),
                          "--select" if select else f"{where} select")
    ign = check_selectors(ignore if ignore else listed("ignore"),
                          "--ignore" if ignore else f"{where} ignore")
    exc = tuple(exclude) if exclude else tuple(listed("exclude"))
    return Options(select=sel, ignore=ign, exclude=exc, jobs=jobs)


def render(findings, fmt: str = "text") -> str:
    """Findings as flake8-style text lines or as a JSON array."""
    if fmt == "json":
        return json.dumps([f.to_json() for f in findings], indent=2)
    return "\n".join(f.text() for f in findings)


def main(paths, fmt="text", select=None, ignore=None, exclude=None, jobs=0, config=None,
         out=None, err=None) -> int:
    """``tfdebug lint``: print findings; 0 when clean, 1 with findings, 2 on usage errors."""
    import sys

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        if config:
            if not os.path.isfile(config):
                raise LintUsageError(f"--config {config}: no such file")
            section, source = load_config(os.path.dirname(os.path.abspath(config)))
            if os.path.abspath(source or "") != os.path.abspath(config):
                import tomllib
                with open(config, "rb") as fh:
                    section = tomllib.load(fh).get("tool", {}).get("tfdebug", {})
                source = config
        else:
            section, source = load_config()
        options = options_from(section, source, select, ignore, exclude, jobs)
        findings = lint_paths(paths or ["."], options)
    except LintUsageError as exc:
        print(f"tfdebug lint: error: {exc}", file=err)
        return 2
    text = render(findings, fmt)
    if text:
        print(text, file=out)
    if fmt == "text" and findings:
        n = len(findings)
        print(f"Found {n} problem{'s' if n != 1 else ''}.", file=err)
    return 1 if findings else 0
