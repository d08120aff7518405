"""Find the `raise` sites of Python source with `ast` and rebuild each one's message.

A message is rebuilt from string literals, f-strings, ``%``-formatting, ``str.format``,
``+`` concatenation and names assigned earlier in the same function (or the module). What
cannot be known statically becomes a placeholder: ``{expr}`` in the template, a plausible
sample value (``x``, ``float32``, ``(2,)``, ...) in the sample, so message regexes can be
tried on the sample.

Example::

    for site in raise_sites(open(path).read()):
        print(site.function, site.cls, site.template)
"""
from __future__ import annotations

import ast
import dataclasses
import re

# Exception classes whose constructor takes (node_def, op, message): tf.errors.OpError's family.
_OP_ERRORS = {
    "OpError", "CancelledError", "UnknownError", "InvalidArgumentError", "DeadlineExceededError",
    "NotFoundError", "AlreadyExistsError", "PermissionDeniedError", "UnauthenticatedError",
    "ResourceExhaustedError", "FailedPreconditionError", "AbortedError", "OutOfRangeError",
    "UnimplementedError", "InternalError", "UnavailableError", "DataLossError",
}
_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrifgexXcoEG%]")
_FORMAT_FIELD = re.compile(r"\{[^{}]*\}")
_MAX_DEPTH = 6


@dataclasses.dataclass(frozen=True)
class RaiseSite:
    function: str          # qualified name of the enclosing function ('' at module level)
    cls: str               # the raised class's dotted name as written (``errors.OpError``)
    template: str          # message with ``{expr}`` placeholders
    sample: str            # message with placeholders filled in
    line: int


@dataclasses.dataclass(frozen=True)
class _Hole:
    source: str


def _sample_value(source: str) -> str:
    """A plausible rendering of an expression whose value is unknown statically."""
    low = source.lower()
    for words, value in ((("dtype",), "float32"), (("shape", "spec"), "(2,)"),
                         (("type(",), "<class 'int'>"), (("len(", "num", "count", "rank", "ndims",
                                                          "index", "size"), "2")):
        if any(w in low for w in words):
            return value
    return "x"


class _Renderer:
    """Rebuild message parts (literals and holes) from an expression inside one function."""

    def __init__(self, scopes):
        self.scopes = scopes  # innermost last: (statements, look inside nested blocks?)

    def parts(self, node, depth=0) -> list:
        if depth > _MAX_DEPTH or node is None:
            return [_Hole(_source(node))]
        if isinstance(node, ast.Constant):
            return [str(node.value)] if isinstance(node.value, str) else [_Hole(_source(node))]
        if isinstance(node, ast.JoinedStr):
            out = []
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    out.append(_Hole(_source(value.value)))
                else:
                    out += self.parts(value, depth + 1)
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.parts(node.left, depth + 1), self.parts(node.right, depth + 1)
            return left + right
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            return self._percent(node, depth)
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        if isinstance(node, ast.Name):
            value = self._lookup(node.id, node.lineno)
            if value is not None:
                return self.parts(value, depth + 1)
        return [_Hole(_source(node))]

    def _percent(self, node, depth):
        template = self.parts(node.left, depth + 1)
        args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        holes = iter([_Hole(_source(a)) for a in args])
        return _substitute(template, _PERCENT, lambda m: "%" if m.group() == "%%" else next(holes, _Hole("...")))

    def _call(self, node, depth):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format":
            template = self.parts(func.value, depth + 1)
            positional = iter(node.args)
            named = {k.arg: k.value for k in node.keywords if k.arg}

            def field(match):
                name = match.group()[1:-1].split("!")[0].split(":")[0].split(".")[0].split("[")[0]
                arg = named.get(name) if name and not name.isdigit() else None
                if arg is None and name.isdigit() and int(name) < len(node.args):
                    arg = node.args[int(name)]
                if arg is None and not name:
                    arg = next(positional, None)
                return _Hole(_source(arg) if arg is not None else name or "...")
            return _substitute(template, _FORMAT_FIELD, field)
        if isinstance(func, ast.Attribute) and func.attr in ("dedent", "strip", "rstrip", "lstrip") and node.args:
            return self.parts(node.args[0], depth + 1)
        if isinstance(func, ast.Attribute) and func.attr in ("strip", "rstrip", "lstrip"):
            return self.parts(func.value, depth + 1)
        if isinstance(func, ast.Name) and func.id == "str" and node.args:
            return self.parts(node.args[0], depth + 1)
        return [_Hole(_source(node))]

    def _lookup(self, name, before_line):
        """The value last assigned to ``name`` before ``before_line`` (innermost scope first)."""
        for statements, deep in reversed(self.scopes):
            found = None
            for stmt in statements:
                for node in (ast.walk(stmt) if deep else [stmt]):
                    if getattr(node, "lineno", before_line) >= before_line:
                        continue
                    if isinstance(node, ast.Assign) and any(
                            isinstance(t, ast.Name) and t.id == name for t in node.targets):
                        if found is None or node.lineno > found.lineno:
                            found = node
            if found is not None:
                return found.value
        return None


def _substitute(parts, pattern, replace):
    """Split the literal parts on ``pattern`` and put ``replace(match)`` for each match."""
    out = []
    for part in parts:
        if isinstance(part, _Hole):
            out.append(part)
            continue
        position = 0
        for match in pattern.finditer(part):
            out += [part[position:match.start()], replace(match)]
            position = match.end()
        out.append(part[position:])
    return [p for p in out if p != ""]


def _source(node) -> str:
    if node is None:
        return "..."
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _dotted(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _message_node(call: ast.Call, cls: str):
    """The argument that carries the message (OpError's family takes it third)."""
    if cls.rsplit(".", 1)[-1] in _OP_ERRORS and len(call.args) >= 3:
        return call.args[2]
    if call.args:
        return call.args[0]
    for keyword in call.keywords:
        if keyword.arg in ("message", "msg"):
            return keyword.value
    return None


def _join(parts, hole) -> str:
    text = "".join(hole(p) if isinstance(p, _Hole) else p for p in parts)
    return re.sub(r"\s+", " ", text).strip()


class _Visitor(ast.NodeVisitor):
    def __init__(self, module: ast.Module):
        self.stack, self.scopes, self.sites = [], [(module.body, False)], []
        self.functions = []  # enclosing FunctionDef nodes, innermost last
        self.by_parameter = []  # (function node, parameter, site, parts): messages made by callers

    def _scoped(self, node):
        self.stack.append(node.name)
        self.scopes.append((node.body, not isinstance(node, ast.ClassDef)))
        is_function = not isinstance(node, ast.ClassDef)
        if is_function:
            self.functions.append(node)
        self.generic_visit(node)
        if is_function:
            self.functions.pop()
        self.scopes.pop()
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_Raise(self, node):
        exc = node.exc
        if exc is None:
            return
        call = exc if isinstance(exc, ast.Call) else None
        cls = _dotted(call.func if call else exc)
        if not cls or not cls.rsplit(".", 1)[-1][:1].isupper():
            return  # a re-raise of a caught exception, or a factory whose class is unknown
        parts = _Renderer(self.scopes).parts(_message_node(call, cls)) if call else []
        site = _site(".".join(self.stack), cls, node.lineno, parts)
        self.sites.append(site)
        if self.functions:
            function = self.functions[-1]
            names = [a.arg for a in function.args.posonlyargs + function.args.args]
            for hole in (p for p in parts if isinstance(p, _Hole) and p.source in names):
                self.by_parameter.append((function, hole.source, site, parts))
                break


def _site(function, cls, line, parts) -> RaiseSite:
    return RaiseSite(function=function, cls=cls, line=line,
                     template=_join(parts, lambda h: "{" + h.source + "}"),
                     sample=_join(parts, lambda h: _sample_value(h.source)))


def _argument(call: ast.Call, function: ast.FunctionDef, parameter: str):
    """The expression ``call`` passes for ``function``'s ``parameter``, or None."""
    for keyword in call.keywords:
        if keyword.arg == parameter:
            return keyword.value
    names = [a.arg for a in function.args.posonlyargs + function.args.args]
    index = names.index(parameter)
    if names and names[0] in ("self", "cls") and isinstance(call.func, ast.Attribute):
        index -= 1
    return call.args[index] if 0 <= index < len(call.args) else None


def _caller_messages(module: ast.Module, visitor: _Visitor) -> tuple[list[RaiseSite], set]:
    """Sites whose message is a parameter, once per caller in the module that passes a string."""
    sites, expanded = [], set()
    for function, parameter, site, parts in visitor.by_parameter:
        for call in (n for n in ast.walk(module) if isinstance(n, ast.Call)):
            called = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)
            argument = _argument(call, function, parameter) if called == function.name else None
            if not isinstance(argument, (ast.Constant, ast.JoinedStr)):
                continue
            given = _Renderer([(module.body, False)]).parts(argument)
            filled = [q for p in parts for q in (given if isinstance(p, _Hole) and p.source == parameter else [p])]
            sites.append(_site(site.function, site.cls, site.line, filled))
            expanded.add(site)
    return sites, expanded


def raise_sites(source: str) -> list[RaiseSite]:
    """Every ``raise Class(...)`` in ``source``, in line order, with its rebuilt message."""
    module = ast.parse(source)
    visitor = _Visitor(module)
    visitor.visit(module)
    from_callers, expanded = _caller_messages(module, visitor)
    sites = [s for s in visitor.sites if s not in expanded] + from_callers
    return sorted(sites, key=lambda s: (s.line, s.template))
