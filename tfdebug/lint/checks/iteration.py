"""tensor-iteration, unhashable-tensor, unknown-length (TFD110-112, 118-120): Python iterating,
hashing, indexing or measuring a symbolic tensor."""
from __future__ import annotations

import ast

from ..._source import all_args
from ..values import _is_symbolic, _is_tensor


def for_loop(w, node, it_kind):
    """``for`` over a tensor AutoGraph does not convert; ``enumerate``/``zip`` over one."""
    ctx, it = w.ctx, node.iter
    if _is_tensor(it_kind):
        if ctx.graph and not ctx.converted:
            w.mod.report("iterate-tensor", node, "`for` over a symbolic tensor in code "
                         "AutoGraph does not convert; use tf.range/tf.map_fn or keras.ops")
    elif it_kind is not None and it_kind.what == "dataset":
        return
    elif isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in (
            "enumerate", "zip"):
        tensors = [a for a in it.args if _is_tensor(w.kind(a))]
        if ctx.graph and tensors:
            w.mod.report("enumerate-tensor", it, f"`{it.func.id}()` over a symbolic tensor is "
                         "not converted by AutoGraph; loop over tf.range and index instead")


def unpacking(w, stmt, kind):
    if w.ctx.kind == "data" and isinstance(getattr(stmt, "value", None), ast.Name) and \
            stmt.value.id in {a.arg for a in all_args(w.func.args)}:
        return  # a dataset element can be a tuple: its parameter need not be one tensor
    if w.ctx.graph and _is_tensor(kind):
        w.mod.report("iterate-tensor", stmt, "unpacking a symbolic tensor into names "
                     "iterates it in Python; index it (`x[0]`, `x[1]`) or use tf.unstack")


def comprehension(w, gen, it_kind):
    if w.ctx.graph and _is_tensor(it_kind):
        w.mod.report("comprehension-tensor", gen.iter, "a comprehension iterates a "
                     "symbolic tensor; AutoGraph does not convert comprehensions: use a "
                     "`for` loop with tf.TensorArray, tf.map_fn or a static Python range")


def comprehension_key(w, node):
    if isinstance(node, ast.DictComp) and w.ctx.graph and _is_symbolic(w.kind(node.key)):
        w.mod.report("unhashable", node.key, "a symbolic tensor used as a dict key; use "
                     "a tf.lookup table (or `tensor.ref()` as the key)")


def in_dict(w, node):
    """``x in d`` on a tensor, with ``d`` a dict or set."""
    if not w.ctx.graph:
        return
    for right in w.tensor_membership(node):
        if w.is_list(right):
            continue  # in-list, a tensor-as-bool finding
        if w.kind(right) is not None and w.kind(right).what in ("dict", "set"):
            w.mod.report("unhashable", node, "a symbolic tensor looked up in a dict/set; "
                         "use a tf.lookup table")


def subscript(w, node):
    if w.ctx.graph:
        base = w.kind(node.value)
        if base is not None and base.what == "dict" and _is_symbolic(w.kind(node.slice)):
            w.mod.report("unhashable", node, "a symbolic tensor used as a dict key; use a "
                         "tf.lookup table (or `tensor.ref()` as the key)")
        elif base is not None and base.what in ("list", "tuple") and _is_symbolic(
                w.kind(node.slice)):
            w.mod.report("list-index-tensor", node, "a Python list indexed with a "
                         "symbolic tensor fails while tracing; make it a tensor and use "
                         "tf.gather")


def dict_keys(w, node):
    if w.ctx.graph:
        for key in node.keys:
            if key is not None and _is_symbolic(w.kind(key)):
                w.mod.report("unhashable", key, "a symbolic tensor used as a dict key; "
                             "use `tensor.ref()` or a tf.lookup table")


def item_assignment_key(w, target):
    base = w.kind(target.value)
    if w.ctx.graph and base is not None and base.what == "dict" and _is_symbolic(
            w.kind(target.slice)):
        w.mod.report("unhashable", target, "a symbolic tensor used as a dict key; use a "
                     "tf.lookup table (or `tensor.ref()` as the key)")


def len_call(w, node, name, args_kinds):
    if w.builtin(node.func) == "len" and args_kinds and _is_tensor(args_kinds[0]) and \
            not w.ctx.converted:
        w.mod.report("len-tensor", node, "`len()` of a symbolic tensor in code AutoGraph "
                     "does not convert; use tf.shape(x)[0] (or x.shape.rank)")
