"""Reading the user's source: parsed trees cached on linecache text, and AST helpers.

One layer for every reader of user source (the linter, the side-effect guard, the
explainer): stdlib only, imports nothing of tfdebug, never imports or runs user code.

Example::

    tree = module_tree("train.py")
    stmt = statement_at(tree, 12)
    func = enclosing_function(tree, 12)
"""
from __future__ import annotations

import ast
import linecache
import types

from ._vocab import KERAS_CONSTRUCTOR_NAME, KERAS_LOOPS  # noqa: F401  (KERAS_LOOPS re-exported)

# -- trees -------------------------------------------------------------------------------

_tree_cache: dict[str, tuple[object, ast.AST | None, list]] = {}
_node_cache: dict[types.CodeType, ast.AST | None] = {}
_CACHE_FILES = 64


def module_tree(filename: str | None) -> ast.AST | None:
    """The parsed module of ``filename``, cached on its linecache text; None if unreadable.

    An edited file (or a re-run notebook cell) is parsed anew. The text is known unchanged
    when linecache still holds the list that was parsed, or, for a file on disk read again
    (AutoGraph re-reads the source of every function it converts), when its size and
    modification time are those it had (linecache's own test); text with no file (a
    notebook cell, ``exec``'d source) is compared by its content.
    """
    if not filename:
        return None
    try:
        lines = linecache.getlines(filename)
    except Exception:  # noqa: BLE001 - unreadable, vanished or binary files give nothing
        return None
    if not lines:
        return None
    cached = _tree_cache.pop(filename, None)
    if cached is not None and cached[2] is lines:  # (kept alive here: an identity not reused)
        _tree_cache[filename] = cached  # the most recently used last: evicted last
        return cached[1]
    key = _text_key(filename, lines)
    if cached is not None and cached[0] == key:  # read again, the same text
        _tree_cache[filename] = (key, cached[1], lines)
        return cached[1]
    try:
        tree = ast.parse("".join(lines), filename)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        tree = None
    while len(_tree_cache) >= _CACHE_FILES:  # least recently used first: a module in use
        _tree_cache.pop(next(iter(_tree_cache)), None)  # keeps its tree and its indexes
    _tree_cache[filename] = (key, tree, lines)
    return tree


def _text_key(filename: str, lines: list[str]) -> object:
    """What tells this text from an edit: a file's (size, mtime) as linecache read them with
    these very lines, else the text's hash (a 5,000-line module costs a millisecond)."""
    entry = linecache.cache.get(filename)
    if entry is not None and len(entry) == 4 and entry[2] is lines and entry[1] is not None:
        return ("stat", entry[0], entry[1])
    return hash(tuple(lines))


def function_node(code: types.CodeType) -> ast.AST | None:
    """The FunctionDef / Lambda node that compiled to ``code`` (None when unknown)."""
    if code in _node_cache:
        return _node_cache[code]
    tree = module_tree(code.co_filename)
    node = _find_node(tree, code) if tree is not None else None
    if len(_node_cache) > 4096:
        _node_cache.clear()
    _node_cache[code] = node
    return node


def _find_node(tree: ast.AST, code: types.CodeType) -> ast.AST | None:
    arg_names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    candidates = _definitions(tree).get((code.co_name, code.co_firstlineno), [])
    if len(candidates) > 1:  # several lambdas on one line: match the parameter names
        named = [n for n in candidates
                 if tuple(a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs)
                 == tuple(arg_names)]
        candidates = named or candidates
    return candidates[0] if candidates else None


def _definitions(tree: ast.AST) -> dict[tuple[str, int], list[ast.AST]]:
    """{(name, first line): defs} of a module, built in one walk and kept on the tree: each
    function's look-up costs the same in a module of 1 or of 1,000 functions. A def is
    found by its ``def`` line and by its first decorator's (what ``co_firstlineno`` says
    depends on the Python version); lambdas are named ``<lambda>``."""
    found = getattr(tree, "_tfdebug_definitions", None)
    if found is None:
        found = {}
        for node in ast.walk(tree):  # breadth first: the outermost of equal keys first
            if isinstance(node, ast.Lambda):
                keys = {("<lambda>", node.lineno)}
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([d.lineno for d in node.decorator_list] + [node.lineno])
                keys = {(node.name, first), (node.name, node.lineno)}
            else:
                continue
            for key in keys:
                found.setdefault(key, []).append(node)
        tree._tfdebug_definitions = found
    return found


# -- where a line sits ---------------------------------------------------------------------

class SourceIndex:
    """One walk of a module's tree: every node, parents, statements, functions, calls."""

    def __init__(self, tree: ast.AST):
        self.nodes = list(ast.walk(tree))
        self.parents = {child: node for node in self.nodes for child in ast.iter_child_nodes(node)}
        self.stmts = [n for n in self.nodes if isinstance(n, ast.stmt)]
        self.functions = [n for n in self.nodes
                          if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
        self.calls = [n for n in self.nodes if isinstance(n, ast.Call)]
        self.call_names = [(dotted_tail(n.func), n) for n in self.calls]
        self.answers: dict = {}  # (question, key) -> answer: the tree is never changed


def source_index(tree: ast.AST) -> SourceIndex:
    index = getattr(tree, "_tfdebug_index", None)
    if index is None:
        index = tree._tfdebug_index = SourceIndex(tree)
    return index


def _innermost(nodes, line: int):
    best = None
    for node in nodes:  # breadth first: a later hit on the same line is nested deeper
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best


def statement_at(tree: ast.AST, line: int) -> ast.stmt | None:
    """The innermost statement whose lines cover ``line``."""
    index = source_index(tree)
    key = ("stmt", line)
    if key not in index.answers:
        index.answers[key] = _innermost(index.stmts, line)
    return index.answers[key]


def enclosing_function(tree: ast.AST, line: int) -> ast.AST | None:
    """The innermost def / lambda whose lines cover ``line``."""
    index = source_index(tree)
    key = ("function", line)
    if key not in index.answers:
        index.answers[key] = _innermost(index.functions, line)
    return index.answers[key]


def calls_in(tree: ast.AST, node: ast.AST):
    """(dotted name, Call) for the calls inside ``node``'s lines."""
    first, last = node.lineno, node.end_lineno or node.lineno
    index = source_index(tree)
    key = ("calls", first, last)
    if key not in index.answers:
        index.answers[key] = [(name, call) for name, call in index.call_names
                              if first <= call.lineno <= last]
    return list(index.answers[key])


def line_nodes(stmt: ast.stmt, line: int) -> list[ast.AST]:
    """Expression nodes of ``stmt`` on ``line`` (the header only, for compound statements)."""
    if isinstance(stmt, (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.FunctionDef,
                         ast.AsyncFunctionDef, ast.ClassDef)):
        roots = [getattr(stmt, name) for name in ("iter", "target", "test", "items")
                 if getattr(stmt, name, None) is not None]
        roots = [r for item in roots for r in (item if isinstance(item, list) else [item])]
    else:
        roots = [stmt]
    return [n for root in roots for n in ast.walk(root)
            if getattr(n, "lineno", line) <= line <= (getattr(n, "end_lineno", None) or line)]


# -- names -------------------------------------------------------------------------------

def attribute_chain(node: ast.AST) -> tuple[list[str], bool]:
    """The names of ``a.b.c`` as ``(["a", "b", "c"], True)``.

    The flag is False when the chain does not start at a plain name (``f().b.c`` gives
    ``(["b", "c"], False)``); callers decide whether a partial chain is useful.
    """
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    rooted = isinstance(node, ast.Name)
    if rooted:
        parts.append(node.id)
    return parts[::-1], rooted


def dotted_rooted(node: ast.AST) -> str:
    """``a.b.c`` for an attribute chain rooted at a name, else ``""``."""
    parts, rooted = attribute_chain(node)
    return ".".join(parts) if rooted else ""


def dotted_tail(node: ast.AST) -> str:
    """``a.b.c`` for an attribute chain; the known tail (``b.c``) for ``f().b.c``."""
    return ".".join(attribute_chain(node)[0])


def dotted_parts(node: ast.AST) -> list[str] | None:
    """``["a", "b", "c"]`` for a chain rooted at a name, else None."""
    parts, rooted = attribute_chain(node)
    return parts if rooted else None


# -- functions and their bodies ------------------------------------------------------------

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def all_args(args: ast.arguments) -> list[ast.arg]:
    """Every parameter in signature order: positional-only, positional, *args, keyword-only,
    **kwargs."""
    return [*args.posonlyargs, *args.args, *([args.vararg] if args.vararg else []),
            *args.kwonlyargs, *([args.kwarg] if args.kwarg else [])]


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """``list(ast.iter_child_nodes(node))``, read straight from ``_fields`` (no generators:
    the hot loops of a trace-time walk spend most of their time there otherwise)."""
    found = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif isinstance(value, list):
            found.extend(item for item in value if isinstance(item, ast.AST))
    return found


def own_nodes(node):
    """Nodes of a function's own body, not of functions or classes nested in it."""
    body = node.body if isinstance(node.body, list) else [node.body]
    stack = list(reversed(body))
    while stack:
        child = stack.pop()
        yield child
        if isinstance(child, _NESTED):
            continue
        stack.extend(reversed(child_nodes(child)))


def own_statements(body):
    """Statements of ``body`` and of the blocks nested in it (``match`` cases too), not of
    nested defs/classes; in source order, without recursion (an ``elif`` chain can be
    thousands deep)."""
    stack = [iter(body)]
    while stack:
        stmt = next(stack[-1], None)
        if stmt is None:
            stack.pop()
            continue
        yield stmt
        if isinstance(stmt, _NESTED):
            continue
        blocks = [getattr(stmt, field, None) or [] for field in ("body", "orelse", "finalbody")]
        blocks += [h.body for h in getattr(stmt, "handlers", None) or []]
        blocks += [c.body for c in getattr(stmt, "cases", None) or []]
        stack.extend(iter(b) for b in reversed(blocks) if b)


def locally_bound(func) -> set[str]:
    """Names a function binds by statements (Python's rule: assigned anywhere => local).

    Subscript and attribute targets bind nothing (``d[k] = v`` leaves ``d`` free); names only
    bound inside expressions (walrus, comprehension targets) are not counted.
    """
    names = {a.arg for a in all_args(func.args)}
    declared = set()
    body = func.body if isinstance(func.body, list) else []
    for stmt in own_statements(body):
        if isinstance(stmt, (ast.Global, ast.Nonlocal)):
            declared.update(stmt.names)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
            continue
        targets = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            targets = [stmt.target]
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            targets = [stmt.target]
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
        for target in targets:
            for n in ast.walk(target):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    names.add(n.id)
    return names - declared


def method_of(cls: ast.ClassDef, name: str):
    """The def ``name`` in the body of ``cls``, or None."""
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            return stmt
    return None


def single_binding(body, name):
    """The value of the one ``name = value`` among ``body``'s statements, else None."""
    values = [stmt.value for stmt in body if isinstance(stmt, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)]
    return values[0] if len(values) == 1 else None


def mentions(node, name: str) -> bool:
    """Does ``node`` contain the name or attribute ``name`` anywhere?"""
    return any((isinstance(n, ast.Attribute) and n.attr == name) or (
        isinstance(n, ast.Name) and n.id == name) for n in ast.walk(node))


def mentions_name(node, names) -> bool:
    """Does ``node`` read or write one of the plain ``names``?"""
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def terminates(body) -> bool:
    """Does the block end in return/raise/continue/break?"""
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def names_used_after(func, node) -> set[str]:
    """Names ``func`` reads on lines after ``node`` ends."""
    end = getattr(node, "end_lineno", node.lineno)
    return {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            and n.lineno > end}


def called_not_kept(outer, name) -> bool:
    """Is the nested function ``name`` only called in ``outer`` (not returned, stored, passed)?"""
    callees = {id(n.func) for n in ast.walk(outer) if isinstance(n, ast.Call)}
    uses = [n for n in ast.walk(outer) if isinstance(n, ast.Name) and n.id == name
            and isinstance(n.ctx, ast.Load)]
    return bool(uses) and all(id(n) in callees for n in uses)


def self_attribute(node) -> str | None:
    """``"history"`` for ``self.history``; None for anything else."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id == "self":
        return node.attr
    return None


def parameter_names(node) -> list[str]:
    """Parameter names, named ones first (positional-only, positional, keyword-only), then
    ``*args`` and ``**kwargs`` (the side-effect guard's order; ``all_args`` keeps signature
    order)."""
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    names += [x.arg for x in (a.vararg, a.kwarg) if x is not None]
    return names


# -- what the explainer asks about a blamed line -------------------------------------------

def parents_of(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return source_index(tree).parents


def is_loop(node: ast.AST) -> bool:
    return isinstance(node, (ast.For, ast.While, ast.AsyncFor))


def assigned_names(node: ast.AST) -> set[str]:
    """Plain names an assignment statement binds (``a, b = ...`` gives ``{"a", "b"}``)."""
    targets = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def constructor_binding(tree: ast.AST, function: ast.AST, nodes) -> ast.stmt | None:
    """The assignment ``layer = keras.layers.Dense(4)`` in ``function`` of a name the
    offending line calls (``layer(x)``): the weights are made by the call, the cause is there."""
    called = {n.func.id for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    if not called:
        return None
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and assigned_names(node) & called \
                and KERAS_CONSTRUCTOR_NAME.search(dotted_tail(node.value.func)):
            return node
    return None


def reads_static_shape(node: ast.AST) -> bool:
    """Does ``node`` read a static shape: ``x.shape[i]``, ``x.shape`` (unpacked), or
    ``x.get_shape()`` (``Tensor.get_shape`` returns ``self.shape``)? The dynamic
    ``tf.shape(x)`` is a call of ``.shape``, not a read of it."""
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    return any(isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and (
        (n.attr == "shape" and id(n) not in called) or (n.attr == "get_shape" and id(n) in called))
        for n in ast.walk(node))


def static_shape_binding(function: ast.AST, nodes, before: int, tree=None,
                         is_none=None) -> ast.stmt | None:
    """The assignment before line ``before`` in ``function`` that binds a name the offending
    line reads from a static shape (``reps = x.shape[0]`` for ``tf.tile(x, [reps])``), directly
    or through names bound from one (``dims = x.get_shape().as_list()``, ``n = dims[0]``): a
    None dimension used as a number is caused there. ``is_none(name)``: True or False when the
    user's frame shows the name's value (only a None is then the one refused), None when it
    cannot tell. With ``tree``, an attribute of ``self`` the line reads that a method of its
    class binds from one is found too."""
    read = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if not read:
        return _attribute_shape_binding(tree, function, nodes) if tree is not None else None
    derived = _shape_derived_names(function, before, tree)
    candidates = [derived[name] for name in read if name in derived
                  and (is_none is None or is_none(name) is not False)]
    found = max(candidates, key=lambda node: node.lineno, default=None)
    if found is None and tree is not None:
        return _attribute_shape_binding(tree, function, nodes)
    return found


def _shape_derived_names(function: ast.AST, before: int, tree) -> dict[str, ast.stmt]:
    """{name: its latest assignment before line ``before``} for the names of ``function``
    that hold a static shape or dimension there: bound from an expression that reads one, or
    that only indexes, unpacks, lists or does arithmetic on names that hold one. A name bound
    again from anything else no longer counts (the function's lines in order; branches are
    not told apart)."""
    derived: dict[str, ast.stmt] = {}
    assignments = sorted((n for n in ast.walk(function) if isinstance(n, ast.Assign)
                          and n.lineno < before), key=lambda n: (n.lineno, n.col_offset))
    for node in assignments:
        shaped = reads_static_shape(node.value) or _returns_static_shape(tree, function, node.value) \
            or _passes_dimensions(node.value, derived)
        for name in assigned_names(node):
            if shaped:
                derived[name] = node
            else:
                derived.pop(name, None)
    return derived


# what keeps a static dimension a static dimension (a TensorFlow op makes a tensor of it)
_DIMENSION_KEEPING = (ast.Name, ast.Subscript, ast.Slice, ast.Starred, ast.Tuple, ast.List,
                      ast.BinOp, ast.UnaryOp, ast.Constant, ast.Load, ast.operator, ast.unaryop)
_DIMENSION_CALLS = ("int", "list", "tuple", "as_list")


def _passes_dimensions(value: ast.AST, derived: dict) -> bool:
    """``value`` reads a name in ``derived`` and only indexes, unpacks, lists or does
    arithmetic on what it reads (``dims[0]``, ``dims[1] * 2``, ``list(dims)``)."""
    reads = False
    for node in ast.walk(value):
        if isinstance(node, ast.Name) and node.id in derived:
            reads = True
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node.func, ast.Attribute) else None
            if name not in _DIMENSION_CALLS:
                return False
        elif isinstance(node, ast.Attribute):
            if node.attr != "as_list":
                return False
        elif not isinstance(node, _DIMENSION_KEEPING):
            return False
    return reads


def _returns_static_shape(tree, function, value) -> bool:
    """``value`` calls a function of the module (by name) or a method of the enclosing class
    (``self.shape_list(x)``) one of whose ``return`` values reads a static shape."""
    if tree is None or not isinstance(value, ast.Call):
        return False
    func, target = value.func, None
    if isinstance(func, ast.Name):
        target = next((n for n in getattr(tree, "body", []) if isinstance(n, ast.FunctionDef)
                       and n.name == func.id), None)
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        args = getattr(getattr(function, "args", None), "args", None) or []
        cls = parents_of(tree).get(function)
        if args and args[0].arg == func.value.id and isinstance(cls, ast.ClassDef):
            target = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == func.attr), None)
    return target is not None and any(isinstance(n, ast.Return) and n.value is not None
                                      and reads_static_shape(n.value) for n in ast.walk(target))


def _attribute_shape_binding(tree, function, nodes) -> ast.stmt | None:
    """``self.rows = x.shape[0]`` (or ``= input_shape[0]`` in a Keras ``build(self,
    input_shape)``, which Keras calls with the input's static shape) in a method of the class
    whose method reads ``self.rows`` at the offending line."""
    args = getattr(getattr(function, "args", None), "args", None) or []
    if not args:
        return None
    owner = args[0].arg
    read = {n.attr for n in nodes if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)
            and isinstance(n.value, ast.Name) and n.value.id == owner}
    cls = parents_of(tree).get(function)
    if not read or not isinstance(cls, ast.ClassDef):
        return None
    found = None
    for method in cls.body:
        params = [a.arg for a in method.args.args] if isinstance(method, ast.FunctionDef) else []
        if not params:
            continue
        shapes = {params[1]} if method.name == "build" and len(params) == 2 else set()
        for node in ast.walk(method):
            if not isinstance(node, ast.Assign) or not any(
                    isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                    and t.value.id == params[0] and t.attr in read
                    for target in node.targets for t in ast.walk(target)):
                continue
            if reads_static_shape(node.value) or any(
                    isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in shapes
                    for n in ast.walk(node.value)):
                found = node if found is None or node.lineno < found.lineno else found
    return found


_NUMBER_CASTS = frozenset({"int", "float", "bool", "complex"})


def builtin_cast_binding(function: ast.AST, nodes, before: int, is_tensor) -> ast.stmt | None:
    """The last assignment before line ``before`` in ``function`` that binds a name the
    line reads, and ``is_tensor(name)`` holds, to ``int(...)``/``float(...)`` (AutoGraph
    turns these into ``tf.cast`` of a tensor: the dtype that then meets another is chosen
    there), unless the function binds that builtin's name itself."""
    read = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            and is_tensor(n.id)}
    if not read or locally_bound(function) & _NUMBER_CASTS:
        return None
    found = None
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and node.lineno < before and assigned_names(node) & read \
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and node.value.func.id in _NUMBER_CASTS and len(node.value.args) == 1 \
                and (found is None or node.lineno > found.lineno):
            found = node
    return found


def inside_loop(node: ast.AST, parents, stop: ast.AST) -> bool:
    while node is not None and node is not stop:
        node = parents.get(node)
        if is_loop(node):
            return True
    return False


def import_bindings(node: ast.AST) -> dict[str, str]:
    """The names an absolute ``import``/``from ... import`` binds, each to the dotted name it
    stands for (``import tensorflow as tf`` -> ``{"tf": "tensorflow"}``); {} for anything else."""
    if isinstance(node, ast.Import):
        return {a.asname: a.name for a in node.names if a.asname} | {
            a.name.split(".")[0]: a.name.split(".")[0] for a in node.names if not a.asname}
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        return {a.asname or a.name: f"{node.module}.{a.name}" for a in node.names}
    return {}


def dropped_update(stmt: ast.AST, methods) -> tuple[str, ast.Call] | None:
    """``("ta", call)`` for a statement ``ta.write(...)`` whose result is dropped (``methods``
    the update methods), else None."""
    call = getattr(stmt, "value", None) if isinstance(stmt, ast.Expr) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
            and call.func.attr in methods and isinstance(call.func.value, ast.Name):
        return call.func.value.id, call
    return None


def call_bindings(function: ast.AST, name: str) -> list[ast.Call]:
    """The calls whose results ``function`` assigns to the plain name ``name``."""
    return [n.value for n in ast.walk(function) if isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Call)
            and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]


def first_call(tree: ast.AST, suffixes) -> ast.Call | None:
    """The first call in the module whose last dotted part is one of ``suffixes``."""
    index = source_index(tree)
    key = ("first_call", frozenset(suffixes))
    if key not in index.answers:
        calls = [n for name, n in index.call_names if name.rsplit(".", 1)[-1] in suffixes]
        index.answers[key] = min(calls, key=lambda n: (n.lineno, n.col_offset)) if calls else None
    return index.answers[key]
