"""Expressions in a function body: the walker's state, expression traversal in source order,
comprehensions and calls, with the expression and call checks (``checks``) run at each."""
from __future__ import annotations

import ast

from .._source import all_args, locally_bound
from .._vocab import PY_FUNCTIONS
from . import entries
from .apis import _LOGGING_CALLEES
from .checks import dispatch, lazy_module
from .facts import Context, _Module
from .kinds import KindInference
from .values import SCALAR, Kind, _is_symbolic, _is_tensor

# the check modules, each imported when the walk first runs one of its checks
bool_tests, iteration, retracing = (lazy_module(name, globals())
                                    for name in ("bool_tests", "iteration", "retracing"))

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class ExpressionWalker(KindInference):
    """The state of a walk through one function body, and the walk through its expressions."""

    def __init__(self, mod: _Module, func, ctx: Context, params: dict[str, Kind] | None = None):
        local = locally_bound(func) if isinstance(func, _FUNCTIONS) else set()
        super().__init__(mod, ctx, params, local)
        self.func = func
        self.local_defs: dict[str, ast.AST] = {}
        self.assigned: set[str] = set(params or {})
        self.globals: set[str] = set()
        self.loops: list[tuple[ast.AST, bool, set]] = []   # (node, graph loop?, names bound before)
        self.statement: ast.stmt | None = None  # the statement being walked
        self.eager_guard = 0
        self.in_raise = 0
        self.in_log = 0
        self.has_tape = False
        self.if_depth = 0
        self.requests: list[tuple[ast.AST, Context, dict]] = []
        self.cls = mod.parent_class.get(id(func))
        if isinstance(func, _FUNCTIONS):
            self.assigned |= {a.arg for a in all_args(func.args)}
        self.call_checks, self.expr_checks = dispatch(mod.enabled)

    # ------------------------------------------------------------------ state the checks read
    def conditional(self) -> bool:
        """Inside an `if` (e.g. `if self.v is None:`) or a `try`? Then stay silent."""
        return self.if_depth > 0

    def graph_loop(self):
        """The innermost loop over a tensor (converted by AutoGraph), or None."""
        return next((lp for lp in reversed(self.loops) if lp[1]), None)

    def builtin(self, func) -> str | None:
        """The builtin's name when ``func`` is a bare name nothing here rebinds."""
        if isinstance(func, ast.Name) and func.id not in self.env and \
                func.id not in self.local_defs and func.id not in self.mod.defs:
            return func.id
        return None

    def tensor_in_args(self, node: ast.Call, args_kinds) -> bool:
        """Is an argument symbolic: a tensor, or a tf.data element (a structure of them)?"""
        return any(_is_symbolic(k) for k in args_kinds) or any(
            _is_symbolic(self.kind(kw.value)) for kw in node.keywords)

    # ------------------------------------------------------------------ expressions
    def expr(self, node):
        """Run the expression checks on ``node`` and everything inside it."""
        stack = [node]
        checks = self.expr_checks
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Lambda):
                continue  # a lambda's body runs when it is called; entries are walked on their own
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                self._comprehension(node)
                continue
            if isinstance(node, ast.Call):
                if self.e_Call(node) is False:
                    continue
            elif isinstance(node, ast.NamedExpr):
                self.e_NamedExpr(node)
                continue
            elif isinstance(node, ast.JoinedStr) and (
                    not self.ctx.graph or self.in_raise or self.in_log):
                continue  # messages of raise/logging may show tensors; host code may format
            for check in checks.get(type(node), ()):
                check(self, node)
            stack.extend(reversed(list(ast.iter_child_nodes(node))))

    def _comprehension(self, node):
        saved = dict(self.env)
        for gen in node.generators:
            self.expr(gen.iter)
            it_kind = self.kind(gen.iter)
            if self.mod.wants("comprehension-tensor"):
                iteration.comprehension(self, gen, it_kind)
            elem = Kind("tensor", it_kind.dtype) if _is_tensor(it_kind) else (
                SCALAR if isinstance(gen.iter, ast.Call) and isinstance(gen.iter.func, ast.Name)
                and gen.iter.func.id == "range" else None)
            self._bind_comp(gen.target, elem)
            for cond in gen.ifs:
                self.expr(cond)
                bool_tests.comprehension_if(self, cond)
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for part in parts:
            self.expr(part)
        if self.mod.wants("unhashable"):
            iteration.comprehension_key(self, node)
        self.env = saved

    def _bind_comp(self, target, kind):
        if isinstance(target, ast.Name):
            self.env[target.id] = kind
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self._bind_comp(t, None)

    def e_Call(self, node):
        ctx, mod = self.ctx, self.mod
        func = node.func
        name = mod.resolve(func)
        if name is not None and name.rsplit(".", 1)[-1] in _LOGGING_CALLEES and name.startswith(
                ("logging.", "absl.logging.")):
            self.in_log += 1
            for child in ast.iter_child_nodes(node):
                self.expr(child)
            self.in_log -= 1
            return False
        if (name == "tensorflow.function" or (isinstance(func, ast.Call) and mod.is_tf_function(func))) \
                and mod.wants("tf-function-in-loop"):
            retracing.tf_function_call(self, node)
        if ctx.graph:
            args_kinds = [self.kind(a) for a in node.args]
            for check in self.call_checks:
                check(self, node, name, args_kinds)
            entries.request_helper(self, node, func)
        elif name is None and isinstance(func, ast.Name):
            target = entries.record_call_site(self, node)
            if target is not None and mod.wants("python-scalar-arg", "shape-changing-arg"):
                retracing.host_call(self, node, target)
        if isinstance(func, ast.Attribute) and func.attr in entries.DATASET_FN_METHODS and node.args:
            entries.dataset_call(self, node)
        if isinstance(func, ast.Attribute) and func.attr == "compile":
            entries.compile_call(self, node)
        if name in PY_FUNCTIONS:
            # the Python function runs eagerly; only its other arguments are graph code
            for arg in node.args[1:]:
                self.expr(arg)
            for kw in node.keywords:
                if kw.arg not in ("func",):
                    self.expr(kw.value)
            return False
        return None

    def e_NamedExpr(self, node):
        self.expr(node.value)
        if isinstance(node.target, ast.Name):
            self.env[node.target.id] = self.kind(node.value)
        return False
