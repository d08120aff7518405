"""variable-creation, keras-misuse, keras-training-flag (TFD135, 136, 165, 167, 320): objects
made on every trace, Keras loops and flags in traced code."""
from __future__ import annotations

import ast

from ..._source import dotted_rooted
from ..._vocab import KERAS_CONSTRUCTOR_MODULES, KERAS_LOOPS


def _in_body(w) -> bool:
    """Straight-line code of a tf.function or its helper (not guarded by a condition)."""
    return w.ctx.kind in ("function", "helper") and not w.conditional() and not w.eager_guard


def variable_in_body(w, node, name, args_kinds):
    if name in ("tensorflow.Variable",) and _in_body(w):
        w.mod.report("variable-in-body", node, "tf.Variable created in the body of a "
                     "tf.function: it is created on every trace; create it once outside (or "
                     "guard it with `if self.v is None`)")


def keras_object_in_body(w, node, name, args_kinds):
    if name is not None and name.startswith(KERAS_CONSTRUCTOR_MODULES) and \
            name.rsplit(".", 1)[-1][:1].isupper() and _in_body(w):
        w.mod.report("keras-object-in-body", node, f"`{dotted_rooted(node.func)}` is "
                     "constructed inside a tf.function: its variables are created on every "
                     "trace; build it once outside")


def keras_call_decorated(mod, node) -> None:
    """``@tf.function`` on a Keras ``call`` (reported where entries are found)."""
    dec = next(d for d in node.decorator_list if mod.is_tf_function(d))
    mod.report("keras-call-tf-function", dec, "`@tf.function` on a Keras `call`: "
               "Keras already compiles the step; remove the decorator (use "
               "jit_compile= or run_eagerly= on compile)")


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
    if is_model(w, func):
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
