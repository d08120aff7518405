"""Exception -> :class:`Diagnosis`: which recipe applies, and which *user* line is at fault.

Two pure steps, as rich's traceback does it: :func:`extract` reads what TensorFlow left on
the exception (AutoGraph's "in user code:" frames and metadata, the op-definition stack of
run-time graph errors, Keras' "Exception encountered when calling" wrappers, the
``__cause__``/``__context__`` chain, the traceback) into plain data plus *tags* (facts
about the failing code, read from the offending source with ``ast``); :func:`diagnose`
matches the recipes against that and, where TensorFlow blames the symptom, moves the blame
to the cause with the recipe's ``blame`` locator (the ``append`` in the loop, not the
``tf.stack`` after it).

Nothing here raises: an internal failure gives ``None`` and a DEBUG log record.

Example::

    try:
        train_step(x, y)
    except Exception as exc:
        d = tfdebug.diagnose(exc)
        if d:
            print(d.recipe.id, d.file, d.line, d.code)
"""
from __future__ import annotations

import ast
import dataclasses
import linecache
import logging
import os
import re
import sys

from . import _frames, recipebook
from ._ast import KERAS_LOOPS, attribute_chain
from .report import Finding

log = logging.getLogger("tfdebug")

__all__ = ["Diagnosis", "Extracted", "Location", "diagnose", "extract", "safe_str"]

_TFDEBUG_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_CHAIN_LIMIT = 8
_TEXT_LIMIT = 1 << 20  # a message longer than 1 MB is cut (its head and tail are kept)
_FILE_LINE = re.compile(r'File "([^"\n]+)", line (\d+), in ([^\s]+)')
_NAMED_FUNCTION = re.compile(r"<function ([\w.<>]+) at 0x[0-9a-f]+>")
# AutoGraph conversion failures explain the symptom that follows them (code run unconverted).
_CONVERSION_ERRORS = {"ConversionError", "UnsupportedLanguageElementError", "AutoGraphError"}
_COND_FILES = tuple(os.sep + os.path.join("tensorflow", "python", "ops", name)
                    for name in ("cond_v2.py", "cond.py", "control_flow_util_v2.py"))


# -- data --------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Location:
    file: str
    line: int
    function: str = ""


@dataclasses.dataclass(frozen=True)
class Extracted:
    """What an exception says, as plain data: its chain, messages, user locations, tags."""

    chain: tuple[BaseException, ...]
    class_names: tuple[tuple[str, ...], ...]   # per exception in ``chain``: the MRO names
    messages: tuple[str, ...]                  # per exception in ``chain``: the safe str()
    locations: tuple[tuple[Location, ...], ...]  # per exception: user locations, best first
    tags: frozenset[str] = frozenset()


@dataclasses.dataclass(frozen=True)
class Diagnosis:
    """A recipe applied to an exception at one user line."""

    recipe: recipebook.Recipe
    file: str | None
    line: int | None
    function: str | None
    code: str
    context: tuple[tuple[int, str], ...]
    message: str
    error: str  # the exception's class name

    def finding(self) -> Finding:
        """The report entry (severity "error") for ``tfdebug run --report``."""
        return Finding.at(self.recipe, "error", self.file, self.line, self.function,
                          message=f"{self.error}: {self.message}" if self.message else self.error)

    def note(self) -> str:
        """The plain-text diagnosis added to the exception as a PEP 678 note."""
        from . import render
        return render.diagnosis_text(self, color=False)


# -- safe helpers ------------------------------------------------------------------------

def safe_str(exc: BaseException) -> str:
    """``str(exc)`` that never raises and stays bounded (a broken ``__str__`` gives a stub)."""
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - a broken __str__ must not break the reporter
        try:
            return f"<unprintable {type(exc).__name__}>"
        except BaseException:  # noqa: BLE001
            return "<unprintable exception>"
    if not isinstance(text, str):
        return ""
    if len(text) > _TEXT_LIMIT:
        half = _TEXT_LIMIT // 2
        text = text[:half] + "\n...\n" + text[-half:]
    return text


def _class_names(exc: BaseException) -> tuple[str, ...]:
    try:
        return tuple(c.__name__ for c in type(exc).__mro__ if c is not object)
    except Exception:  # noqa: BLE001
        return ()


def _chain(exc: BaseException) -> tuple[BaseException, ...]:
    """``exc`` and what caused it (``__cause__``, else ``__context__``), cycle-safe."""
    chain, seen, current = [], set(), exc
    while isinstance(current, BaseException) and id(current) not in seen and len(chain) < _CHAIN_LIMIT:
        chain.append(current)
        seen.add(id(current))
        current = current.__cause__ if current.__cause__ is not None else current.__context__
    return tuple(chain)


def short_message(message: str, limit: int = 300) -> str:
    """The line of TF's message that says what went wrong (AutoGraph's frames dropped)."""
    lines = [line.strip() for line in message.splitlines()]
    if "in user code:" in message:
        for line in reversed(lines):
            match = re.match(r"[A-Za-z_][\w.]*(Error|Exception|Warning): (.+)", line)
            if match:
                return match.group(2)[:limit]
    for line in lines:
        if line and not line.startswith(("in user code:", "File ")):
            return re.sub(r"\x1b\[[0-9;]*m", "", line)[:limit]
    return ""


# -- sources and their syntax trees ------------------------------------------------------

_tree_cache: dict[str, tuple[tuple, ast.AST | None]] = {}


def _tree(filename: str | None) -> ast.AST | None:
    """The parsed module of ``filename`` (cached by its linecache text), or None."""
    if not filename:
        return None
    try:
        lines = linecache.getlines(filename)
    except Exception:  # noqa: BLE001 - unreadable, vanished or binary files give nothing
        return None
    if not lines:
        return None
    key = (len(lines), hash(lines[0]), hash(lines[-1]), id(lines))
    cached = _tree_cache.get(filename)
    if cached is not None and cached[0] == key:
        return cached[1]
    try:
        tree = ast.parse("".join(lines), filename)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        tree = None
    if len(_tree_cache) > 64:
        _tree_cache.clear()
    _tree_cache[filename] = (key, tree)
    return tree


class _Index:
    """One walk of a module's tree: every node, parents, statements, functions, calls."""

    def __init__(self, tree: ast.AST):
        self.nodes = list(ast.walk(tree))
        self.parents = {child: node for node in self.nodes for child in ast.iter_child_nodes(node)}
        self.stmts = [n for n in self.nodes if isinstance(n, ast.stmt)]
        self.functions = [n for n in self.nodes
                          if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
        self.calls = [n for n in self.nodes if isinstance(n, ast.Call)]
        self.call_names = [(_dotted(n.func), n) for n in self.calls]


def _index(tree: ast.AST) -> _Index:
    index = getattr(tree, "_tfdebug_index", None)
    if index is None:
        index = tree._tfdebug_index = _Index(tree)
    return index


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return _index(tree).parents


def _statement_at(tree: ast.AST, line: int) -> ast.stmt | None:
    """The innermost statement whose lines cover ``line``."""
    best = None
    for node in _index(tree).stmts:  # breadth first: a later hit on the same line is nested deeper
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best


def _calls_in(tree: ast.AST, node: ast.AST):
    """(dotted name, Call) for the calls inside ``node``'s lines."""
    first, last = node.lineno, node.end_lineno or node.lineno
    return [(name, call) for name, call in _index(tree).call_names if first <= call.lineno <= last]


def _line_nodes(stmt: ast.stmt, line: int) -> list[ast.AST]:
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


def _dotted(node: ast.AST) -> str:
    """``a.b.c`` for an attribute chain; the known tail (``b.c``) for ``f().b.c``."""
    return ".".join(attribute_chain(node)[0])


def _enclosing_function(tree: ast.AST, line: int) -> ast.AST | None:
    best = None
    for node in _index(tree).functions:
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best


def _is_loop(node: ast.AST) -> bool:
    return isinstance(node, (ast.For, ast.While, ast.AsyncFor))


def _assigned_names(node: ast.AST) -> set[str]:
    targets = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


_user_files_memo: dict[str, bool] = {}
_memo_modules = [0]


def _is_user(filename) -> bool:
    """``_frames.is_user_file``, remembered until new modules are imported."""
    if len(sys.modules) != _memo_modules[0]:
        _user_files_memo.clear()
        _memo_modules[0] = len(sys.modules)
    if not isinstance(filename, str):
        return False
    known = _user_files_memo.get(filename)
    if known is None:
        known = _user_files_memo[filename] = _frames.is_user_file(filename)
    return known


_KERAS_CONSTRUCTORS = re.compile(r"(^|\.)(layers|optimizers|models)\.[A-Z]\w*$|(^|\.)(Sequential|Model)$")
_PY_FUNCTIONS = ("py_function", "numpy_function", "py_func")


# -- tags: facts about where the error happened ------------------------------------------

def _line_tags(location: Location | None) -> set[str]:
    if location is None:
        return set()
    tree = _tree(location.file)
    if tree is None:
        return set()
    stmt = _statement_at(tree, location.line)
    if stmt is None:
        return set()
    tags = set()
    parents = _parents(tree)
    nodes = _line_nodes(stmt, location.line)
    if isinstance(stmt, ast.Assert):
        tags.add("assert")
    for node in nodes:
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                and any(isinstance(c, (ast.List, ast.Tuple, ast.Set)) for c in node.comparators):
            tags.add("in-list")
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            if name in ("enumerate", "zip"):
                tags.add("enumerate")
            if _KERAS_CONSTRUCTORS.search(name):
                tags.add("keras-constructor")
            if isinstance(node.func, ast.Attribute) and node.func.attr in KERAS_LOOPS:
                tags.add("keras-loop")
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            tags.add("comprehension")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "shape":
            tags.add("shape-index")
    # Ancestors: a try body, a loop updating a variable set before it.
    node = stmt
    function = _enclosing_function(tree, location.line)
    while node is not None and node is not function:
        parent = parents.get(node)
        if isinstance(parent, ast.Try) and node in parent.body:
            tags.add("try-body")
        if _is_loop(parent) and node in parent.body and _assigned_names(stmt) and function is not None:
            before = {name for n in ast.walk(function) if getattr(n, "lineno", 10 ** 9) < parent.lineno
                      for name in _assigned_names(n)}
            if _assigned_names(stmt) & before:
                tags.add("loop-carried")
        node = parent
    if function is not None:
        if _constructor_binding(tree, function, nodes) is not None:
            tags.add("keras-constructor")
        for name, call in _calls_in(tree, function):
            if name.endswith("set_seed"):
                tags.add("set-seed")
            if name.endswith(".append") and _inside_loop(call, parents, function):
                tags.add("append-in-loop")
    return tags


def _constructor_binding(tree: ast.AST, function: ast.AST, nodes) -> ast.stmt | None:
    """The assignment ``layer = keras.layers.Dense(4)`` in ``function`` of a name the
    offending line calls (``layer(x)``): the weights are made by the call, the cause is there."""
    called = {n.func.id for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    if not called:
        return None
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and _assigned_names(node) & called and _KERAS_CONSTRUCTORS.search(_dotted(node.value.func)):
            return node
    return None


def _inside_loop(node: ast.AST, parents, stop: ast.AST) -> bool:
    while node is not None and node is not stop:
        node = parents.get(node)
        if _is_loop(node):
            return True
    return False


def _context_tags(chain, messages, frames_by_exc, location: Location | None) -> set[str]:
    tags = set()
    data_dir = os.sep + os.path.join("tensorflow", "python", "data") + os.sep
    keras_dir = os.sep + "keras" + os.sep
    for exc, message in zip(chain, messages):
        if "Exception encountered when calling" in message[:4096]:
            tags.add("keras-call")
        frames = frames_by_exc.get(id(exc), ())
        if any(data_dir in f.f_code.co_filename for f, _ in frames):
            tags.add("tf.data")
        # TF's cond builder checks the branches with bare asserts ("AssertionError: [2, 1]").
        if frames and frames[-1][0].f_code.co_filename.endswith(_COND_FILES):
            tags.add("tf.cond")
        # The innermost user frame was called by Keras (a layer's call, a loss, a metric).
        # (tfdebug's own trace hook frames may sit in between: they are skipped.)
        users = [i for i, (f, _) in enumerate(frames) if _is_user(f.f_code.co_filename)]
        callers = [f.f_code.co_filename for f, _ in frames[:users[-1]]] if users else []
        callers = [name for name in callers if not name.startswith(_TFDEBUG_DIR)]
        if callers and keras_dir in callers[-1]:
            tags.add("keras-call")
    if location is not None and not linecache.getlines(location.file):
        tags.add("no-source")
    return tags


def _file_tags(files) -> set[str]:
    tags = set()
    for filename in files:
        tree = _tree(filename)
        if tree is not None and _first_call(tree, _PY_FUNCTIONS) is not None:
            tags.add("py-function")
    return tags


def _first_call(tree: ast.AST, suffixes) -> ast.Call | None:
    calls = [n for name, n in _index(tree).call_names if name.rsplit(".", 1)[-1] in suffixes]
    return min(calls, key=lambda n: (n.lineno, n.col_offset)) if calls else None


# -- extraction --------------------------------------------------------------------------

def _tb_frames(exc: BaseException) -> list[tuple[object, int]]:
    out, tb = [], getattr(exc, "__traceback__", None)
    while tb is not None and len(out) < 2000:
        out.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return out


def _message_locations(message: str) -> list[Location]:
    """User frames named in the message: AutoGraph's block, op-definition stacks; innermost first."""
    found = []
    for marker in ("in user code:", "defined at (most recent call last):", "was defined here:"):
        start = message.find(marker)
        if start < 0:
            continue
        block = message[start:start + 200_000]
        for filename, lineno, name in reversed(_FILE_LINE.findall(block)):
            if _is_user(filename):
                found.append(Location(filename, int(lineno), name))
    return found


def _autograph_locations(exc: BaseException) -> list[Location]:
    metadata = getattr(exc, "ag_error_metadata", None)
    stack = getattr(metadata, "translated_stack", None) or []
    out = []
    for frame in list(stack)[:500]:  # AutoGraph keeps it innermost first
        filename, lineno = getattr(frame, "filename", None), getattr(frame, "lineno", None)
        if isinstance(filename, str) and isinstance(lineno, int) and _is_user(filename):
            out.append(Location(filename, lineno, str(getattr(frame, "function_name", "") or "")))
    return out


def _op_locations(exc: BaseException) -> list[Location]:
    from . import _tf

    return [Location(f, n, name) for f, n, name in _tf.op_creation_stack(exc) if _is_user(f)]


def _locations(exc: BaseException, message: str, frames) -> list[Location]:
    found = _autograph_locations(exc) + _message_locations(message) + _op_locations(exc)
    # A module-level line in AutoGraph's block is the call, never better than a function's.
    found = [loc for loc in found if loc.function != "<module>"] + \
            [loc for loc in found if loc.function == "<module>"]
    for frame, lineno in reversed(frames):
        filename = frame.f_code.co_filename
        if _is_user(filename):
            found.append(Location(filename, lineno, frame.f_code.co_name))
    unique = []
    for loc in found:
        if loc not in unique:
            unique.append(loc)
    return unique


def extract(exc: BaseException) -> Extracted:
    """Read ``exc`` and its chain into plain data (see :class:`Extracted`)."""
    chain = _chain(exc)
    messages = tuple(safe_str(e) for e in chain)
    frames_by_exc = {id(e): _tb_frames(e) for e in chain}
    locations = tuple(tuple(_locations(e, m, frames_by_exc[id(e)])) for e, m in zip(chain, messages))
    first = next((locs[0] for locs in locations if locs), None)
    tags = _context_tags(chain, messages, frames_by_exc, first)
    tags |= _line_tags(first)
    files = []
    for locs in locations:
        for loc in locs:
            if loc.file not in files:
                files.append(loc.file)
    tags |= _file_tags(files[:8])
    if _keras_call_tf_function(frames_by_exc.get(id(exc), ())) is not None:
        tags.add("keras-call-tf-function")
    return Extracted(chain=chain, class_names=tuple(_class_names(e) for e in chain),
                     messages=messages, locations=locations, tags=frozenset(tags))


# -- locators: from the symptom TensorFlow names to the cause ------------------------------

def _locate_append_in_loop(extracted, location, frames):
    tree = _tree(location.file)
    function = _enclosing_function(tree, location.line) if tree else None
    if function is None:
        return None
    parents = _parents(tree)
    appends = [n for name, n in _calls_in(tree, function)
               if name.endswith(".append") and _inside_loop(n, parents, function)]
    if not appends:
        return None
    node = min(appends, key=lambda n: (n.lineno, n.col_offset))
    return Location(location.file, node.lineno, location.function)


def _locate_keras_constructor(extracted, location, frames):
    tree = _tree(location.file)
    stmt = _statement_at(tree, location.line) if tree else None
    function = _enclosing_function(tree, location.line) if stmt else None
    if function is None:
        return None
    # None when the line constructs the layer itself (`Dense(1)(x)` calls a call, not a name)
    binding = _constructor_binding(tree, function, _line_nodes(stmt, location.line))
    return Location(location.file, binding.lineno, location.function) if binding else None


def _locate_set_seed(extracted, location, frames):
    tree = _tree(location.file)
    function = _enclosing_function(tree, location.line) if tree else None
    if function is None:
        return None
    calls = [n for name, n in _calls_in(tree, function) if name.endswith("set_seed")]
    if not calls:
        return None
    return Location(location.file, min(n.lineno for n in calls), location.function)


def _user_function_named(name: str, frames):
    """The user's Python function called ``name``, looked up in the failing frames' scopes."""
    short = name.rsplit(".", 1)[-1]
    for frame, _ in reversed(frames):
        if not _is_user(frame.f_code.co_filename):
            continue
        for scope in (frame.f_locals, frame.f_globals):
            obj = scope.get(short)
            obj = getattr(obj, "python_function", obj)
            obj = getattr(obj, "__wrapped__", obj)
            if getattr(obj, "__code__", None) is not None:
                return obj
    return None


def _first_in_named_function(extracted, frames, wanted):
    """The first node ``wanted(node)`` accepts in the user function the message names
    (``<function f at 0x...>``): for errors raised after tracing, with no user frame."""
    for message in extracted.messages:
        for name in _NAMED_FUNCTION.findall(message[:4096]):
            fn = _user_function_named(name, frames)
            if fn is None:
                continue
            code = fn.__code__
            tree = _tree(code.co_filename)
            if tree is None:
                continue
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == code.co_name \
                        and node.lineno <= code.co_firstlineno + 20 and (node.end_lineno or 0) >= code.co_firstlineno:
                    hits = [n for n in ast.walk(node) if wanted(n)]
                    if hits:
                        return Location(code.co_filename, min(n.lineno for n in hits), node.name)
    return None


def _locate_yield(extracted, location, frames):
    return _first_in_named_function(extracted, frames,
                                    lambda n: isinstance(n, (ast.Yield, ast.YieldFrom)))


def _locate_return_value(extracted, location, frames):
    return _first_in_named_function(extracted, frames,
                                    lambda n: isinstance(n, ast.Return) and n.value is not None)


def _user_files(extracted) -> list[str]:
    files = []
    for locs in extracted.locations:
        for loc in locs:
            if loc.file not in files:
                files.append(loc.file)
    return files


def _locate_py_function(extracted, location, frames):
    for filename in _user_files(extracted)[:8]:
        tree = _tree(filename)
        call = _first_call(tree, _PY_FUNCTIONS) if tree is not None else None
        if call is not None:
            function = _enclosing_function(tree, call.lineno)
            name = getattr(function, "name", "<lambda>" if function is not None else "<module>")
            return Location(filename, call.lineno, name)
    return None


def _keras_call_tf_function(frames):
    """(file, line, name) of a live Keras object's ``call`` wrapped in @tf.function, or None."""
    if "keras" not in sys.modules:
        return None
    from . import _tf

    for frame, _ in reversed(frames):
        if not _is_user(frame.f_code.co_filename):
            continue
        values = list(frame.f_locals.values())[:500] + list(frame.f_globals.values())[:500]
        for value in values:
            cls = type(value)
            if not any(c.__module__.startswith("keras") and c.__name__ == "Layer" for c in cls.__mro__):
                continue
            call = next((c.__dict__["call"] for c in cls.__mro__ if "call" in c.__dict__), None)
            if call is not None and _tf.is_tf_function(call):
                fn = getattr(call, "python_function", None)
                code = getattr(fn, "__code__", None)
                if code is not None and _is_user(code.co_filename):
                    return Location(code.co_filename, code.co_firstlineno, f"{cls.__name__}.call")
        break
    return None


def _locate_keras_call_tf_function(extracted, location, frames):
    return _keras_call_tf_function(frames)


def _locate_string_format(extracted, location, frames):
    for filename in _user_files(extracted)[:8]:
        tree = _tree(filename)
        if tree is None:
            continue
        for function in _traced_functions(tree):
            params = {a.arg for a in function.args.args + function.args.kwonlyargs}
            for node in ast.walk(function):
                if _formats_names(node, params):
                    return Location(filename, node.lineno, getattr(function, "name", "<lambda>"))
    return None


def _traced_functions(tree: ast.AST) -> list[ast.AST]:
    """Functions passed to ``.map``/``tf.function`` or decorated with it, in source order."""
    passed = set()
    lambdas = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _dotted(node.func).rsplit(".", 1)[-1] in (
                "map", "filter", "flat_map", "interleave", "function", "map_fn", "py_function"):
            for arg in node.args:
                if isinstance(arg, ast.Name):
                    passed.add(arg.id)
                elif isinstance(arg, ast.Lambda):
                    lambdas.append(arg)
    defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (n.name in passed or any(_dotted(d.func if isinstance(d, ast.Call) else d).endswith("function")
                                         for d in n.decorator_list))]
    return sorted(defs + lambdas, key=lambda n: n.lineno)


def _formats_names(node: ast.AST, names: set[str]) -> bool:
    def uses(expr):
        return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) and uses(v.value) for v in node.values)
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        if name.endswith(".format") or name == "str":
            return any(uses(a) for a in node.args)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        return uses(node.right)
    return False


_LOCATORS = {
    "append-in-loop": _locate_append_in_loop,
    "set-seed": _locate_set_seed,
    "keras-constructor": _locate_keras_constructor,
    "yield": _locate_yield,
    "return-value": _locate_return_value,
    "py-function": _locate_py_function,
    "keras-call-tf-function": _locate_keras_call_tf_function,
    "string-format": _locate_string_format,
}


# -- matching ----------------------------------------------------------------------------

def _choose(extracted: Extracted):
    """(index in the chain, recipe): the root cause's recipe, else the exception's own."""
    matches = []
    for index, (names, message) in enumerate(zip(extracted.class_names, extracted.messages)):
        found = recipebook.match(names, message, extracted.tags)
        if found:
            matches.append((index, found[0], names))
    for index, recipe, names in matches:
        if index > 0 and _CONVERSION_ERRORS & set(names):
            return index, recipe
    return (matches[0][0], matches[0][1]) if matches else (None, None)


def diagnose(exc: BaseException) -> Diagnosis | None:
    """The diagnosis of ``exc``, or None when no recipe applies (never raises).

    Example::

        try:
            f(tf.constant(1))
        except Exception as exc:
            print(diagnose(exc).recipe.id)   # e.g. "TFD101"
    """
    try:
        return _diagnose(exc)
    except BaseException:  # noqa: BLE001 - a tfdebug bug must never hide the user's error
        log.debug("tfdebug: diagnosis failed", exc_info=True)
        return None


def _diagnose(exc: BaseException) -> Diagnosis | None:
    if not isinstance(exc, BaseException) or isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
        return None
    extracted = extract(exc)
    index, recipe = _choose(extracted)
    if recipe is None:
        return None
    locations = extracted.locations[index] or next((locs for locs in extracted.locations if locs), ())
    location = locations[0] if locations else None
    if recipe.blame in _LOCATORS:
        frames = _tb_frames(exc)
        try:
            moved = _LOCATORS[recipe.blame](extracted, location, frames) if (
                location is not None or recipe.blame in ("py-function", "keras-call-tf-function")) else None
        except Exception:  # noqa: BLE001 - keep TensorFlow's location
            log.debug("tfdebug: locator %s failed", recipe.blame, exc_info=True)
            moved = None
        location = moved or location
    file = location.file if location else None
    line = location.line if location else None
    return Diagnosis(
        recipe=recipe, file=file, line=line,
        function=location.function if location else None,
        code=_frames.source_line(file, line),
        context=tuple(_frames.source_context(file, line, around=1)),
        message=short_message(extracted.messages[0]),
        error=type(exc).__name__)
