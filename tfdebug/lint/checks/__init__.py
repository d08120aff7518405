"""The checks, by the walker hook that runs them, each with the check names it can report.

ruff's shape: the walker (``..walker``) calls the checks registered here at fixed points;
each check is a function of the walker ``w`` in a module named for what it finds. A check
whose names are all disabled (``--select``/``--ignore``) is not run at all, and its module is
not even imported: the tables name each check as ``"module.function"``, and the walker holds
its check modules as ``lazy_module`` stand-ins (the explainer's question about one line of
one error class runs a dozen checks, and loads only the modules that have them).
"""
from __future__ import annotations

import ast
import functools
import importlib

# Checks of a call in traced code: check(w, node, canonical name or None, argument kinds).
CALL_CHECKS = (
    ("numpy_data.numpy_method", ("numpy-method", "numpy-in-data")),
    ("side_effects.random_and_clocks", ("python-random", "python-clock")),
    ("numpy_data.numpy_on_tensor", ("numpy-call", "numpy-in-data")),
    ("side_effects.numpy_reads_stale_state", ("stale-capture",)),
    ("side_effects.builtin_io", ("print", "python-io", "python-input")),
    ("bool_tests.bool_call", ("tensor-bool", "tensor-bool-keras")),
    ("iteration.len_call", ("len-tensor",)),
    ("strings_dtypes.str_call", ("fstring-tensor",)),
    ("bool_tests.set_seed", ("set-seed-tensor",)),
    ("creation.variable_in_body", ("variable-in-body",)),
    ("creation.keras_object_in_body", ("keras-object-in-body",)),
    ("strings_dtypes.format_method", ("fstring-tensor",)),
    ("side_effects.mutator_call", ("append-in-graph-loop", "container-mutation")),
    ("creation.training_flag", ("keras-training-flag",)),
    ("creation.keras_loop", ("keras-loop-in-graph",)),
)

# Checks of an expression node, by node type: check(w, node).
EXPR_CHECKS = {
    ast.Compare: (("bool_tests.in_list", ("in-list",)), ("iteration.in_dict", ("unhashable",))),
    ast.BoolOp: (("bool_tests.bool_op", ("tensor-bool", "tensor-bool-keras")),),
    ast.UnaryOp: (("bool_tests.not_op", ("tensor-bool", "tensor-bool-keras")),),
    ast.IfExp: (("bool_tests.if_exp", ("tensor-bool", "tensor-bool-keras")),),
    ast.Subscript: (("iteration.subscript", ("unhashable", "list-index-tensor")),),
    ast.Dict: (("iteration.dict_keys", ("unhashable",)),),
    ast.JoinedStr: (("strings_dtypes.fstring", ("format-spec-tensor", "fstring-tensor")),),
    ast.BinOp: (("strings_dtypes.float_meets_int", ("float-meets-int",)),
                ("strings_dtypes.percent_format", ("percent-format-tensor", "fstring-tensor"))),
    ast.Yield: (("syntax_support.yield_in_entry", ("yield",)),),
    ast.YieldFrom: (("syntax_support.yield_in_entry", ("yield",)),),
    ast.Name: (("retracing.stale_global", ("stale-global",)),),
    ast.Attribute: (("syntax_support.mangled_attribute", ("autograph-declines",)),),
}


@functools.lru_cache(maxsize=32)
def dispatch(enabled: frozenset | None):
    """``(call checks, expression checks)`` for the enabled check names (None: all)."""
    def wanted(names):
        return enabled is None or any(n in enabled for n in names)
    calls = tuple(_function(ref) for ref, names in CALL_CHECKS if wanted(names))
    exprs = {}
    for node_type, checks in EXPR_CHECKS.items():
        fns = tuple(_function(ref) for ref, names in checks if wanted(names))
        if fns:
            exprs[node_type] = fns
    return calls, exprs


def _function(ref: str):
    """The check ``"module.function"`` names (its module imported now, if not yet)."""
    module, name = ref.split(".")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


class lazy_module:
    """A check module, imported when first used; then the real module takes the stand-in's
    place in the namespace given (a later access is a plain global lookup)."""

    def __init__(self, name: str, namespace: dict):
        self.name, self.namespace = name, namespace

    def __getattr__(self, attr: str):
        module = importlib.import_module(f"{__name__}.{self.name}")
        if self.namespace.get(self.name) is self:
            self.namespace[self.name] = module
        return getattr(module, attr)


MODULES = ("bool_tests", "creation", "iteration", "loops_branches", "numpy_data", "retracing",
           "side_effects", "strings_dtypes", "syntax_support")

__all__ = ["CALL_CHECKS", "EXPR_CHECKS", "MODULES", "dispatch", "lazy_module"]
