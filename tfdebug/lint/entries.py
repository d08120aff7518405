"""What runs as a graph: tf.function entries (decorated, wrapped, Keras methods, tf.data and
compile functions), the helpers they call, and what call sites say of their arguments."""
from __future__ import annotations

import ast
import os
from collections import namedtuple

from .._source import all_args, method_of, own_statements
from .._vocab import KERAS_TRACED_METHODS, PY_FUNCTIONS
from .apis import _DATASET_FN_METHODS, _dtype_literal
from . import project
from .checks import creation
from .facts import (Context, _keras_class_kind, _Module, _resolve_fn, instances_of,
                    statement_binds)
from .kinds import KindInference
from .values import ELEMENT, TENSOR, Kind, _is_tensor, _join

DATASET_FN_METHODS = _DATASET_FN_METHODS
Keyword = namedtuple("Keyword", "name kind")  # a keyword argument's kind at a call site


def _module_env(mod: _Module) -> None:
    """Kinds of module-level names, and the names bound to tf.function objects."""
    walker = KindInference(mod, Context(False, False, "host"))
    relaxed: dict[str, bool] = {}
    for stmt in own_statements(mod.tree.body):
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
    # a name the module also binds otherwise (a loop target, an import, in a branch) is of
    # unknown kind: only top-level assignments prove one
    top = {id(stmt) for stmt in mod.tree.body if isinstance(stmt, ast.Assign)}
    other = set().union(*(statement_binds(s) for s in own_statements(mod.tree.body)
                          if id(s) not in top))
    for stmt in mod.tree.body:
        if isinstance(stmt, ast.Assign):
            walker.cache.clear()
            try:
                kind = walker.kind(stmt.value)
            except RecursionError:
                kind = None
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    mod.env[target.id] = None if target.id in other else _join(
                        mod.env[target.id], kind) if target.id in mod.env else kind
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
            return Context(True, converted, "function", entry=True,
                           features=_autograph_features(dec))
    return None


def _named_params(fn) -> list[str]:
    """The parameters a caller fills one by one: never ``*args``/``**kwargs`` (a tuple and a
    dict of values, not one value each), nor ``self``/``cls``."""
    a = fn.args
    return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)
            if p.arg not in ("self", "cls")]


def _signature_params(mod: _Module, func) -> dict:
    """Parameters an ``input_signature`` proves to be tensors: the i-th parameter is one
    when the i-th entry of the literal signature is a ``tf.TensorSpec`` (other entries may
    be nested structures, and a signature held in a variable is not read)."""
    for dec in func.decorator_list:
        given = [kw.value for kw in getattr(dec, "keywords", ()) if kw.arg == "input_signature"]
        if not given or not isinstance(given[0], (ast.List, ast.Tuple)):
            continue
        params = {}
        for name, spec in zip(_named_params(func), given[0].elts):
            if isinstance(spec, ast.Call) and mod.resolve(spec.func) == "tensorflow.TensorSpec":
                dtype = [kw.value for kw in spec.keywords if kw.arg == "dtype"] + spec.args[1:2]
                params[name] = Kind("tensor", _dtype_literal(dtype[0]) if dtype else "float")
        return params
    return {}


def _autograph_features(dec) -> frozenset:
    """The optional AutoGraph conversions ``@tf.function(experimental_autograph_options=...)``
    turns on (``Feature.ASSERT_STATEMENTS``, ``Feature.BUILTIN_FUNCTIONS``, ``Feature.ALL``)."""
    if not isinstance(dec, ast.Call):
        return frozenset()
    names = {node.attr for kw in dec.keywords if kw.arg == "experimental_autograph_options"
             for node in ast.walk(kw.value) if isinstance(node, ast.Attribute)}
    if "ALL" in names:
        names |= {"ASSERT_STATEMENTS", "BUILTIN_FUNCTIONS"}
    return frozenset(names & {"ASSERT_STATEMENTS", "BUILTIN_FUNCTIONS"})


def _find_entries(mod: _Module) -> None:
    keras2 = _keras2_roots(mod)
    for node in mod.functions:
        ctx = _decorator_entry(mod, node)
        cls = mod.parent_class.get(id(node))
        keras = _keras_class_kind(mod, cls) if cls is not None else None
        # Keras 2 converts `call` and `train_step` with AutoGraph (Keras 3 does not), and a
        # tf.function on `call` is how Keras 2 exports a signature.
        converted = keras is not None and _is_keras2_class(mod, cls, keras2)
        if ctx is not None:
            if keras and node.name == "call" and not converted:
                creation.keras_call_decorated(mod, node, cls)
            mod.entries.append((node, ctx, _signature_params(mod, node)))
            if cls is None and mod.parent_func.get(id(node)) is None:
                mod.tf_functions[node.name] = node
        elif keras and node.name in KERAS_TRACED_METHODS and not _runs_eagerly_here(
                mod, cls, node.name):
            mod.entries.append((node, Context(True, converted, "keras", entry=True,
                                              keras_name=node.name), {}))
    for node, _ in mod.calls:
        if mod.is_tf_function(node) and node.args:
            fn = node.args[0]
            target = _resolve_fn(mod, fn)
            if target is None and isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) \
                    and fn.value.id == "self":
                for cls in mod.classes.values():
                    if node.lineno >= cls.lineno and node.end_lineno <= cls.end_lineno:
                        target = method_of(cls, fn.attr)
            if target is not None:
                converted = not any(kw.arg == "autograph" and isinstance(kw.value, ast.Constant)
                                    and kw.value.value is False for kw in node.keywords)
                mod.entries.append((target, Context(True, converted, "function", entry=True), {}))


_KERAS_LOOPS = {"fit", "evaluate", "predict", "train_on_batch", "test_on_batch",
                "predict_on_batch"}


def _runs_eagerly_here(mod: _Module, cls, method: str) -> bool:
    """Does this module run ``cls.method`` eagerly? Its instances (``m = Cls(...)``) are
    compiled only with ``run_eagerly=True``, or the step is only called by hand
    (``m.train_step(batch)`` in a Python loop) and never through fit/evaluate/predict."""
    instances = instances_of(mod, cls.name)
    if not instances:
        return False
    used: dict[str, list[ast.Call]] = {}
    for call, _ in mod.calls:
        func = call.func
        receiver = getattr(func, "value", None)
        owner = receiver.id if isinstance(receiver, ast.Name) else getattr(receiver, "attr", None)
        if isinstance(func, ast.Attribute) and owner in instances:
            used.setdefault(func.attr, []).append(call)
    compiles = used.get("compile", [])
    if compiles and all(any(kw.arg == "run_eagerly" and isinstance(kw.value, ast.Constant)
                            and kw.value.value is True for kw in c.keywords) for c in compiles):
        return True
    return method != "call" and method in used and not (_KERAS_LOOPS & set(used))


_KERAS2_MODULES = ("tf_keras", "tensorflow.python.keras")
_LEGACY_FLAG = "TF_USE_LEGACY_KERAS"
_legacy_packages: dict[str, bool] = {}


def _keras2_roots(mod: _Module) -> set[str]:
    """Names that spell Keras 2 here: imported from ``tf_keras`` (or TF's own old copy), and
    ``tf`` itself when the module or its package opts into Keras 2 (``TF_USE_LEGACY_KERAS``,
    which makes ``tf.keras`` Keras 2); ``tf`` and ``keras`` when the project allows only
    TensorFlow before 2.16, which comes with Keras 2."""
    modules = _KERAS2_MODULES
    if any(_LEGACY_FLAG in line for line in mod.lines) or _package_wants_keras2(mod.path):
        modules += ("tensorflow",)
    if project.caps_keras3_out(mod.path):
        modules += ("tensorflow", "keras")
    roots = set()
    for stmt in own_statements(mod.tree.body):
        if isinstance(stmt, ast.Import):
            roots |= {(a.asname or a.name).split(".")[0] for a in stmt.names
                      if a.name.startswith(modules)}
        elif isinstance(stmt, ast.ImportFrom) and (stmt.module or "").startswith(modules):
            roots |= {a.asname or a.name for a in stmt.names}
    return roots


def _package_wants_keras2(path: str) -> bool:
    """Does an ``__init__.py`` of the package holding ``path`` mention TF_USE_LEGACY_KERAS
    (as packages that refuse Keras 3 do)?"""
    folder = os.path.dirname(os.path.abspath(path)) if path and not path.startswith("<") else ""
    seen = []
    while folder and os.path.isfile(os.path.join(folder, "__init__.py")):
        if folder in _legacy_packages:
            break
        seen.append(folder)
        folder = os.path.dirname(folder)
    answer = _legacy_packages.get(folder, False)
    for folder in reversed(seen):
        try:
            with open(os.path.join(folder, "__init__.py"), encoding="utf-8", errors="replace") as fh:
                answer = answer or _LEGACY_FLAG in fh.read()
        except OSError:
            pass
        _legacy_packages[folder] = answer
    return answer


def _is_keras2_class(mod: _Module, cls, roots: set[str], seen=None) -> bool:
    """Does ``cls`` subclass a Keras 2 class (directly or through same-module bases)?"""
    seen = seen if seen is not None else set()
    if cls.name in seen or not roots:
        return False
    seen.add(cls.name)
    for base in cls.bases:
        root = base
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in roots and root.id not in mod.classes:
            return True
        if isinstance(base, ast.Name) and base.id in mod.classes and _is_keras2_class(
                mod, mod.classes[base.id], roots, seen):
            return True
    return False


def _call_site_params(mod: _Module, fn, params: dict) -> dict:
    """Parameters that every host call site passes a tensor for (and no site contradicts)."""
    sites = mod.call_args.get(id(fn))
    if not sites or isinstance(fn, ast.Lambda):
        return params
    names = [a.arg for a in all_args(fn.args)]
    out = dict(params)
    for i, pname in enumerate(names):
        if pname in out:
            continue
        kinds = []
        for site in sites:
            positional = [k for k in site if not isinstance(k, Keyword)]
            keyword = dict(k for k in site if isinstance(k, Keyword))
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


def runs_eagerly(mod: _Module, fn) -> bool:
    """Is ``fn``'s body run by ``tf.py_function`` (so eagerly, on every call)? Its decorator
    is ``@tf.py_function(Tout=...)`` / ``@tf.numpy_function(...)``, or a same-module
    decorator whose wrapper hands the function to one of them."""
    for dec in getattr(fn, "decorator_list", ()):
        target = dec.func if isinstance(dec, ast.Call) else dec
        if mod.resolve(target) in PY_FUNCTIONS:
            return True
        wrapper = mod.defs.get(target.id) if isinstance(target, ast.Name) else None
        if isinstance(wrapper, (ast.FunctionDef, ast.AsyncFunctionDef)) and _wraps_in_py_function(
                mod, wrapper):
            return True
    return False


def _wraps_in_py_function(mod: _Module, decorator) -> bool:
    params = [a.arg for a in all_args(decorator.args)]
    if not params:
        return False
    for node in ast.walk(decorator):
        if isinstance(node, ast.Call) and mod.resolve(node.func) in PY_FUNCTIONS:
            given = node.args[:1] + [kw.value for kw in node.keywords if kw.arg == "func"]
            if any(isinstance(g, ast.Name) and g.id == params[0] for g in given):
                return True
    return False


def record_call_site(w, node):
    """A host call of a same-module function: remember its argument kinds (call-site
    inference); the target, or None when the name is not a module function here."""
    mod = w.mod
    func = node.func
    target = mod.tf_functions.get(func.id) or mod.defs.get(func.id)
    if target is None or func.id in w.local_names:
        return None
    mod.call_args.setdefault(id(target), []).append(
        [w.kind(a) for a in node.args] + [Keyword(kw.arg, w.kind(kw.value)) for kw in node.keywords])
    return target


def dataset_call(w, node):
    mod = w.mod
    receiver = w.kind(node.func.value)
    if not ((receiver is not None and receiver.what == "dataset") or any(
            kw.arg in ("num_parallel_calls", "deterministic") for kw in node.keywords)):
        return
    fn = _resolve_fn(mod, node.args[0], w)
    if fn is not None and not runs_eagerly(mod, fn):
        # an element: a tensor or a structure of them (`lambda x, y:` on a dataset of pairs)
        params = {name: ELEMENT for name in _named_params(fn)}
        mod.entries.append((fn, Context(True, True, "data", entry=True), params))


def compile_call(w, node):
    mod = w.mod
    for kw in node.keywords:
        if kw.arg not in ("loss", "metrics", "weighted_metrics"):
            continue
        values = kw.value.elts if isinstance(kw.value, (ast.List, ast.Tuple)) else (
            kw.value.values if isinstance(kw.value, ast.Dict) else [kw.value])
        for value in values:
            fn = _resolve_fn(mod, value, w) if isinstance(value, (ast.Name, ast.Lambda)) else None
            if fn is not None:
                params = {name: TENSOR for name in _named_params(fn)[:2]}  # y_true, y_pred
                mod.entries.append((fn, Context(True, False, "metric", entry=True), params))


def request_helper(w, node, func):
    mod = w.mod
    target = None
    if isinstance(func, ast.Name):
        if func.id in w.local_defs:
            target = w.local_defs[func.id]
        elif func.id not in w.env and func.id in mod.defs:
            target = mod.defs[func.id]
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
            func.value.id == "self" and w.cls is not None:
        target = method_of(w.cls, func.attr)
    if target is None or target is w.func or runs_eagerly(mod, target):
        return
    if isinstance(target, ast.Lambda):
        params = [a.arg for a in all_args(target.args)]
    else:
        params = [a.arg for a in all_args(target.args)]
        if params and params[0] in ("self", "cls") and isinstance(func, ast.Attribute):
            params = params[1:]
    kinds = {}
    for pname, arg in zip(params, node.args):
        kinds[pname] = w.kind(arg)
    for kw in node.keywords:
        if kw.arg in params:
            kinds[kw.arg] = w.kind(kw.value)
    ctx = w.ctx._replace(entry=False,
                         kind="helper" if w.ctx.kind == "function" else w.ctx.kind)
    w.requests.append((target, ctx, kinds))
