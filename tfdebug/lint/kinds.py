"""Kind inference: what an expression evaluates to (tensor, dataset, model, ...), from the
names bound so far. Kept apart from the walker that traverses statements and runs checks."""
from __future__ import annotations

import ast

from .._source import own_statements
from .apis import _dtype_literal, _literal_dtype, api_kind
from .facts import Context, _keras_class_kind, _Module
from .values import SCALAR, Kind, _is_symbolic, _is_tensor


_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_CHAINS = (ast.BinOp, ast.BoolOp, ast.Compare, ast.Subscript, ast.UnaryOp, ast.Call)


def _inner(node):
    """The operand whose kind ``node``'s kind is read from (the left side of a chain)."""
    if isinstance(node, ast.BinOp):
        return node.left
    if isinstance(node, ast.BoolOp):
        return node.values[0]
    if isinstance(node, ast.Subscript):
        return node.value
    if isinstance(node, ast.UnaryOp):
        return node.operand
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.value
    return None


class KindInference:
    """Kinds of expressions in one scope: ``env`` holds the kinds of names bound so far."""

    def __init__(self, mod: _Module, ctx: Context, env=None, local_names=()):
        self.mod, self.ctx = mod, ctx
        self.env: dict[str, Kind | None] = dict(env or {})
        self.local_names = set(local_names)
        self.cache: dict[int, Kind | None] = {}

    def tensor_membership(self, node: ast.Compare):
        """The right-hand sides of ``tensor in ...`` / ``tensor not in ...`` in ``node`` (a
        tf.data element, a structure of tensors, counts too)."""
        if not _is_symbolic(self.kind(node.left)):
            return
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)):
                yield right

    def is_list(self, node) -> bool:
        """A list/tuple/set display, or a name known to hold a list."""
        return isinstance(node, (ast.List, ast.Tuple, ast.Set)) or (
            self.kind(node) is not None and self.kind(node).what == "list")

    # ------------------------------------------------------------------ kinds
    def kind(self, node) -> Kind | None:
        """What ``node`` evaluates to here (cached per statement: env changes between them)."""
        key = id(node)
        if key in self.cache:
            return self.cache[key]
        if isinstance(node, _CHAINS):
            self._chain_kinds(node)
        result = self.cache[key] = self._kind(node)
        return result

    def _chain_kinds(self, node) -> None:
        """Kinds of a long chain bottom-up, without recursion: ``a + b + ... + z`` nests 600
        ``BinOp``s on its left side (``x[0][0]...``, ``-(-(-x))``, ``ds.map(f).batch(2)...``
        nest the same way), deeper than Python's recursion limit."""
        spine = []
        while True:
            inner = _inner(node)
            if inner is None or id(inner) in self.cache or not isinstance(inner, _CHAINS):
                break
            spine.append(inner)
            node = inner
        for inner in reversed(spine):
            self.cache[id(inner)] = self._kind(inner)

    def _kind(self, node) -> Kind | None:
        mod = self.mod
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            if node.id in self.local_names:
                return None
            kind = mod.env.get(node.id)
            if self.ctx.graph and _is_tensor(kind):
                return None  # a captured eager tensor: a constant of the graph, not an input
            return kind
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (str, bytes)):
                return Kind("str")
            if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
                return SCALAR
            return None
        if isinstance(node, ast.JoinedStr):
            return Kind("str")
        if isinstance(node, (ast.List, ast.Tuple)):
            return Kind("list")
        if isinstance(node, ast.Dict):
            return Kind("dict")
        if isinstance(node, ast.Set):
            return Kind("set")
        if isinstance(node, ast.Call):
            return self._call_kind(node)
        if isinstance(node, ast.Attribute):
            return None  # x.shape, x.dtype, obj.attr: never assumed to be a tensor
        if isinstance(node, ast.Subscript):
            base = self.kind(node.value)
            if base is None:
                return None
            if base.what == "tensor":
                return base
            if base.what == "tensors":
                return Kind("tensor", base.dtype)
            return None
        if isinstance(node, ast.BinOp):
            left, right = self.kind(node.left), self.kind(node.right)
            if isinstance(node.op, ast.Mod) and left is not None and left.what == "str":
                return left
            if _is_tensor(left) or _is_tensor(right):
                if isinstance(node.op, ast.Div):
                    return Kind("tensor", "float")
                dt = [k.dtype for k in (left, right) if _is_tensor(k)]
                lit = [_literal_dtype(n) for n in (node.left, node.right)]
                dtype = "float" if "float" in dt + lit else (dt[0] if len(set(dt)) == 1 else None)
                return Kind("tensor", dtype)
            if left == SCALAR and right == SCALAR:
                return SCALAR
            return None
        if isinstance(node, ast.UnaryOp):
            inner = self.kind(node.operand)
            if _is_tensor(inner) and not isinstance(node.op, ast.Not):
                return inner
            if _is_tensor(inner) and self.ctx.converted:
                return Kind("tensor", "bool")
            return None
        if isinstance(node, ast.Compare):
            if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
                return None
            operands = [self.kind(n) for n in [node.left, *node.comparators]]
            if any(_is_tensor(k) for k in operands):
                return Kind("tensor", "bool")
            # a tf.data element ordered against something: a tensor (a tuple would raise)
            if all(isinstance(op, _ORDERING) for op in node.ops) and any(
                    _is_symbolic(k) for k in operands):
                return Kind("tensor", "bool")
            return None
        if isinstance(node, ast.BoolOp):
            if self.ctx.converted and any(_is_tensor(self.kind(v)) for v in node.values):
                return Kind("tensor", "bool")
            return None
        if isinstance(node, ast.NamedExpr):
            return self.kind(node.value)
        return None

    def _call_kind(self, node: ast.Call) -> Kind | None:
        mod = self.mod
        name = mod.resolve(node.func)
        if name:
            if name in ("tensorflow.constant", "tensorflow.convert_to_tensor") and node.args:
                # the dtype TF infers from a Python literal, or the tensor's own
                given = [kw.value for kw in node.keywords if kw.arg == "dtype"]
                arg = self.kind(node.args[0])
                return Kind("tensor", _dtype_literal(given[0]) if given else (
                    _literal_dtype(node.args[0]) or (arg.dtype if _is_tensor(arg) else None)))
            return api_kind(name, node, self.kind)
        func = node.func
        if isinstance(func, ast.Attribute):
            base = self.kind(func.value)
            if base is not None and base.what == "dataset":
                return base  # ds.map(...).batch(...) is still a dataset
            if base is not None and base.what == "tensor" and func.attr in (
                    "assign", "assign_add", "assign_sub", "read_value", "__getitem__"):
                return Kind("tensor", base.dtype)
            return None
        callee = self.kind(func) if isinstance(func, ast.Name) else None
        if callee is not None and callee.what == "loss" and node.args:
            return Kind("tensor", "float")
        if isinstance(func, ast.Name):
            if func.id in ("range", "len", "int", "float"):
                return SCALAR
            if func.id in ("list", "tuple", "sorted"):
                return Kind("list")
            if func.id == "dict":
                return Kind("dict")
            if func.id == "set":
                return Kind("set")
            if func.id == "str":
                return Kind("str")
            cls = mod.classes.get(func.id)
            if cls is not None and _keras_class_kind(mod, cls) == "model":
                return Kind("model")
            factory = mod.defs.get(func.id) if func.id not in self.env else None
            if isinstance(factory, ast.FunctionDef) and self._returns_model(factory):
                return Kind("model")
        return None

    def _returns_model(self, factory: ast.FunctionDef) -> bool:
        """Does the module function ``factory`` return a Keras model it builds (``return
        keras.Sequential(...)``, or a name it binds to one)?"""
        found = self.mod.factories.get(id(factory))
        if found is None:
            self.mod.factories[id(factory)] = False  # a recursive factory: not a model
            inner = KindInference(self.mod, Context(False, False, "host"))
            built = {}
            for stmt in own_statements(factory.body):
                if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
                    kind = inner.kind(stmt.value)
                    built.update({t.id: kind for t in stmt.targets if isinstance(t, ast.Name)})
            found = any(isinstance(stmt, ast.Return) and stmt.value is not None and (
                (isinstance(stmt.value, ast.Name) and built.get(stmt.value.id) == Kind("model"))
                or (isinstance(stmt.value, ast.Call) and inner.kind(stmt.value) == Kind("model")))
                for stmt in own_statements(factory.body))
            self.mod.factories[id(factory)] = found
        return found
