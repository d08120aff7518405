"""The walker: one function body in source order, tracking the kinds of local names, running
the checks (``checks``) at each statement and expression."""
from __future__ import annotations

import ast

from .._source import all_args, locally_bound, mentions, terminates
from .._vocab import PY_FUNCTIONS
from . import entries
from .apis import _LOGGING_CALLEES, _literal_dtype
from .checks import (bool_tests, dispatch, iteration, loops_branches, numpy_data, retracing,
                     side_effects, syntax_support)
from .facts import Context, _falsy_constant, _Module
from .findings import debug
from .kinds import KindInference
from .values import SCALAR, Kind, _is_tensor, _join

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class Walker(KindInference):
    """Walks one function body in source order, tracking the kinds of local names."""

    def __init__(self, mod: _Module, func, ctx: Context, params: dict[str, Kind] | None = None):
        local = locally_bound(func) if isinstance(func, _FUNCTIONS) else set()
        super().__init__(mod, ctx, params, local)
        self.func = func
        self.local_defs: dict[str, ast.AST] = {}
        self.assigned: set[str] = set(params or {})
        self.globals: set[str] = set()
        self.loops: list[tuple[ast.AST, bool, set]] = []   # (node, graph loop?, names bound before)
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
        return any(_is_tensor(k) for k in args_kinds) or any(
            _is_tensor(self.kind(kw.value)) for kw in node.keywords)

    # ------------------------------------------------------------------ statements
    def run(self):
        func = self.func
        if isinstance(func, ast.Lambda):
            self.expr(func.body)
            if self.ctx.kind == "data":
                numpy_data.data_return(self, func.body)
        else:
            self.block(func.body)
        return self

    def block(self, stmts):
        for stmt in stmts:
            try:
                self.stmt(stmt)
            except RecursionError:
                debug("tfdebug lint: too deep at %s:%s", self.mod.path, stmt.lineno)

    def stmt(self, node):
        self.cache.clear()
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is not None:
            method(node)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.local_defs[node.name] = node
            self.env[node.name] = None
            retracing.nested_tf_function(self, node)
            return
        if isinstance(node, ast.ClassDef):
            return
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            self.globals.update(node.names)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)

    def s_Expr(self, node):
        self.expr(node.value)

    def s_Return(self, node):
        if node.value is not None:
            self.expr(node.value)
            if self.ctx.kind == "data" and self.ctx.entry:
                numpy_data.data_return(self, node.value)
        syntax_support.return_in_graph_loop(self, node)

    def s_Assign(self, node):
        self.expr(node.value)
        value_kind = self.kind(node.value)
        for target in node.targets:
            self.bind(target, node.value, value_kind, node)

    def s_AnnAssign(self, node):
        if node.value is not None:
            self.expr(node.value)
            self.bind(node.target, node.value, self.kind(node.value), node)

    def s_AugAssign(self, node):
        self.expr(node.value)
        target = node.target
        if isinstance(target, ast.Name):
            before = self.env.get(target.id)
            after = self.kind(ast.BinOp(left=target, op=node.op, right=node.value))
            side_effects.global_write(self, node, target.id, augmented=True)
            loops_branches.loop_var_dtype(self, node, before, after)
            self.env[target.id] = after if after is not None else (
                before if _is_tensor(before) else None)
            self.assigned.add(target.id)
        elif isinstance(target, ast.Attribute):
            self.expr(target.value)
            side_effects.attribute_update(self, node)
        elif isinstance(target, ast.Subscript):
            self.expr(target)

    def _block_maybe_dead(self, body, dead: bool):
        """Walk ``body``; when it never runs while tracing, its trace-time checks stay quiet."""
        self.eager_guard += dead
        self.block(body)
        self.eager_guard -= dead

    def s_If(self, node):
        self.expr(node.test)
        test_kind = self.kind(node.test)
        # Branches that never run while tracing: `if tf.executing_eagerly():` (its `else` does
        # run), and `if DEBUG:` on a module constant that is falsy and never reassigned.
        negated = isinstance(node.test, ast.UnaryOp) and isinstance(node.test.op, ast.Not)
        eager_test = mentions(node.test, "executing_eagerly")
        body_dead = (eager_test and not negated) or _falsy_constant(self.mod, node.test)
        else_dead = eager_test and negated
        bool_tests.condition(self, node, test_kind, "if")
        before = dict(self.env)
        bound_before = set(self.assigned)
        self.if_depth += 1
        self._block_maybe_dead(node.body, body_dead)
        body_env, body_assigned = self.env, self.assigned
        self.env, self.assigned = dict(before), set(bound_before)
        self._block_maybe_dead(node.orelse, else_dead)
        self.if_depth -= 1
        else_env, else_assigned = self.env, self.assigned
        if self.ctx.converted and _is_tensor(test_kind):
            loops_branches.branches(self, node, bound_before, body_assigned, else_assigned)
        merged = {}
        for key in set(body_env) | set(else_env):
            if terminates(node.body):
                merged[key] = else_env.get(key)
            elif terminates(node.orelse):
                merged[key] = body_env.get(key)
            else:
                merged[key] = _join(body_env.get(key), else_env.get(key))
        self.env = merged
        self.assigned = body_assigned | else_assigned

    def s_While(self, node):
        self.expr(node.test)
        test_kind = self.kind(node.test)
        bool_tests.condition(self, node, test_kind, "while")
        graph_loop = _is_tensor(test_kind) and self.ctx.converted
        self._loop(node, graph_loop, node.body, node.orelse)

    def s_For(self, node):
        ctx = self.ctx
        self.expr(node.iter)
        it = node.iter
        it_kind = self.kind(it)
        iteration.for_loop(self, node, it_kind)
        graph_loop = False
        elem = None
        if _is_tensor(it_kind):
            graph_loop = ctx.converted
            elem = Kind("tensor", it_kind.dtype)
        elif it_kind is not None and it_kind.what == "dataset":
            # converted to Dataset.reduce, which relaxes shapes: only the append check applies
            self._loop(node, ctx.converted, node.body, node.orelse, target=node.target,
                       shape_checks=False)
            return
        elif isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in (
                "enumerate", "zip"):
            pass
        elif isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
            elem = SCALAR if not any(_is_tensor(self.kind(a)) for a in it.args) else None
            if elem is None and ctx.converted:
                graph_loop, elem = True, Kind("tensor", "int")
        elif isinstance(it, (ast.List, ast.Tuple)) and it.elts and all(
                _literal_dtype(e) in ("int", "float") for e in it.elts):
            elem = SCALAR
        self._loop(node, graph_loop, node.body, node.orelse, target=node.target, elem=elem)

    def _loop(self, node, graph_loop, body, orelse, target=None, elem=None, shape_checks=True):
        bound_before = set(self.assigned)
        if target is not None:
            self.bind(target, None, elem, node, loop_target=True)
        before = dict(self.env)
        self.loops.append((node, graph_loop, bound_before))
        self.block(body)
        self.loops.pop()
        if graph_loop and shape_checks:
            loops_branches.loop_shape(self, node, body, bound_before)
        self.block(orelse)
        for key in set(self.env) | set(before):
            self.env[key] = _join(self.env.get(key), before.get(key)) if not (
                _is_tensor(self.env.get(key)) and before.get(key) == SCALAR) else self.env.get(key)

    def s_With(self, node):
        for item in node.items:
            self.expr(item.context_expr)
            kind = self.kind(item.context_expr)
            if kind is not None and kind.what == "tape":
                self.has_tape = True
            if item.optional_vars is not None:
                self.bind(item.optional_vars, None, kind, node)
        eager = any(mentions(i.context_expr, "init_scope") for i in node.items)
        self.eager_guard += eager
        self.block(node.body)
        self.eager_guard -= eager

    s_AsyncWith = s_With

    def s_Try(self, node):
        syntax_support.try_except(self, node)
        self.if_depth += 1
        self.block(node.body)
        self.if_depth -= 1
        for handler in node.handlers:
            if handler.name:
                self.env[handler.name] = None
            self.block(handler.body)
        self.block(node.orelse)
        self.block(node.finalbody)

    s_TryStar = s_Try

    def s_Assert(self, node):
        self.expr(node.test)
        bool_tests.assert_tensor(self, node)

    def s_Raise(self, node):
        self.in_raise += 1
        for child in (node.exc, node.cause):
            if child is not None:
                self.expr(child)
        self.in_raise -= 1

    def s_Match(self, node):
        self.expr(node.subject)
        for case in node.match_cases:
            self.block(case.body)

    # ------------------------------------------------------------------ binding
    def bind(self, target, value, kind, stmt, loop_target=False):
        if isinstance(target, ast.Name):
            if not loop_target:
                side_effects.global_write(self, stmt, target.id, augmented=False)
            self.env[target.id] = kind
            self.assigned.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not loop_target:
                iteration.unpacking(self, stmt, kind)
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for t, v in zip(target.elts, value.elts):
                    self.bind(t, v, self.kind(v), stmt, loop_target)
            else:
                inner = Kind("tensor", kind.dtype) if kind is not None and kind.what == "tensors" else None
                if loop_target and isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Call) \
                        and isinstance(stmt.iter.func, ast.Name) and stmt.iter.func.id == "enumerate":
                    inner = None
                    if target.elts and isinstance(target.elts[0], ast.Name):
                        self.env[target.elts[0].id] = SCALAR
                        self.assigned.add(target.elts[0].id)
                        for t in target.elts[1:]:
                            self.bind(t, None, None, stmt, loop_target)
                        return
                for t in target.elts:
                    self.bind(t, None, inner, stmt, loop_target)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, None, None, stmt, loop_target)
        elif isinstance(target, ast.Attribute):
            self.expr(target.value)
        elif isinstance(target, ast.Subscript):
            self.expr(target.value)
            self.expr(target.slice)
            iteration.item_assignment_key(self, target)
            side_effects.item_assignment(self, target, stmt)

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
        if name == "tensorflow.function" or (isinstance(func, ast.Call) and mod.is_tf_function(func)):
            retracing.tf_function_call(self, node)
        if ctx.graph:
            args_kinds = [self.kind(a) for a in node.args]
            for check in self.call_checks:
                check(self, node, name, args_kinds)
            entries.request_helper(self, node, func)
        elif name is None and isinstance(func, ast.Name):
            target = entries.record_call_site(self, node)
            if target is not None:
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
