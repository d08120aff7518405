"""Generate the linter's table of TensorFlow and Keras API facts from the installed packages.

For every public callable of the API namespaces the linter reasons about (``tf``, ``tf.math``,
``tf.linalg``, ``tf.nn``, ... and ``keras.ops``), it asks TensorFlow itself what a call gives:
each function is called in a scratch ``tf.Graph`` on placeholder tensors (graph building only:
nothing runs), with every arity its signature allows up to three tensors and with several
dtypes, and the result is classified:

- ``kind``: ``tensor`` (one ``tf.Tensor``), ``tuple`` (a fixed-size tuple or named tuple of
  tensors, ``n`` of them), ``tensors`` (a list whose length follows the input), ``value`` (a
  Python value: bool, shape, dtype, NumPy array...), ``dataset``, ``variable``, ``op`` (a graph
  ``Operation``), ``composite`` (sparse/ragged), ``object``;
- ``dtype``: per number of tensor arguments, the result's dtype when it is static (``int64``),
  or ``@i`` when it is the dtype of positional argument ``i`` (checked by swapping float32 for
  float64 and int32 for int64: a result that follows is ``@i``);
- ``dtype_param``: ``[name, position, default]`` when a ``dtype``/``out_type``/``output_type``
  parameter sets the result's dtype (``tf.shape`` int32 unless ``out_type=`` says otherwise).

Classes get their kind from their bases (a ``tf.data.Dataset`` subclass is a dataset, a
``keras.Model`` subclass a model, ``keras.losses.Loss`` a loss). ``keras.applications``
functions are read from their source (they build and return a ``Functional`` model).

Functions whose probes all fail are left out: the linter treats a name it does not find as
unknown, and unknown never fires a check.

Usage::

    python tools/tf_api.py            # compare with the committed table; exit 1 when it drifts
    python tools/tf_api.py --update   # rewrite tfdebug/lint/tf_api.json
    python tools/tf_api.py --cache    # compare, reusing the table generated from the same inputs

``--cache`` keeps a generated table that matched the committed one in
``$XDG_CACHE_HOME/tfdebug/tf_api`` (default ``~/.cache``), under a key of everything the
table is generated from: this file, the
linter's dtype parameter names, the Python version, the ``TF_*``/``KERAS_*`` environment,
Keras' config file, and every installed distribution's name, version and ``RECORD`` (the
hash of each of its files): installing, upgrading or removing any package, or editing this
generator, makes a new key and a full regeneration. The comparison with the committed table
is made every time, and a kept table that no longer matches it is dropped (the next run
generates it again).
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import sys
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")
HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(os.path.dirname(HERE), "tfdebug", "lint", "tf_api.json")

# Namespaces whose functions are probed (canonical dotted names, as the linter spells them).
TF_MODULES = ("", "math", "linalg", "nn", "random", "strings", "signal", "image", "bitwise",
              "dtypes", "io", "sparse", "ragged", "data", "experimental.numpy", "debugging",
              "audio", "quantization")
KERAS_MODULES = ("ops", "ops.numpy", "ops.nn", "ops.math", "ops.linalg", "ops.image",
                 "losses", "activations", "random")
# Namespaces whose classes are recorded by kind (their functions are not probed).
CLASS_MODULES = ("keras", "keras.layers", "keras.losses", "keras.metrics", "keras.optimizers",
                 "keras.models", "keras.applications")
# Functions with process-wide effects or that wait on something: never called.
NEVER_CALL = {"tensorflow.random.set_seed", "tensorflow.compat", "tensorflow.load_library",
              "tensorflow.load_op_library", "tensorflow.register_tensor_conversion_function",
              "tensorflow.io.gfile", "tensorflow.debugging.enable_check_numerics",
              "tensorflow.debugging.disable_check_numerics",
              "tensorflow.debugging.set_log_device_placement",
              "tensorflow.debugging.enable_traceback_filtering",
              "tensorflow.debugging.disable_traceback_filtering",
              "tensorflow.experimental.numpy.experimental_enable_numpy_behavior",
              "keras.random.SeedGenerator"}
sys.path.insert(0, os.path.dirname(HERE))
from tfdebug.lint.apis import DTYPE_PARAMS  # noqa: E402 - the linter reads the same names
DTYPES = ("float32", "int32", "bool", "string")
WIDER = {"float32": "float64", "int32": "int64"}
SHAPES = (None, (2, 2), (2, 2, 2, 2))
# first parameters that take a list of tensors, and parameters that take a list of axes
LIST_PARAMS = ("t_list", "values", "tensors", "inputs", "xs", "elems", "arrays", "x_list")
AXES_PARAMS = ("axes", "axis", "perm", "begin_mask")


def _tf():
    warnings.filterwarnings("ignore")
    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")
    # a refused probe's traceback is never read: TensorFlow's filtering of it at each of its
    # decorators (about a sixth of a refusal's cost) is skipped; what a call builds or raises
    # is the same
    tf.debugging.disable_traceback_filtering()
    return tf


def _namespaces():
    """``(canonical prefix, module object)`` for every probed namespace."""
    tf = _tf()
    import keras

    out = []
    for sub in TF_MODULES:
        obj = tf
        for part in filter(None, sub.split(".")):
            obj = getattr(obj, part, None)
        if obj is not None:
            out.append(("tensorflow" + ("." + sub if sub else ""), obj))
    for sub in KERAS_MODULES:
        obj = keras
        for part in sub.split("."):
            obj = getattr(obj, part, None)
        if obj is not None:
            out.append(("keras." + sub, obj))
    return out


def _classify(value, tf) -> tuple[str, int | None]:
    """The kind of one call's result, and for a tuple its length."""
    if isinstance(value, tf.Tensor):
        return "tensor", None
    if isinstance(value, tf.Variable):
        return "variable", None
    if isinstance(value, tf.data.Dataset):
        return "dataset", None
    if isinstance(value, tf.Operation):
        return "op", None
    if isinstance(value, (tf.SparseTensor, tf.RaggedTensor, tf.IndexedSlices)):
        return "composite", None
    if isinstance(value, tuple) and value:
        return "tuple", len(value)
    if isinstance(value, list) and value and all(isinstance(v, tf.Tensor) for v in value):
        return "tensors", None
    if value is None or isinstance(value, (bool, int, float, str, bytes, tf.TensorShape,
                                           tf.DType, list, dict, set)):
        return "value", None
    if type(value).__module__.startswith("numpy"):
        return "value", None
    return "object", None


def _dtypes_of(value, tf) -> tuple | None:
    """The result's dtype names: one for a tensor, one per element for a tuple."""
    if isinstance(value, tf.Tensor):
        return (value.dtype.name,)
    if isinstance(value, tuple) and all(isinstance(v, tf.Tensor) for v in value):
        return tuple(v.dtype.name for v in value)
    return None


def _positional(fn) -> tuple[list[str], int, dict]:
    """Positional parameter names (before ``name``), how many are required, and the
    dtype-setting parameters with their positions and defaults."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return [], 0, {}, False
    names, required, dtype_params = [], 0, {}
    varargs = any(p.kind == p.VAR_POSITIONAL for p in sig.parameters.values())
    for i, p in enumerate(sig.parameters.values()):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            break
        if p.name in DTYPE_PARAMS:
            default = p.default if p.default is not p.empty else None
            dtype_params[p.name] = (i if p.kind != p.KEYWORD_ONLY else None,
                                    getattr(default, "name", None), p.default is p.empty)
            break
        if p.name == "name" or p.kind == p.KEYWORD_ONLY:
            break
        names.append(p.name)
        if p.default is p.empty:
            required += 1
    for p in sig.parameters.values():  # a dtype parameter after the others
        if p.name in DTYPE_PARAMS and p.name not in dtype_params:
            default = p.default if p.default is not p.empty else None
            pos = list(sig.parameters).index(p.name)
            dtype_params[p.name] = (pos if p.kind not in (p.KEYWORD_ONLY,) else None,
                                    getattr(default, "name", None), p.default is p.empty)
    return names, required, dtype_params, varargs


def _args(spec, shape, tf, placeholders=None):
    """Placeholders for ``spec``: a dtype name, ``list:DTYPE`` (a list of two tensors) or
    ``axes`` (the Python list ``[0]``). With ``placeholders`` (a dict per scratch graph), each
    placeholder is made once per position, dtype and shape and given to every probe that
    asks for it (a probe gets a new list, the same tensors)."""
    def placeholder(key, dtype):
        if placeholders is None:
            return tf.compat.v1.placeholder(getattr(tf, dtype), shape=shape)
        if key not in placeholders:
            placeholders[key] = tf.compat.v1.placeholder(getattr(tf, dtype), shape=shape)
        return placeholders[key]

    out = []
    for i, d in enumerate(spec):
        if d == "axes":
            out.append([0])
        elif d.startswith("list:"):
            out.append([placeholder((i, j, d, shape), d[5:]) for j in range(2)])
        else:
            out.append(placeholder((i, d, shape), d))
    return out


class _Scratch:
    """One function's probes: one scratch graph for all of them, each placeholder made once
    in it, and each probe made once (widening a dtype as a group and widening one argument
    alone is often the same probe). Nothing runs in the graph, and a probe's answer is the
    kind and dtype of what the call builds, so the ops earlier probes left in the graph do
    not change it: the table is byte for byte the one a fresh graph per probe gives.

    The exception is a probe that makes a variable (the graph's collections grow): the
    process may keep it (Keras' global seed generator is made on first use, its variable in
    the graph of that call), and later probes in that graph could use what a fresh graph
    cannot. From then on, this function's probes get a fresh graph each."""

    def __init__(self, tf):
        self.graph = tf.Graph()
        self.placeholders: dict = {}
        self.answers: dict = {}
        self.shared = True

    def collected(self) -> int:
        return sum(len(self.graph.get_collection(key))
                   for key in self.graph.get_all_collection_keys())


def _call(fn, spec, shape, tf, extra=None, scratch=None):
    """``fn`` called on placeholders as ``spec`` says; None when TensorFlow refuses the
    arguments. Without ``scratch`` in a fresh graph; with it (a :class:`_Scratch` per
    function) in that function's graph, a probe already made answered from it."""
    if scratch is None:
        return _build(fn, spec, shape, tf, extra, tf.Graph())
    key = (spec, shape, tuple(sorted((extra or {}).items(), key=lambda item: item[0])))
    if key not in scratch.answers:
        if scratch.shared:
            before = scratch.collected()
            scratch.answers[key] = _build(fn, spec, shape, tf, extra, scratch.graph,
                                          scratch.placeholders)
            scratch.shared = scratch.collected() == before
        else:
            scratch.answers[key] = _build(fn, spec, shape, tf, extra, tf.Graph())
    return scratch.answers[key]


def _build(fn, spec, shape, tf, extra, graph, placeholders=None):
    with graph.as_default():
        try:
            args = _args(spec, shape, tf, placeholders)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return fn(*args, **(extra or {}))
        except Exception:  # noqa: BLE001 - a refused probe is simply not a fact
            return None


def _combos(n: int, lists: str = ""):
    """Argument dtypes to try for ``n`` tensors: all one dtype, or a bool/int/float first
    argument before float/int ones; with ``lists``, the shapes of list-taking APIs
    (``tf.clip_by_global_norm(t_list, c)``, ``tf.nn.moments(x, axes)``)."""
    if n == 0:
        yield ()
        return
    mixed = [("bool", "float32"), ("bool", "int32"), ("int32", "float32"), ("float32", "int32")]
    pairs = [(d, d) for d in DTYPES] + mixed
    if lists == "list":
        pairs = [(f"list:{a}", b) for a, b in pairs if a in ("float32", "int32")]
    seen = set()
    for first, rest in pairs:
        combo = (first,) + (rest,) * (n - 1)
        if lists == "axes":
            combo = combo[:-1] + ("axes",)
        if combo not in seen:
            seen.add(combo)
            yield combo


class _Widening:
    """Does widening (float32 -> float64, int32 -> int64) an argument of one probe move its
    result's dtype? Each dtype is widened as a group (ops that need equal dtypes), then each
    argument alone (an op whose other arguments must stay as they are); a group *follows*
    when the widened result's dtypes differ, is *kept* when they are the same, and is neither
    when the widened call is refused. The widened probes are made only when a question asks
    for them (most functions' table entry needs a few of them, or none)."""

    def __init__(self, fn, combo, shape, tf, extra, scratch, outs):
        self.probe = fn, shape, tf, extra, scratch
        self.combo, self.outs = combo, outs
        self.groups = [[i for i, x in enumerate(combo) if x == d]
                       for d in dict.fromkeys(combo) if d in WIDER]
        self.groups += [[i] for i, d in enumerate(combo) if d in WIDER]
        self.answers: dict[int, bool | None] = {}  # group index -> follows, None: refused

    def _answer(self, g: int) -> bool | None:
        if g not in self.answers:
            fn, shape, tf, extra, scratch = self.probe
            wide = tuple(WIDER[d] if i in self.groups[g] else d
                         for i, d in enumerate(self.combo))
            widened = _call(fn, wide, shape, tf, extra, scratch)
            w_outs = _dtypes_of(widened, tf) if widened is not None else None
            self.answers[g] = None if w_outs is None else w_outs != self.outs
        return self.answers[g]

    def follows(self, i: int) -> bool:
        """Does widening argument ``i`` (in one of its groups) move the result?"""
        return any(self._answer(g) for g, group in enumerate(self.groups) if i in group)

    def any_follows(self) -> bool:
        return any(self._answer(g) for g in range(len(self.groups)))

    def any_kept(self) -> bool:
        return any(self._answer(g) is False for g in range(len(self.groups)))


def _probe_arity(fn, n, tf, extra, names=(), scratch=None):
    """Results of ``fn`` with ``n`` tensor arguments: [(spec, kind, size, out dtypes,
    widening, shape)]; ``widening`` (a :class:`_Widening`, None when the result has no
    dtypes) answers which arguments' widening moves the result."""
    passes = [""]
    if names[:1] and names[0] in LIST_PARAMS:
        passes.append("list")
    if n > 1 and len(names) >= n and names[n - 1] in AXES_PARAMS:
        passes.append("axes")
    for lists in passes:
        for shape in SHAPES:
            results = []
            for combo in _combos(n, lists):
                value = _call(fn, combo, shape, tf, extra, scratch)
                if value is None or (isinstance(value, (list, tuple)) and not value):
                    continue  # refused, or an empty sequence (no kind to read from it)
                kind, size = _classify(value, tf)
                outs = _dtypes_of(value, tf)
                widening = (_Widening(fn, combo, shape, tf, extra, scratch, outs)
                            if outs is not None else None)
                results.append((combo, kind, size, outs, widening, shape))
            if results:
                return results
    return []


def _dtype_rule(results) -> str | None:
    """One rule for the (first) result dtype over the probes of one arity: ``@i`` when it is
    argument ``i``'s dtype and follows it when widened, a dtype name when widening never moves
    it, or None when the probes disagree or cannot tell."""
    outs = [(combo, o[0], w) for combo, _, _, o, w, _ in results if o]
    if not outs:
        return None
    for i in range(len(outs[0][0])):
        if all(o == combo[i] and (combo[i] not in WIDER or w.follows(i))
               for combo, o, w in outs):
            return f"@{i}"
    constants = {o for _, o, _ in outs}
    widenable = any(d in WIDER for combo, _, _ in outs for d in combo)
    if len(constants) == 1 and not any(w.any_follows() for _, _, w in outs) and (
            any(w.any_kept() for _, _, w in outs) or not widenable):
        return constants.pop()
    return None


def probe_function(fn, tf) -> dict | None:
    names, required, dtype_params, varargs = _positional(fn)
    # a dtype parameter without a default must be given: float32 (the probes then tell
    # whether the result follows it)
    extra = {p: tf.float32 for p, (_, default, needed) in dtype_params.items() if needed}
    arities = range(required, min(max(required, len(names)), 3) + 1)
    if varargs and not names:
        arities = range(1, 4)  # tf.meshgrid(*args): one to three tensors
    kinds, by_arity, size, sample, results_all = {}, {}, None, None, []
    scratch = _Scratch(tf)  # this function's graph, placeholders and probes
    for n in arities:
        results = _probe_arity(fn, n, tf, extra, names, scratch)
        if not results:
            continue
        results_all += results
        found = {kind for _, kind, _, _, _, _ in results}
        kinds[str(n)] = found.pop() if len(found) == 1 else "mixed"
        size = size or results[0][2]
        by_arity[str(n)] = results
        sample = sample or results[0]
    if not kinds:
        return None
    entry: dict = {}
    if len(set(kinds.values())) == 1:
        entry["kind"] = next(iter(kinds.values()))
    else:
        entry["kind"], entry["arity"] = "mixed", kinds
    if entry["kind"] == "tuple":
        entry["n"] = size
        if all(r[3] is not None for r in results_all):
            entry["of"] = "tensor"  # every element a tensor (not a list, as in clip_by_global_norm)
    if "tensor" in kinds.values():
        # the dtype rules (and the widened probes they ask for) only where the entry says
        # them: a required dtype= decides the dtype itself
        rules = {n: _dtype_rule(results) for n, results in by_arity.items()} if not extra else {}
        dtype = {n: rule for n, rule in rules.items() if rule is not None}
        if len(set(dtype.values())) == 1 and len(dtype) > 1:
            dtype = {"*": next(iter(dtype.values()))}
        if dtype:
            entry["dtype"] = dtype
        combo, shape = sample[0], sample[5]
        for pname, (pos, default, _) in dtype_params.items():
            wanted = "float64" if pname in ("dtype", "Tout") else "int64"
            moved = _call(fn, combo, shape, tf, {**extra, pname: getattr(tf, wanted)}, scratch)
            if isinstance(moved, tf.Tensor) and moved.dtype.name == wanted:
                entry["dtype_param"] = [pname, pos, default]
                break
    return entry


def class_kind(cls, tf) -> str | None:
    import keras

    checks = (("dataset", tf.data.Dataset), ("variable", tf.Variable),
              ("model", keras.Model), ("layer", keras.layers.Layer),
              ("loss", keras.losses.Loss), ("metric", keras.metrics.Metric),
              ("optimizer", keras.optimizers.Optimizer),
              ("tensor_array", tf.TensorArray), ("tape", tf.GradientTape))
    for kind, base in checks:
        try:
            if issubclass(cls, base):
                return kind
        except TypeError:
            return None
    return None


def generate() -> dict:
    tf = _tf()
    import keras

    apis: dict[str, dict] = {}
    probed: dict[int, dict | None] = {}
    for prefix, module in _namespaces():
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            full = f"{prefix}.{name}"
            if full in NEVER_CALL:
                continue
            try:
                obj = getattr(module, name)
            except Exception:  # noqa: BLE001 - a lazy attribute that fails to load
                continue
            if inspect.ismodule(obj):
                continue
            if inspect.isclass(obj):
                kind = class_kind(obj, tf)
                if kind:
                    apis[full] = {"kind": "class", "of": kind}
                continue
            if not callable(obj):
                continue
            key = id(obj)
            if key not in probed:
                probed[key] = probe_function(obj, tf)
            if probed[key]:
                apis[full] = probed[key]
    for name in ("from_tensor_slices", "from_tensors", "range", "zip", "list_files",
                 "from_generator", "sample_from_datasets", "choose_from_datasets", "load",
                 "counter", "random"):
        method = getattr(tf.data.Dataset, name, None)
        said = str(inspect.signature(method).return_annotation or "") + (
            inspect.getdoc(method) or "") if method is not None else ""
        if "Dataset" in said:  # its signature or docstring says it returns a Dataset
            apis[f"tensorflow.data.Dataset.{name}"] = {"kind": "dataset"}
    for prefix in CLASS_MODULES:
        module = keras
        for part in prefix.split(".")[1:]:
            module = getattr(module, part)
        for name in sorted(dir(module)):
            obj = getattr(module, name, None)
            if name.startswith("_") or obj is None:
                continue
            full = f"{prefix}.{name}"
            if inspect.isclass(obj):
                kind = class_kind(obj, tf)
                if kind:
                    apis[full] = {"kind": "class", "of": kind}
            elif prefix == "keras.applications" and inspect.isfunction(obj):
                if _returns_application(obj):
                    apis[full] = {"kind": "model"}
            elif inspect.ismodule(obj) and prefix == "keras.applications":
                for fname in sorted(dir(obj)):
                    fn = getattr(obj, fname, None)
                    if fname[:1].isupper() and inspect.isfunction(fn) and _returns_application(fn):
                        apis[f"{full}.{fname}"] = {"kind": "model"}
    return {"tensorflow": tf.__version__, "keras": keras.__version__,
            "apis": dict(sorted(apis.items()))}


def _returns_application(fn, seen=None) -> bool:
    """Does this ``keras.applications`` function build and return a model? (Its source, or
    the source of the same-module builder whose result it returns, constructs
    ``Functional``/``Model``.)"""
    seen = seen if seen is not None else set()
    if fn in seen:
        return False
    seen.add(fn)
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        return False
    if "Functional(" in source or "Model(" in source:
        return True
    module = sys.modules.get(fn.__module__)
    for name in re.findall(r"return\s+(\w+)\(", source):
        builder = getattr(module, name, None)
        if inspect.isfunction(builder) and _returns_application(builder, seen):
            return True
    return False


def dumps(table: dict) -> str:
    """One API per line, so a diff shows what changed."""
    rows = [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in table["apis"].items()]
    return ("{\n" + f"  \"tensorflow\": {json.dumps(table['tensorflow'])},\n"
            f"  \"keras\": {json.dumps(table['keras'])},\n  \"apis\": {{\n"
            + ",\n".join("  " + r for r in rows) + "\n  }\n}\n")


def cache_key() -> str:
    """A hash of everything :func:`generate` reads (see the module's docstring)."""
    import hashlib
    import platform
    from importlib import metadata

    digest = hashlib.sha256()

    def add(*parts):
        for part in parts:
            digest.update(str(part).encode("utf-8", "surrogateescape") + b"\0")

    with open(os.path.abspath(__file__), "rb") as fh:
        digest.update(fh.read())
    add(DTYPE_PARAMS, sys.version, platform.machine(), platform.system())
    add(sorted((k, v) for k, v in os.environ.items() if k.startswith(("TF_", "KERAS_"))))
    keras_home = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    try:
        with open(os.path.join(keras_home, "keras.json"), "rb") as fh:
            digest.update(fh.read())
    except OSError:
        add("no keras.json")
    dists = []
    for dist in metadata.distributions():
        record = None
        try:
            record = dist.read_text("RECORD")
        except Exception:  # noqa: BLE001 - an unreadable record: keyed as absent
            pass
        dists.append((str(dist.metadata.get("Name") or ""), dist.version,
                      str(getattr(dist, "_path", "")), record or ""))
    for dist in sorted(dists):
        add(*dist)
    return digest.hexdigest()[:32]


def _cache_path() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tfdebug", "tf_api", cache_key() + ".json")


def cached_text() -> str | None:
    """The table text kept under today's :func:`cache_key`, or None (none, or torn)."""
    try:
        with open(_cache_path(), encoding="utf-8") as fh:
            text = fh.read()
        json.loads(text)["apis"]  # noqa: B018 - a torn or foreign file is not used
        return text
    except (OSError, ValueError, KeyError, TypeError):
        return None


def keep(text: str) -> None:
    """Keep ``text`` under today's :func:`cache_key` (written whole, then renamed)."""
    path = _cache_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(partial, path)
    except OSError:  # a read-only home: no cache, the same answers
        pass


def forget() -> None:
    try:
        os.remove(_cache_path())
    except OSError:
        pass


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the committed table")
    parser.add_argument("--cache", action="store_true",
                        help="reuse the table generated earlier from the same inputs")
    args = parser.parse_args(argv)
    if args.update:
        text = dumps(generate())
        with open(TABLE, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"{TABLE}: {text.count(chr(10)) - 6} APIs")
        return 0
    cached = cached_text() if args.cache else None
    text = cached if cached is not None else dumps(generate())
    with open(TABLE, encoding="utf-8") as fh:
        old = fh.read()
    if old == text:
        if args.cache and cached is None:
            keep(text)
        print("tf_api.json is up to date" + (" (the table generated from the same inputs "
                                             "before)" if cached is not None else ""))
        return 0
    if cached is not None:  # never kept past a failure: the next run generates it again
        forget()
    old_apis, new_apis = json.loads(old)["apis"], json.loads(text)["apis"]
    for key in sorted(set(old_apis) | set(new_apis)):
        if old_apis.get(key) != new_apis.get(key):
            print(f"{key}: {old_apis.get(key)} -> {new_apis.get(key)}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
