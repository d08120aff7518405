"""tensor-as-bool (TFD101-106): a symbolic tensor where Python needs a bool."""
from __future__ import annotations

import ast

from ..values import _is_tensor


def report_bool(w, node, what, always=False):
    ctx = w.ctx
    if not ctx.graph or (ctx.converted and not always) or w.eager_guard:
        return  # (an eager-only branch, `if ... and tf.executing_eagerly():`, never traces)
    if ctx.kind in ("keras", "metric"):
        where = (f"Keras `{ctx.keras_name or 'call'}`" if ctx.kind == "keras"
                 else "a Keras loss/metric")
        w.mod.report("tensor-bool-keras", node, f"{what} on a symbolic tensor in {where}, "
                     "which Keras traces without AutoGraph; use tf.where/tf.cond "
                     "(or keras.ops.where/cond)")
    else:
        reason = "" if always else " in code AutoGraph does not convert"
        w.mod.report("tensor-bool", node, f"{what} on a symbolic tensor{reason}; use "
                     "tf.where/tf.cond or a TF comparison op")


def made_bool(w, test):
    """The symbolic tensor Python makes a bool when it tests ``test``: ``test`` itself, or
    the last operand of ``a and b`` / ``a or b`` (the others are ``bool_op``'s); else None."""
    while isinstance(test, ast.BoolOp) and not _is_tensor(w.kind(test)):
        test = test.values[-1]
    return test if _is_tensor(w.kind(test)) else None


def condition(w, node, test_kind, keyword: str):
    """An ``if``/``while`` on a tensor: Python truthiness unconverted, or a non-bool dtype."""
    what = f"a `{keyword}` condition" if keyword == "while" else "an `if` condition"
    tested = made_bool(w, node.test)
    if tested is not None and w.ctx.graph and not w.ctx.converted:
        report_bool(w, tested, what if tested is node.test else f"`and`/`or` in {what}")
    if not _is_tensor(test_kind):
        return
    if w.ctx.converted and test_kind.dtype in ("int", "float", "string") and not isinstance(
            node.test, (ast.Compare, ast.BoolOp)):
        if keyword == "if":
            w.mod.report("nonbool-condition", node, "`if` on a non-boolean tensor: AutoGraph "
                         "needs a scalar tf.bool; write the comparison (e.g. `x != 0`)")
        else:
            w.mod.report("nonbool-condition", node, "`while` on a non-boolean tensor: "
                         "AutoGraph needs a scalar tf.bool; write the comparison")


def assert_tensor(w, node):
    if w.ctx.graph and "ASSERT_STATEMENTS" in w.ctx.features and w.ctx.converted:
        return  # experimental_autograph_options converts asserts to tf.Assert
    if w.ctx.graph and made_bool(w, node.test) is not None:
        w.mod.report("assert-tensor", node, "`assert` on a symbolic tensor; AutoGraph does "
                     "not convert it: use tf.debugging.assert_* instead")


def comprehension_if(w, cond):
    if w.ctx.graph and _is_tensor(w.kind(cond)):
        report_bool(w, cond, "a comprehension `if`", always=True)


def in_list(w, node):
    """``x in [...]`` on a tensor (the dict/set case is unhashable-tensor's)."""
    if not w.ctx.graph:
        return
    for right in w.tensor_membership(node):
        if w.is_list(right):
            w.mod.report("in-list", node, "`in` tests a symbolic tensor against a "
                         "Python list; use tf.reduce_any(tf.equal(x, [...]))")


def bool_op(w, node):
    """``a and b``: Python makes every operand but the last a bool (``x.shape[1] or
    tf.shape(x)[1]`` never tests the tensor; an ``if`` on the whole is ``condition``'s)."""
    if w.ctx.graph and not w.ctx.converted:
        for value in node.values[:-1]:
            if _is_tensor(w.kind(value)):
                report_bool(w, value, "`and`/`or`")
                break


def not_op(w, node):
    if w.ctx.graph and not w.ctx.converted and isinstance(node.op, ast.Not):
        tested = made_bool(w, node.operand)
        if tested is not None:
            report_bool(w, node if tested is node.operand else tested, "`not`")


def if_exp(w, node):
    tested = made_bool(w, node.test) if w.ctx.graph and not w.ctx.converted else None
    if tested is not None:
        report_bool(w, tested, "a conditional expression (`a if cond else b`)")


def bool_call(w, node, name, args_kinds):
    if w.builtin(node.func) == "bool" and args_kinds and _is_tensor(args_kinds[0]):
        report_bool(w, node, "`bool()`", always=True)


def set_seed(w, node, name, args_kinds):
    if name == "tensorflow.random.set_seed" and args_kinds and _is_tensor(args_kinds[0]):
        w.mod.report("set-seed-tensor", node, "tf.random.set_seed() needs a Python int, not a "
                     "tensor; use a stateless op (tf.random.stateless_*) with a seed tensor")
