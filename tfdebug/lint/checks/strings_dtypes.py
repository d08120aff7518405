"""string-format, dtype-mismatch (TFD161, 175-177): Python strings built from symbolic
tensors, and Python floats meeting integer tensors."""
from __future__ import annotations

import ast
import re

from ..apis import _NUMERIC_PERCENT, _literal_dtype
from ..values import _is_symbolic, _is_tensor


def string_format(w, node):
    if w.in_raise or w.in_log:
        return
    w.mod.report("fstring-tensor", node, "a Python string built from a symbolic tensor "
                 "shows `Tensor(\"...\")`, not its value; use tf.strings.format, "
                 "tf.strings.join or tf.print")


def fstring(w, node):
    for value in node.values:
        if isinstance(value, ast.FormattedValue) and _is_symbolic(w.kind(value.value)):
            if value.format_spec is not None:
                w.mod.report("format-spec-tensor", node, "a format spec applied to a "
                             "symbolic tensor fails; use tf.strings.format or tf.print")
            else:
                string_format(w, node)
            break


def float_meets_int(w, node):
    if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        for tensor_side, other in ((node.left, node.right), (node.right, node.left)):
            kind = w.kind(tensor_side)
            if _is_tensor(kind) and kind.dtype == "int" and _literal_dtype(other) == "float" \
                    and isinstance(other, (ast.Constant, ast.UnaryOp)):
                w.mod.report("float-meets-int", node, "a Python float meets an integer "
                             "tensor; TensorFlow does not promote dtypes: tf.cast the "
                             "tensor to float first")
                break


def percent_format(w, node):
    if (w.ctx.graph and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str) and not w.in_raise and not w.in_log):
        right = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        if any(_is_symbolic(w.kind(r)) for r in right):
            if re.search(_NUMERIC_PERCENT, node.left.value):
                w.mod.report("percent-format-tensor", node, "a numeric %-format (`%d`, "
                             "`%f`) of a symbolic tensor fails while tracing; use "
                             "tf.print or tf.strings.format")
            else:
                string_format(w, node)


def str_call(w, node, name, args_kinds):
    if w.builtin(node.func) == "str" and args_kinds and _is_symbolic(args_kinds[0]):
        string_format(w, node)


def format_method(w, node, name, args_kinds):
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "format" and isinstance(
            func.value, ast.Constant) and isinstance(func.value.value, str):
        if w.tensor_in_args(node, args_kinds):
            string_format(w, node)
