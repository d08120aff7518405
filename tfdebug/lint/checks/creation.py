"""variable-creation, keras-misuse, keras-training-flag (TFD135, 136, 165, 167, 320): objects
made on every trace, Keras loops and flags in traced code."""
from __future__ import annotations

import ast

from ..._source import dotted_rooted, own_statements
from ..._vocab import KERAS_LOOPS, TRAINING_LAYERS
from ..apis import api_facts


def _in_body(w) -> bool:
    """Straight-line code of a tf.function or its helper (not guarded by a condition)."""
    return w.ctx.kind in ("function", "helper") and not w.conditional() and not w.eager_guard


def variable_in_body(w, node, name, args_kinds):
    if name in ("tensorflow.Variable",) and _in_body(w):
        w.mod.report("variable-in-body", node, "tf.Variable created in the body of a "
                     "tf.function: it is created on every trace; create it once outside (or "
                     "guard it with `if self.v is None`)")


def _is_keras_constructor(name: str | None) -> bool:
    """``keras.layers.Dense``, ``keras.optimizers.Adam``: a class whose object owns variables
    (a Keras layer, model or optimizer, as the API table read from Keras says)."""
    facts = api_facts(name) if name else None
    return facts is not None and facts.get("kind") == "class" and facts.get("of") in (
        "layer", "model", "optimizer")


def keras_object_in_body(w, node, name, args_kinds):
    if _is_keras_constructor(name) and _in_body(w):
        w.mod.report("keras-object-in-body", node, f"`{dotted_rooted(node.func)}` is "
                     "constructed inside a tf.function: its variables are created on every "
                     "trace; build it once outside")


def keras_call_decorated(mod, node, cls) -> None:
    """``@tf.function`` on a Keras ``call`` (reported where entries are found).

    The harm is weights built inside a separate graph, so a class that has none (a
    weightless augmentation layer, a model wrapping a non-Keras op) is left alone.
    """
    dec = next(d for d in node.decorator_list if mod.is_tf_function(d))
    if not (_makes_weights(mod, cls) or _calls_held_object(cls, node)):
        return
    mod.report("keras-call-tf-function", dec, "`@tf.function` on a Keras `call`: "
               "Keras already compiles the step; remove the decorator (use "
               "jit_compile= or run_eagerly= on compile)")


def _makes_weights(mod, cls) -> bool:
    """Does class ``cls`` build Keras layers, models or variables anywhere in its body?"""
    for call in ast.walk(cls):
        if not isinstance(call, ast.Call):
            continue
        if isinstance(call.func, ast.Attribute) and call.func.attr == "add_weight":
            return True
        name = mod.resolve(call.func)
        if _is_keras_constructor(name) or name in ("tensorflow.Variable", "keras.Sequential",
                                                     "keras.Model") or (
                name or "").startswith("keras.applications."):
            return True
    return False


def _calls_held_object(cls, func) -> bool:
    """Does ``func`` call an object the instance holds (``self.cell(x)``, a layer passed in),
    rather than one of the class's own methods?"""
    methods = {s.name for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"
               and n.func.attr not in methods for n in ast.walk(func))


def is_model(w, node) -> bool:
    """Is ``node`` a name bound to a Keras model (``keras.Sequential(...)``, ...)?"""
    if not isinstance(node, ast.Name):
        return False
    kind = w.env.get(node.id) if node.id in w.env else w.mod.env.get(node.id)
    return kind is not None and kind.what == "model"


def training_flag(w, node, name, args_kinds):
    func = node.func
    if not (w.ctx.kind in ("function", "helper") and w.has_tape):
        return
    if any(kw.arg == "training" or kw.arg is None for kw in node.keywords):
        return
    if is_model(w, func) and _has_training_layers(w, func.id):
        w.mod.report("keras-training-flag", node, f"Keras model `{func.id}` is called in a "
                     "custom training step without `training=`; pass training=True so "
                     "Dropout/BatchNorm train")


def keras_loop(w, node, name, args_kinds):
    func = node.func
    if w.ctx.graph and isinstance(func, ast.Attribute) and func.attr in KERAS_LOOPS \
            and is_model(w, func.value):
        w.mod.report("keras-loop-in-graph", node, f"`{dotted_rooted(func)}()` is Keras' own loop "
                     "and fails inside a tf.function; call the model itself: "
                     f"`{dotted_rooted(func.value)}(x, training=False)`")


# keras.applications families built with BatchNormalization (VGG is not; its top has no Dropout)
_BATCHNORM_APPLICATIONS = ("ResNet", "MobileNet", "EfficientNet", "Inception", "Xception",
                           "DenseNet", "NASNet", "RegNet", "ConvNeXt")


def _has_training_layers(w, name: str) -> bool:
    """Does the model bound to ``name`` have a layer that ``training=`` changes (Dropout,
    BatchNormalization, ...)? Read from what built it: the ``keras.Sequential``/functional
    code in the scope that binds it, its same-module class, or its factory function."""
    mod = w.mod
    scopes = [w.func.body] if isinstance(w.func, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
    scopes.append(mod.tree.body)
    for body in scopes:
        values = [stmt.value for stmt in own_statements(body) if isinstance(stmt, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)]
        if values:
            return any(_builds_training_layers(mod, v, body, set()) for v in values)
    return False


def _builds_training_layers(mod, value, scope, seen, depth=0) -> bool:
    if not isinstance(value, ast.Call) or depth > 3:
        return False
    target = mod.resolve(value.func) or ""
    if target.startswith("keras.applications."):
        return target.rsplit(".", 1)[-1].startswith(_BATCHNORM_APPLICATIONS)
    if target.startswith("keras.") and target.rsplit(".", 1)[-1] in ("Sequential", "Model",
                                                                    "Functional"):
        if depth:
            return False  # a model built inside a region being read: its layers are read there
        regions = [value, *own_statements(scope)]  # the layers built next to it (functional)
    else:
        func = value.func
        built = mod.classes.get(func.id) or mod.defs.get(func.id) if isinstance(
            func, ast.Name) else None
        if built is None or id(built) in seen:
            return False
        seen.add(id(built))
        regions = [value, built, *(mod.classes[b.id] for b in getattr(built, "bases", ())
                                   if isinstance(b, ast.Name) and b.id in mod.classes)]
    for region in regions:
        for sub in ast.walk(region):
            if isinstance(sub, ast.Call) and (_makes_training_layer(mod, sub) or (
                    sub is not value and _builds_training_layers(mod, sub, scope, seen, depth + 1))):
                return True
    return False


def _makes_training_layer(mod, call) -> bool:
    func = call.func
    leaf = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if leaf in TRAINING_LAYERS:
        return True
    target = mod.resolve(func) or ""
    if target.startswith("keras.applications.") and target.rsplit(".", 1)[-1].startswith(
            _BATCHNORM_APPLICATIONS):
        return True
    return any(kw.arg in ("dropout", "recurrent_dropout") and not (
        isinstance(kw.value, ast.Constant) and not kw.value.value) for kw in call.keywords)
