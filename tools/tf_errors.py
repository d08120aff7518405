"""Catalogue the errors TensorFlow's graph-mode path can raise at a user, and the recipes covering them.

Reads the *installed* TensorFlow's and Keras 3's source on the graph-mode path (AutoGraph's
operators, tf.cond/tf.while_loop, func_graph, tf.function's binding, tf.data's function
tracing, py_function, TensorArray, tf.distribute, KerasTensor and the layer call), lists
every ``raise`` site with its class and rebuilt message, and adds the texts that C++ code
(XLA's compiler for ``jit_compile=True``, op kernels) raises, captured by running small
probes. Each row gets the recipe whose ``messages`` regex matches its sample, or the
reason it is not a user-facing error (from ``tf_errors_notes.toml``, reviewed by hand).

One committed file, ``tf_errors.json``, holds the rows of every TensorFlow version it was
generated on: a row is keyed by module, function, class and message (not by line), and
lists the versions that have it.

Usage::

    python tools/tf_errors.py            # coverage of the installed TF; exit 1 when out of date
    python tools/tf_errors.py --update   # merge the installed TF's rows into tf_errors.json
    python tools/tf_errors.py --missing  # the user-facing rows no recipe matches
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import importlib
import json
import os
import re
import sys
import tomllib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from raise_sites import raise_sites  # noqa: E402

CATALOGUE = os.path.join(HERE, "tf_errors.json")
NOTES = os.path.join(HERE, "tf_errors_notes.toml")

# The graph-mode path, as globs under each package's folder.
SOURCES = {
    "tensorflow": [
        "python/autograph/operators/*.py", "python/autograph/impl/api.py",
        "python/autograph/core/unsupported_features_checker.py", "python/autograph/pyct/parser.py",
        "python/framework/tensor.py", "python/ops/cond.py", "python/ops/cond_v2.py",
        "python/ops/while_loop.py", "python/ops/while_v2.py", "python/ops/control_flow_util_v2.py",
        "python/framework/func_graph.py", "python/eager/polymorphic_function/*.py",
        "python/data/ops/structured_function.py", "python/data/ops/from_generator_op.py",
        "python/ops/script_ops.py", "python/saved_model/function_deserialization.py",
        "python/ops/tensor_array_ops.py", "python/distribute/values.py",
        "python/distribute/distribute_lib.py",
        "core/function/polymorphism/function_type.py", "core/function/trace_type/default_types.py",
    ],
    "keras": [
        "src/backend/common/keras_tensor.py", "src/layers/layer.py", "src/ops/operation.py",
        "src/backend/tensorflow/layer.py",
    ],
}
_SKIP_FILE = re.compile(r"(_test|_test_util|test_util)\.py$|/__init__\.py$")

# Errors raised in C++ (XLA's compiler for jit_compile=True, op kernels) have no Python raise
# site: each probe is a small program that raises one, run to capture its real text.
NATIVE_PROBES = {
    "xla-unsupported-op": """
@tf.function(jit_compile=True, autograph=False)
def f(x):
    return tf.strings.as_string(x)
f(tf.constant(1.0))
""",
    # an argument of the compiled function may set a shape (XLA compiles once per value);
    # a value computed inside a loop may not
    "xla-not-compile-time-constant": """
@tf.function(jit_compile=True, autograph=False)
def f(x):
    def body(i, total):
        return i + 1, total + tf.reduce_sum(tf.range(i))
    return tf.while_loop(lambda i, total: i < 3, body, (tf.constant(0), tf.constant(0)))
f(tf.ones([4]))
""",
    "xla-unique-dynamic-shape": """
@tf.function(jit_compile=True, autograph=False)
def f(x):
    return tf.unique(x).y
f(tf.constant([1, 2, 1]))
""",
    "xla-py-function": """
@tf.function(jit_compile=True, autograph=False)
def f(x):
    return tf.py_function(lambda v: v * 2, [x], tf.float32)
f(tf.constant(1.0))
""",
    "numpy-function-tout": """
@tf.function(autograph=False)
def f(x):
    return tf.numpy_function(lambda v: v * 2.0, [x], tf.int32)
f(tf.constant(1.0))
""",
    "py-function-tout-count": """
@tf.function(autograph=False)
def f(x):
    return tf.py_function(lambda v: tf.reduce_mean(v), [x], Tout=[tf.float32, tf.float32])
f(tf.constant([1.0, 2.0]))
""",
    # The predicate's shape is checked by the graph's Switch kernel (the lowered cond/while),
    # or XLA's If, when the function runs. A constant vector predicate is not probed: grappler
    # constant-folds it and aborts the process.
    "cond-non-scalar-predicate": """
@tf.function(autograph=False)
def f(pred):
    return tf.cond(pred, lambda: 1.0, lambda: 2.0)
f(tf.constant([True, False]))
""",
    "while-non-scalar-condition": """
@tf.function(autograph=False)
def f(x):
    return tf.while_loop(lambda v: v < 3.0, lambda v: v + 1.0, [x])
f(tf.constant([1.0, 2.0]))
""",
    "tensor-array-write-dtype": """
@tf.function(autograph=False)
def f():
    return tf.TensorArray(tf.float32, size=1).write(0, tf.constant(1)).stack()
f()
""",
    "xla-cond-non-scalar-predicate": """
@tf.function(jit_compile=True, autograph=False)
def f(pred):
    return tf.cond(pred, lambda: 1.0, lambda: 2.0)
f(tf.constant([True, False]))
""",
}


def _package_root(package: str) -> str:
    module = importlib.import_module(package)
    return os.path.dirname(module.__file__)


def _module_name(package: str, root: str, path: str) -> str:
    relative = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    return f"{package}.{relative}"


def _mro_names(module_name: str, dotted: str) -> list[str]:
    """The raised class's MRO names, resolved in the module it is raised from."""
    try:
        value = importlib.import_module(module_name)
        for part in dotted.split("."):
            value = getattr(value, part)
        if isinstance(value, type) and issubclass(value, BaseException):
            return [c.__name__ for c in value.__mro__ if c is not object]
    except Exception:  # noqa: BLE001 - a name only bound at run time: keep what is written
        pass
    builtin = getattr(__import__("builtins"), dotted, None)
    if isinstance(builtin, type) and issubclass(builtin, BaseException):
        return [c.__name__ for c in builtin.__mro__ if c is not object]
    return [dotted.rsplit(".", 1)[-1]]


def row_key(module: str, function: str, cls: str, template: str) -> str:
    """Stable across versions and line moves: changes only when the message itself does."""
    shape = re.sub(r"\{[^{}]*\}", "{}", template)
    digest = hashlib.sha1(shape.encode()).hexdigest()[:8]
    return f"{module}:{function or '<module>'}:{cls.rsplit('.', 1)[-1]}:{digest}"


def scan_source() -> list[dict]:
    """Rows of every raise site on the graph-mode path of the installed packages."""
    rows = {}
    for package, patterns in SOURCES.items():
        root = _package_root(package)
        for pattern in patterns:
            for path in sorted(glob.glob(os.path.join(root, pattern))):
                if _SKIP_FILE.search(path.replace(os.sep, "/")):
                    continue
                module = _module_name(package, root, path)
                with open(path, encoding="utf-8") as fh:
                    sites = raise_sites(fh.read())
                for site in sites:
                    key = row_key(module, site.function, site.cls, site.template)
                    rows.setdefault(key, {
                        "key": key, "module": module, "function": site.function,
                        "class": site.cls.rsplit(".", 1)[-1],
                        "bases": _mro_names(module, site.cls),
                        "template": site.template, "sample": site.sample, "line": site.line})
    return list(rows.values())


def scan_native() -> list[dict]:
    """Rows of errors raised in C++ (XLA, op kernels), captured by running each probe."""
    import tensorflow as tf

    rows = []
    for name, code in NATIVE_PROBES.items():
        try:
            exec(compile(code, f"<probe {name}>", "exec"), {"tf": tf})  # noqa: S102
            continue  # it compiles on this version: nothing to list
        except Exception as exc:  # noqa: BLE001
            error = exc
        lines = [line for line in str(error).splitlines() if line.strip()
                 and not line.startswith(("Graph execution error", "Detected at node", "  File", "\t",
                                          "<stack traces unavailable>"))]
        text = lines[0].strip() if lines else ""
        # Graph names carry per-run numbers (config_proto=...): keep the file stable.
        text = re.sub(r"__inference_\w+\[[^\]]*\]", "__inference_f[...]", re.sub(r"\s+", " ", text))
        template = re.sub(r"\{\{[^}]*\}\}|\b\w+/\w[\w/]*", "{...}", text)[:300]
        key = f"native:{name}:{type(error).__name__}:" + hashlib.sha1(name.encode()).hexdigest()[:8]
        rows.append({"key": key, "module": "native (C++: XLA, op kernels)", "function": name,
                     "class": type(error).__name__,
                     "bases": [c.__name__ for c in type(error).__mro__ if c is not object],
                     "template": template, "sample": text[:600], "line": 0})
    return rows


def covering_recipe(row: dict) -> str | None:
    """The recipe ``explain`` gives for this row's class and sample (message regex hit), or None."""
    from tfdebug import recipebook

    for recipe in recipebook.match(row["bases"], row["sample"]):
        if recipe.messages:
            return recipe.id
    return None


def explained_by_text(row: dict) -> str | None:
    """What ``tfdebug explain "<Class>: <sample>"`` names first (message regex hits only)."""
    from tfdebug import recipebook

    hits = [r for r in recipebook.search(f"{row['class']}: {row['sample']}") if r.messages]
    return hits[0].id if hits else None


def load_notes(path: str = NOTES) -> dict:
    """The reviewed notes: ``reasons`` (not user-facing), ``gaps`` (user-facing, no recipe yet)
    and ``samples`` (the real text, where the rebuilt sample is too vague to match), by row key."""
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    notes = {"reasons": {}, "gaps": {}, "samples": dict(data.get("samples", {}))}
    for section, field in (("not_user_facing", "reasons"), ("no_recipe", "gaps")):
        for group in data.get(section, []):
            for key in group["keys"]:
                notes[field][key] = group["reason"]
    return notes


def annotate(row: dict, notes: dict) -> dict:
    """``row`` with its sample override, recipe, reason and gap filled in from the notes."""
    key = row["key"]
    if key in notes["samples"]:
        row["sample"] = notes["samples"][key]
    row["recipe"] = covering_recipe(row)
    row["reason"] = notes["reasons"].get(key)
    row["gap"] = notes["gaps"].get(key) if not row["recipe"] else None
    return row


def current_rows() -> list[dict]:
    """The installed TensorFlow's rows, each with its recipe and reason filled in."""
    notes = load_notes()
    return sorted((annotate(row, notes) for row in scan_source() + scan_native()), key=lambda r: r["key"])


def tf_version() -> str:
    import tensorflow as tf

    return ".".join(tf.__version__.split(".")[:2])


def load_catalogue(path: str = CATALOGUE) -> dict:
    if not os.path.exists(path):
        return {"rows": []}
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def merge(catalogue: dict, rows: list[dict], version: str) -> dict:
    """The catalogue with ``version``'s rows replaced by ``rows`` (other versions kept)."""
    notes = load_notes()
    merged = {}
    for old in catalogue.get("rows", []):
        versions = [v for v in old["versions"] if v != version]
        if versions:
            merged[old["key"]] = dict(old, versions=versions)
    for row in rows:
        old = merged.get(row["key"])
        versions = sorted(set(old["versions"] if old else []) | {version}, key=_version_order)
        merged[row["key"]] = {k: v for k, v in row.items() if k != "line"} | {"versions": versions}
    for row in merged.values():  # recipes and notes change without TensorFlow changing
        annotate(row, notes)
    return {"about": "Raise sites on TensorFlow's graph-mode path (tools/tf_errors.py)",
            "rows": sorted(merged.values(), key=lambda r: r["key"])}


def _version_order(version: str):
    return tuple(int(p) for p in version.split(".") if p.isdigit())


def coverage(rows: list[dict]) -> tuple[int, int]:
    """(covered, user-facing) counts: rows without a reason are user-facing."""
    facing = [r for r in rows if not r.get("reason")]
    return sum(1 for r in facing if r.get("recipe")), len(facing)


def problems(catalogue: dict, rows: list[dict], version: str) -> list[str]:
    """What is out of date or unexplained, for the installed version; empty when all is well."""
    listed = {r["key"]: r for r in catalogue.get("rows", []) if version in r["versions"]}
    found = {r["key"]: r for r in rows}
    out = [f"new in TF {version}, not listed: {k} {found[k]['class']}: {found[k]['template'][:100]}"
           for k in sorted(set(found) - set(listed))]
    out += [f"listed for TF {version} but gone: {k}" for k in sorted(set(listed) - set(found))]
    out += [f"neither a recipe nor a reason: {r['key']} {r['class']}: {r['template'][:100]}"
            for r in rows if not (r["recipe"] or r["reason"] or r["gap"]) and r["key"] in listed]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="merge the installed TF's rows into the file")
    parser.add_argument("--missing", action="store_true", help="list user-facing rows without a recipe")
    args = parser.parse_args(argv)
    version, rows = tf_version(), current_rows()
    catalogue = load_catalogue()
    if args.update:
        catalogue = merge(catalogue, rows, version)
        with open(CATALOGUE, "w", encoding="utf-8") as fh:
            json.dump(catalogue, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
    if args.missing:
        for row in rows:
            if not row["recipe"] and not row["reason"]:
                print(f"{row['key']}\n    {row['class']}: {row['sample'][:240]}")
    covered, facing = coverage(rows)
    print(f"TensorFlow {version}: {len(rows)} raise sites, {facing} user-facing, "
          f"{covered} covered by a recipe ({100 * covered / max(facing, 1):.1f} %)")
    issues = problems(catalogue, rows, version)
    for issue in issues:
        print(issue)
    return 1 if issues else 0


if __name__ == "__main__":
    sys.exit(main())
