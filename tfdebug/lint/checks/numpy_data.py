"""numpy-in-graph, data-pipeline, unknown-shape (TFD140, 141, 145, 170): NumPy on symbolic
tensors, and dataset elements of unknown shape."""
from __future__ import annotations

import ast

from ..._source import dotted_rooted
from ..._vocab import PY_FUNCTIONS


def numpy_method(w, node, name, args_kinds):
    ctx, func = w.ctx, node.func
    if isinstance(func, ast.Attribute) and func.attr == "numpy" and not node.args and \
            not w.eager_guard and not (ctx.kind == "keras" and w.conditional()) and \
            not _eager_module_tensor(w, func.value):
        # (a Keras call guarded by a condition may be the eager or another backend's path)
        if ctx.kind == "data":
            w.mod.report("numpy-in-data", node, "`.numpy()` in a tf.data function: dataset "
                         "functions always run as graphs (even with run_functions_eagerly); "
                         "use TF ops or tf.py_function")
        else:
            w.mod.report("numpy-method", node, "`.numpy()` inside traced code: tensors are "
                         "symbolic there; return the tensor and call .numpy() outside")


def _eager_module_tensor(w, node) -> bool:
    """A module-level name bound to a tensor made eagerly (``SCALE = tf.constant(2.0)``): the
    traced function holds the eager tensor itself, whose ``.numpy()`` works while tracing."""
    return isinstance(node, ast.Name) and node.id not in w.env and \
        node.id not in w.local_names and getattr(w.mod.env.get(node.id), "what", None) == "tensor"


def numpy_on_tensor(w, node, name, args_kinds):
    if name is not None and name.startswith("numpy.") and not name.startswith("numpy.random.") \
            and w.tensor_in_args(node, args_kinds):
        check = "numpy-in-data" if w.ctx.kind == "data" else "numpy-call"
        w.mod.report(check, node, f"`{dotted_rooted(node.func)}()` is given a symbolic tensor; "
                     "use the TensorFlow op (or tf.numpy_function)")


def data_return(w, value):
    """A tf.data function returning a py_function's output: its shape is unknown."""
    mod = w.mod
    if mod.calls_set_shape:
        return
    name = mod.resolve(value.func) if isinstance(value, ast.Call) else None
    if name in PY_FUNCTIONS:
        mod.report("py-function-shape", value, "the dataset element comes from "
                   f"{name.replace('tensorflow', 'tf')}() and has an unknown shape; restore "
                   "it with tf.ensure_shape / set_shape before Keras needs it")
