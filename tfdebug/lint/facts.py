"""Facts about one module that every function's analysis needs, gathered in one walk."""
from __future__ import annotations

import ast
from collections import namedtuple

from .._source import import_bindings, locally_bound, method_of, single_binding
from .apis import _canonical, api_facts
from .codes import CHECKS, INFERRED, INTERNAL_ERROR, UNCHECKED
from .findings import LintFinding
from .values import Kind


class Context(namedtuple("Context", "graph converted kind entry keras_name features",
                         defaults=(False, "", frozenset()))):
    """How a function is run: as a graph? converted by AutoGraph? by whom?

    ``kind``: host | function | keras | metric | data | helper; ``entry``: the traced
    function itself, not a helper it calls; ``features``: the optional conversions of
    ``experimental_autograph_options`` (ASSERT_STATEMENTS, BUILTIN_FUNCTIONS).
    """

    __slots__ = ()


class _Module:
    """Facts about one module that every function's analysis needs."""

    def __init__(self, tree: ast.Module, path: str, lines: list[str],
                 enabled: frozenset | None = None, preview: bool = False):
        self.tree, self.path, self.lines = tree, path, lines
        self.enabled = enabled                      # check names to report (None: all)
        self.preview = preview                      # report inferred findings too
        self.aliases: dict[str, str] = {}
        self.defs: dict[str, ast.AST] = {}          # module-level function / lambda names
        self.classes: dict[str, ast.ClassDef] = {}
        self.parent_class: dict[int, ast.ClassDef] = {}
        self.parent_func: dict[int, ast.AST] = {}
        self.env: dict[str, Kind] = {}
        self.tf_functions: dict[str, ast.AST] = {}  # names bound to tf.function objects
        self.no_retrace: set[int] = set()           # tf.functions with a relaxed signature
        self.entries: list[tuple[ast.AST, Context, dict]] = []
        self.call_args: dict[int, list[list]] = {}  # def id -> arg kinds per host call site
        self.loop_assigned_attrs: set[str] = set()
        self.loop_assigned_owned: set[tuple] = set()  # (name, attr) of `name.attr = v` in a loop
        self.called_in_loop: set[str] = set()       # functions/methods called inside a loop
        self.loop_calls: set[tuple] = set()         # ("name", f) / ("self", m, class id) in a loop
        self.stale_proven: set[str] | None = None   # globals reassigned between traced calls
        self.set_up_globals: dict[str, int] | None = None  # global -> last line a loop sets it
        self.relaxed_names: set[str] = set()        # tf.function(...) names with a relaxed signature
        self.loop_assigned_globals: set[str] = set()
        self.made_in_loop: set[int] = set()         # defs/lambdas re-made on every iteration
        self.declared_globals: set[str] = set()     # names in any `global` statement
        self.stored_attrs: set[str] = set()         # attribute names assigned anywhere (`o.a = v`)
        self.calls_set_shape = False
        self.functions: list[ast.AST] = []          # every def, in source order
        self.lambdas: dict[int, list[ast.Lambda]] = {}
        self.calls: list[tuple[ast.Call, ast.AST | None]] = []  # (call, enclosing function)
        self.hosts_nested_tf: set[int] = set()      # functions that define decorated functions
        self.factories: dict[int, bool] = {}        # def id -> returns a Keras model it builds
        self.instances: dict[str, set[str]] | None = None  # class -> names of its instances
        self.findings: dict[tuple, LintFinding] = {}

    # --- names
    def resolve(self, node) -> str | None:
        """The canonical dotted name of ``node`` (``tf.math.add`` -> ``tensorflow.math.add``)."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        parts.append(self.aliases[node.id])
        return _canonical(".".join(reversed(parts)))

    def is_tf_function(self, node) -> bool:
        target = node.func if isinstance(node, ast.Call) else node
        return self.resolve(target) == "tensorflow.function"

    def wants(self, *checks: str) -> bool:
        """Is one of ``checks`` enabled? (A hook that only reports them is skipped otherwise,
        and its module is not imported.)"""
        return self.enabled is None or any(check in self.enabled for check in checks)

    def report(self, check: str, node, message: str, line: int | None = None,
               inferred: bool = False) -> None:
        """Record a finding; an ``inferred`` one (or one of an ``INFERRED`` check) only in
        preview."""
        if self.enabled is not None and check not in self.enabled:
            return
        inferred = inferred or check in INFERRED
        if inferred and not self.preview:
            return
        code, category = CHECKS[check]
        line = line or node.lineno
        col = (node.col_offset + 1) if line == getattr(node, "lineno", None) else 1
        key = (line, col, code)
        if key not in self.findings:
            self.findings[key] = LintFinding(self.path, line, col, code, message, check, category,
                                             None, "inferred" if inferred else "proven")

    def unchecked(self, node, reason: str) -> None:
        """A part the checker could not analyse: an E903 line saying where and why (never a
        silent gap); the caller goes on with the rest of the file."""
        line = getattr(node, "lineno", 1)
        key = (line, 0, UNCHECKED)
        if key not in self.findings:
            self.findings[key] = LintFinding(
                self.path, line, (getattr(node, "col_offset", 0) or 0) + 1, UNCHECKED,
                f"not checked: {reason}; the rest of the file was checked")

    def failed(self, node, exc: BaseException) -> None:
        """A checker failure on one statement or function: E900 at its line, and go on."""
        line = getattr(node, "lineno", 1)
        key = (line, 0, INTERNAL_ERROR)
        if key not in self.findings:
            self.findings[key] = LintFinding(
                self.path, line, (getattr(node, "col_offset", 0) or 0) + 1, INTERNAL_ERROR,
                f"tfdebug could not check this statement ({type(exc).__name__}: {exc}); "
                "please report it; the rest of the file was checked")


def statement_binds(stmt) -> set[str]:
    """Plain names one statement binds: assignment and loop targets, ``with ... as``,
    imports, defs and classes (not what nested statements bind)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    targets = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
    return {n.id for t in targets for n in ast.walk(t)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _falsy_constant(mod, test) -> bool:
    """Is ``test`` a flag that is off for good: a module name bound once to False/None/0/""
    (``DEBUG``), or such a class attribute read through a module-level instance
    (``cfg.keep_history`` with ``cfg = Config()``), that nothing rebinds?"""
    if isinstance(test, ast.Name):
        value = single_binding(mod.tree.body, test.id)
        return isinstance(value, ast.Constant) and not value.value \
            and test.id not in mod.loop_assigned_globals and test.id not in mod.declared_globals
    if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name):
        instance = single_binding(mod.tree.body, test.value.id)
        cls = mod.classes.get(getattr(getattr(instance, "func", None), "id", None))
        value = single_binding(cls.body, test.attr) if cls is not None else None
        return isinstance(value, ast.Constant) and not value.value \
            and test.attr not in mod.stored_attrs
    return False


def instances_of(mod, cls_name: str) -> set[str]:
    """Names (and attribute names) the module binds to instances of its class ``cls_name``
    (``m = Net()``, ``self.net = Net()``)."""
    if mod.instances is None:  # class name -> names bound to its instances, in one walk
        mod.instances = {}
        for stmt in ast.walk(mod.tree):
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and isinstance(
                    stmt.value.func, ast.Name) and stmt.value.func.id in mod.classes:
                mod.instances.setdefault(stmt.value.func.id, set()).update(
                    t.id if isinstance(t, ast.Name) else t.attr for t in stmt.targets
                    if isinstance(t, (ast.Name, ast.Attribute)))
    return mod.instances.get(cls_name, set())


def called_in_a_loop(mod, func) -> bool:
    """Does the module call ``func`` in a loop, as the module function it is (``evaluate(x)``
    with ``evaluate`` not rebound) or as ``self.method(...)`` from its own class? (A call by
    attribute name from elsewhere may be any object's method, and a decorated name may be
    something else than the def: not evidence.)"""
    name = getattr(func, "name", None)
    if getattr(func, "decorator_list", None):
        return False  # the name is the decorator's result (a TFF computation, a cache), not it
    cls = mod.parent_class.get(id(func))
    if cls is not None:
        return ("self", name, id(cls)) in mod.loop_calls
    return mod.defs.get(name) is func and ("name", name) in mod.loop_calls


def _closure_binding(mod, func, name) -> bool:
    """Is ``name`` a local of a function enclosing ``func`` (a closure variable)?"""
    parent = mod.parent_func.get(id(func))
    while parent is not None:
        if name in locally_bound(parent):
            return True
        parent = mod.parent_func.get(id(parent))
    return False


def _resolve_fn(mod, node, walker=None):
    if isinstance(node, ast.Lambda):
        return node
    if isinstance(node, ast.Name):
        if walker is not None and node.id in walker.local_defs:
            return walker.local_defs[node.id]
        return mod.defs.get(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
            and walker is not None and walker.cls is not None:
        return method_of(walker.cls, node.attr)
    return None


def _keras_class_kind(mod, cls, seen=None) -> str | None:
    """'model' or 'layer' for Keras subclasses (also through same-module bases), else None."""
    seen = seen or set()
    if cls.name in seen:
        return None
    seen.add(cls.name)
    for base in cls.bases:
        name = mod.resolve(base) or ""
        facts = api_facts(name) if name.startswith("keras.") else None
        if facts is not None:  # the table knows the class: a Keras model or layer, or neither
            if facts.get("of") in ("model", "layer"):
                return facts["of"]
            continue
        if name.startswith("keras."):  # a spelling the table lacks (keras.src.models.model.Model)
            leaf = name.rsplit(".", 1)[-1]
            if leaf in ("Model", "Sequential", "Functional"):
                return "model"
            if leaf == "Layer" or name.startswith("keras.layers."):
                return "layer"
        if isinstance(base, ast.Name) and base.id in mod.classes:
            found = _keras_class_kind(mod, mod.classes[base.id], seen)
            if found:
                return found
    return None


def _note_function(mod: _Module, node, cls, func, in_loop: bool) -> None:
    """Where a def or lambda sits: made anew per loop iteration? in which class, function?"""
    if in_loop:
        mod.made_in_loop.add(id(node))
    if cls is not None:
        mod.parent_class[id(node)] = cls
    if func is not None:
        mod.parent_func[id(node)] = func


def _index(mod: _Module) -> None:
    """One walk over the tree: imports, functions, classes, calls and loop facts."""
    aliases = {}
    stack = [(mod.tree, None, None, False)]
    while stack:
        node, cls, func, in_loop = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                if isinstance(child, ast.Call):
                    mod.calls.append((child, func))
                    if in_loop:
                        callee = child.func
                        mod.called_in_loop.add(callee.attr if isinstance(callee, ast.Attribute)
                                               else getattr(callee, "id", ""))
                        if isinstance(callee, ast.Name):
                            mod.loop_calls.add(("name", callee.id))
                        elif isinstance(callee, ast.Attribute) and isinstance(
                                callee.value, ast.Name) and callee.value.id == "self" and \
                                cls is not None:
                            mod.loop_calls.add(("self", callee.attr, id(cls)))
                elif isinstance(child, ast.Attribute):
                    if child.attr in ("set_shape", "ensure_shape"):
                        mod.calls_set_shape = True
                    if isinstance(child.ctx, ast.Store):
                        mod.stored_attrs.add(child.attr)
                elif isinstance(child, ast.Lambda):
                    mod.lambdas.setdefault(child.lineno, []).append(child)
                    _note_function(mod, child, cls, func, in_loop)
                    stack.append((child, None, child, False))
                    continue
                stack.append((child, cls, func, in_loop))
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                mod.functions.append(child)
                _note_function(mod, child, cls, func, in_loop)
                if func is not None:
                    if child.decorator_list:
                        mod.hosts_nested_tf.add(id(func))
                elif cls is None:
                    mod.defs[child.name] = child
                stack.append((child, None, child, False))
                continue
            if isinstance(child, ast.ClassDef):
                if func is None and cls is None:
                    mod.classes[child.name] = child
                stack.append((child, child, func, in_loop))
                continue
            if isinstance(child, ast.Global):
                mod.declared_globals.update(child.names)
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                aliases.update(import_bindings(child))
                if isinstance(child, ast.ImportFrom) and child.level and child.module \
                        and "keras" in child.module:  # relative imports in keras itself
                    for a in child.names:
                        aliases.setdefault(a.asname or a.name, f"keras.{child.module}.{a.name}")
            elif in_loop and isinstance(child, (ast.Assign, ast.AugAssign)):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and not (
                            isinstance(t.value, ast.Name) and t.value.id == "self"):
                        mod.loop_assigned_attrs.add(t.attr)
                        if isinstance(t.value, ast.Name):
                            mod.loop_assigned_owned.add((t.value.id, t.attr))
                    elif isinstance(t, ast.Name) and func is None:
                        mod.loop_assigned_globals.add(t.id)
            stack.append((child, cls, func, in_loop or isinstance(child, (ast.For, ast.While,
                                                                          ast.AsyncFor))))
    mod.aliases = {k: _canonical(v) for k, v in aliases.items()}
    mod.functions.sort(key=lambda f: (f.lineno, f.col_offset))
    # module-level names bound to lambdas: `relu = lambda x: ...`, `a, b = (lambda...), (lambda...)`
    for stmt in mod.tree.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                pairs = [(target, stmt.value)]
                if isinstance(target, ast.Tuple) and isinstance(stmt.value, ast.Tuple) and len(
                        target.elts) == len(stmt.value.elts):
                    pairs = list(zip(target.elts, stmt.value.elts))
                for t, v in pairs:
                    if isinstance(t, ast.Name) and isinstance(v, ast.Lambda):
                        mod.defs[t.id] = v
