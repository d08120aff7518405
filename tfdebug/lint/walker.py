"""The walker: one function body in source order, statement by statement, tracking the kinds
of local names and running the statement checks (``checks``); expressions are walked by
``expressions.ExpressionWalker``."""
from __future__ import annotations

import ast
import functools

from .._source import mentions, terminates
from .apis import _literal_dtype
from .checks import lazy_module
from .expressions import ExpressionWalker
from .facts import _falsy_constant
from .findings import debug
from .values import SCALAR, Kind, _is_tensor, _join

# the check modules, each imported when the walk first runs one of its checks
bool_tests, iteration, loops_branches, numpy_data, retracing, side_effects, syntax_support = (
    lazy_module(name, globals()) for name in ("bool_tests", "iteration", "loops_branches",
                                              "numpy_data", "retracing", "side_effects",
                                              "syntax_support"))


# Statements without nested statements that the walker checks through their expressions.
SIMPLE_STATEMENTS = (ast.Delete, ast.Import, ast.ImportFrom, ast.Pass, ast.Break, ast.Continue,
                     *([ast.TypeAlias] if hasattr(ast, "TypeAlias") else []))  # Python 3.12+


class Walker(ExpressionWalker):
    """Walks one function body in source order, tracking the kinds of local names."""

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
                self.mod.unchecked(stmt, "this statement is nested too deeply for the checker")
            except Exception as exc:  # noqa: BLE001 - a checker bug costs one statement
                debug("tfdebug lint: internal error at %s:%s", self.mod.path, stmt.lineno)
                self.mod.failed(stmt, exc)

    def stmt(self, node):
        self.cache.clear()
        self.statement = node
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is not None:
            method(node)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.local_defs[node.name] = node
            self.env[node.name] = None
            if self.mod.wants("tf-function-in-loop"):
                retracing.nested_tf_function(self, node)
            return
        if isinstance(node, ast.ClassDef):
            return
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            self.globals.update(node.names)
            return
        if not isinstance(node, SIMPLE_STATEMENTS):
            # syntax this checker does not know (a newer Python's): its expressions are
            # checked, the statements inside it are not, and the line says so
            self.mod.unchecked(node, f"`{type(node).__name__}` statements are not analysed "
                                     "by this version of tfdebug lint")
            for sub in ast.walk(node):  # what it binds is of unknown kind from here on
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    self.env[sub.id] = None
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)

    def s_Expr(self, node):
        self.expr(node.value)
        if self.mod.wants("tensor-array-dropped"):
            side_effects.discarded_tensor_array_update(self, node)

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
            if self.mod.wants("global-write"):
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
        # An `elif` chain is walked as a loop, not by recursion: a chain of 400 branches is
        # checked to its end. Each `elif` is the `if` in its predecessor's `else`.
        chain = [node]
        while len(chain[-1].orelse) == 1 and isinstance(chain[-1].orelse[0], ast.If):
            chain.append(chain[-1].orelse[0])
        opened = []
        for link in chain:
            self.cache.clear()
            opened.append(self._if_branch(link))
        self.block(chain[-1].orelse)
        for link, state in zip(reversed(chain), reversed(opened)):
            self._if_merge(link, *state)

    def _if_branch(self, node):
        """Walk ``node``'s test and body; the walk then continues in its ``else``."""
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
        self.eager_guard += else_dead
        return test_kind, bound_before, body_env, body_assigned, else_dead

    def _if_merge(self, node, test_kind, bound_before, body_env, body_assigned, else_dead):
        """Join the kinds after ``node``'s body and after its ``else`` (walked last)."""
        self.eager_guard -= else_dead
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
        syntax_support.loop_else(self, node)
        graph_loop = _is_tensor(test_kind) and self.ctx.converted
        self._loop(node, graph_loop, node.body, node.orelse)

    def s_For(self, node):
        ctx = self.ctx
        self.expr(node.iter)
        it = node.iter
        it_kind = self.kind(it)
        iteration.for_loop(self, node, it_kind)
        syntax_support.loop_else(self, node)
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
        """Each case like a branch of an `if`: its pattern binds names of unknown kind, its
        guard and body are checked; after the match, a kind holds only if every way agrees
        (no case matching is one way)."""
        self.expr(node.subject)
        before, bound_before = dict(self.env), set(self.assigned)
        outcomes, assigned = [before], set(bound_before)
        self.if_depth += 1
        for case in node.cases:
            self.env, self.assigned = dict(before), set(bound_before)
            for sub in ast.walk(case.pattern):
                if isinstance(sub, ast.MatchValue):
                    self.expr(sub.value)
                name = getattr(sub, "name", None) or getattr(sub, "rest", None)
                if isinstance(name, str):
                    self.env[name] = None
                    self.assigned.add(name)
            if case.guard is not None:
                self.expr(case.guard)
            self.block(case.body)
            if not terminates(case.body):
                outcomes.append(self.env)
            assigned |= self.assigned
        self.if_depth -= 1
        self.env = {key: functools.reduce(_join, (env.get(key) for env in outcomes))
                    for key in set().union(*outcomes)}
        self.assigned = assigned

    def s_AsyncFor(self, node):
        self.expr(node.iter)  # an async iterator: never a tensor loop AutoGraph converts
        self._loop(node, False, node.body, node.orelse, target=node.target)

    # ------------------------------------------------------------------ binding
    def bind(self, target, value, kind, stmt, loop_target=False):
        if isinstance(target, ast.Name):
            if not loop_target:
                if self.mod.wants("global-write"):
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
