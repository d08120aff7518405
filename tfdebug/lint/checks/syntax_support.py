"""unsupported-syntax, autograph-conversion (TFD125-127, 130, 132): Python that AutoGraph cannot
convert or cannot find."""
from __future__ import annotations

import ast

from ..._source import dotted_rooted


def _handler_names(node):
    if node is None:
        return []
    if isinstance(node, ast.Tuple):
        return list(node.elts)
    return [node]


def try_except(w, node):
    ctx, mod = w.ctx, w.mod
    if ctx.graph:
        for handler in node.handlers:
            names = _handler_names(handler.type)
            caught = [n for n in names if (mod.resolve(n) or "").startswith("tensorflow.errors.")]
            if caught:
                mod.report("try-except", node, "`try`/`except "
                           f"{dotted_rooted(caught[0])}` in traced code only catches trace-time "
                           "errors; the op fails later, when the graph runs")
                break


def return_in_graph_loop(w, node):
    if w.graph_loop() is not None and w.ctx.converted:
        w.mod.report("return-in-graph-loop", node,
                     "`return` inside a loop over a tensor; AutoGraph cannot convert it "
                     "(break out of the loop, then return)")


def yield_in_entry(w, node):
    if w.ctx.entry and w.ctx.kind in ("function", "data"):
        w.mod.report("yield", node, "a generator cannot be a tf.function (or tf.data "
                     "function); build the result as tensors, or use "
                     "tf.data.Dataset.from_generator")


def shared_lambda_lines(mod) -> None:
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


# AutoGraph's unsupported-features checker (autograph/core/unsupported_features_checker.py,
# TF 2.16-2.21) refuses a whole function for a loop with an `else:` or an attribute named
# `__x` (not `__x__`): it then runs the function as plain Python.
def loop_else(w, node):
    if w.ctx.converted and node.orelse:
        keyword = "for" if isinstance(node, (ast.For, ast.AsyncFor)) else "while"
        w.mod.report("autograph-declines", node, f"AutoGraph refuses `{keyword}`/`else` and runs "
                     "this whole function as plain Python: its tensor `if`/`for`/`while` then "
                     "fail; set a flag in the loop and test it after the loop instead of `else:`")


def mangled_attribute(w, node):
    if w.ctx.converted and node.attr.startswith("__") and not node.attr.endswith("__"):
        w.mod.report("autograph-declines", node, f"AutoGraph refuses the name-mangled attribute "
                     f"`{node.attr}` and runs this whole function as plain Python: its tensor "
                     f"`if`/`for`/`while` then fail; rename it `{node.attr[1:]}`")
