"""From the line TensorFlow names to the line that causes it: the explainer's locators.

A recipe's ``blame`` names a locator here (the ``append`` in the loop, not the ``tf.stack``
after it). :func:`cause_of_named` is the one mechanism for every message that names a
variable ("'y' must also be initialized in the else branch", "'x' has shape (1,) before
the loop, but shape (2,) after one iteration"): it finds that name's assignments in the
function and blames the one that makes it so. Locators return a Location or None.
"""
from __future__ import annotations

import ast
import re
import sys

from ._extract import Location, is_user, keras_call_tf_function, library_module, message_locations, user_files
from ._source import (assigned_names, builtin_cast_binding, calls_in, constructor_binding, dotted_tail,
                      enclosing_function, first_call, function_node, inside_loop, line_nodes, locally_bound,
                      mentions_name, module_tree, own_statements, parameter_names, parents_of,
                      source_index, statement_at, static_shape_binding)
from ._vocab import MUTATORS, PY_FUNCTION_LEAVES

_NAMED_FUNCTION = re.compile(r"<function ([\w.<>]+) at 0x[0-9a-f]+>")

def _locate_append_in_loop(extracted, location, frames):
    tree = module_tree(location.file)
    function = enclosing_function(tree, location.line) if tree else None
    if function is None:
        return None
    parents = parents_of(tree)
    appends = [n for name, n in calls_in(tree, function)
               if name.endswith(".append") and inside_loop(n, parents, function)]
    if not appends:
        return None
    node = min(appends, key=lambda n: (n.lineno, n.col_offset))
    return Location(location.file, node.lineno, location.function)


def _binding_of_line(location, find):
    """The assignment ``find(tree, function, nodes_of_the_line)`` returns, as a Location."""
    tree = module_tree(location.file)
    stmt = statement_at(tree, location.line) if tree else None
    function = enclosing_function(tree, location.line) if stmt else None
    if function is None:
        return None
    binding = find(tree, function, line_nodes(stmt, location.line))
    if binding is None:
        return None
    # the binding may sit in another method of the class (``self.rows = ...`` in ``build``)
    where = enclosing_function(tree, binding.lineno)
    same = where is function or where is None
    return Location(location.file, binding.lineno, location.function if same else getattr(where, "name", None))


def _locate_keras_constructor(extracted, location, frames):
    # None when the line constructs the layer itself (`Dense(1)(x)` calls a call, not a name)
    return _binding_of_line(location, constructor_binding)


def _locate_cast_binding(extracted, location, frames):
    """``n = int(x[0])`` when the failing line mixes ``n`` (AutoGraph's int32 cast, a tensor
    in the user's frame) with another dtype."""
    from . import _tf
    from ._operands import user_frame

    frame = user_frame(extracted.chain[0], location.file, location.line) if extracted.chain else None
    if frame is None:
        return None
    local = frame.f_locals
    return _binding_of_line(location, lambda tree, function, nodes: builtin_cast_binding(
        function, nodes, location.line, lambda name: _tf.is_symbolic(local.get(name))))


def _locate_shape_binding(extracted, location, frames):
    """``reps = x.shape[0]`` when the failing line uses ``reps`` (None where a number is needed;
    of several such names, one the user's frame holds None in)."""
    from ._operands import user_frame

    side = _none_operand_side(extracted)
    frame = user_frame(extracted.chain[0], location.file, location.line) if extracted.chain else None
    local = frame.f_locals if frame is not None else {}
    return _binding_of_line(location, lambda tree, function, nodes: static_shape_binding(
        function, _operand_nodes(nodes, side), location.line, tree,
        lambda name: local[name] is None if name in local else None))


# Python names the operand that is None: "for *: 'NoneType' and 'int'" is the left one.
_NONE_OPERAND = re.compile(r"unsupported operand type\(s\) for [^:]{1,3}: '(\w+)' and '(\w+)'")


def _none_operand_side(extracted) -> str | None:
    for message in extracted.messages:
        match = _NONE_OPERAND.search(message[:20000])
        if match and (match.group(1) == "NoneType") != (match.group(2) == "NoneType"):
            return "left" if match.group(1) == "NoneType" else "right"
    return None


def _operand_nodes(nodes, side: str | None):
    """The nodes of the ``side`` operands of the line's binary operations (all when none)."""
    if side is None:
        return nodes
    picked = [sub for node in nodes if isinstance(node, ast.BinOp)
              for sub in ast.walk(getattr(node, side))]
    return picked or nodes


def _locate_set_seed(extracted, location, frames):
    tree = module_tree(location.file)
    function = enclosing_function(tree, location.line) if tree else None
    if function is None:
        return None
    calls = [n for name, n in calls_in(tree, function) if name.endswith("set_seed")]
    if not calls:
        return None
    return Location(location.file, min(n.lineno for n in calls), location.function)


def _unwrapped(obj):
    obj = getattr(obj, "python_function", obj)  # a tf.function
    return getattr(obj, "__wrapped__", obj)


def _user_function_named(name: str, frames):
    """The user's Python function called ``name``: looked up by name in the user frames'
    scopes, else among the values the failing frames hold (the traced function TensorFlow's
    own frames were given, wherever the user defined it)."""
    short = name.rsplit(".", 1)[-1]
    for frame, _ in reversed(frames):
        if not is_user(frame.f_code.co_filename):
            continue
        for scope in (frame.f_locals, frame.f_globals):
            obj = _unwrapped(scope.get(short))
            if getattr(obj, "__code__", None) is not None:
                return obj
    return next((fn for fn in _held_user_functions(frames) if fn.__code__.co_name == short), None)


def _held_user_functions(frames):
    """User functions the frames' locals hold, innermost frame first (bounded: a frame may
    hold thousands of values)."""
    for frame, _ in reversed(frames[-200:]):
        for value in list(frame.f_locals.values())[:50]:
            obj = _unwrapped(value)
            code = getattr(obj, "__code__", None)
            if code is not None and code.co_name != "<module>" and is_user(code.co_filename):
                yield obj


def _def_of(fn):
    """The ``def`` node of the user function ``fn`` in its file's tree, or None."""
    code = fn.__code__
    tree = module_tree(code.co_filename)
    if tree is None:
        return None
    for node in source_index(tree).functions:
        if isinstance(node, ast.Lambda):
            if code.co_name == "<lambda>" and node.lineno == code.co_firstlineno:
                return node
        elif node.name == code.co_name and node.lineno <= code.co_firstlineno + 20 \
                and (node.end_lineno or 0) >= code.co_firstlineno:
            return node
    return None


def _function_given_to_library(frames):
    """The user function that TensorFlow's frames below the innermost user frame were given
    (``Dataset.map(parse)``'s ``parse``): what they were tracing when they raised."""
    users = [i for i, (frame, _) in enumerate(frames) if is_user(frame.f_code.co_filename)]
    below = frames[users[-1] + 1:] if users else frames
    library = [f for f in below if library_module(f[0].f_code.co_filename)]
    return next(_held_user_functions(library), None)


def _named_functions(extracted, frames):
    """The user functions the message names (``<function f at 0x...>``), else the one the
    failing TensorFlow frames were given."""
    for message in extracted.messages:
        for name in _NAMED_FUNCTION.findall(message[:4096]):
            fn = _user_function_named(name, frames)
            if fn is not None:
                yield fn
    fn = _function_given_to_library(frames)
    if fn is not None:
        yield fn


def _first_in_named_function(extracted, frames, wanted, lambda_body=False):
    """The first node ``wanted(node)`` accepts in the user function the message or the
    traceback names: for errors raised after tracing, with no user frame. ``lambda_body``:
    a lambda's body counts (it is what the lambda returns)."""
    for fn in _named_functions(extracted, frames):
        node = _def_of(fn)
        if node is None:
            continue
        if isinstance(node, ast.Lambda):
            if lambda_body:
                return Location(fn.__code__.co_filename, node.body.lineno, "<lambda>")
            continue
        hits = [n for n in ast.walk(node) if wanted(n)]
        if hits:
            return Location(fn.__code__.co_filename, min(n.lineno for n in hits), node.name)
    return None


def _locate_yield(extracted, location, frames):
    return _first_in_named_function(extracted, frames,
                                    lambda n: isinstance(n, (ast.Yield, ast.YieldFrom)))


def _locate_generator_yield(extracted, location, frames):
    """The first ``yield`` of the generator the module hands to ``from_generator`` (the one
    call of it in the failing file): the element it yields is checked only when pulled.
    The generator is a def, a method (``self.rows``), a lambda calling one, or an instance
    whose class defines ``__call__``."""
    tree = module_tree(location.file) if location else None
    if tree is None:
        return None
    calls = [n for name, n in source_index(tree).call_names if name.endswith("from_generator")]
    if len(calls) != 1:
        return None
    given = calls[0].args[0] if calls[0].args else next(
        (k.value for k in calls[0].keywords if k.arg == "generator"), None)
    if isinstance(given, ast.Lambda) and isinstance(given.body, ast.Call):
        given = given.body.func
    defs = _generator_defs(tree, given)
    yields = [n for d in defs[:1] for n in ast.walk(d) if isinstance(n, (ast.Yield, ast.YieldFrom))]
    if len(defs) != 1 or not yields:
        return None
    return Location(location.file, min(n.lineno for n in yields), defs[0].name)


def _generator_defs(tree, given) -> list[ast.AST]:
    """The defs in ``tree`` that the expression ``given`` (a generator argument) names."""
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if isinstance(given, ast.Attribute):
        return [n for n in functions if n.name == given.attr]
    if not isinstance(given, ast.Name):
        return []
    defs = [n for n in functions if n.name == given.id]
    if defs:
        return defs
    classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    made = {dotted_tail(n.value.func).rsplit(".", 1)[-1] for n in ast.walk(tree)
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and given.id in assigned_names(n)}
    return [n for name in made if name in classes for n in classes[name].body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "__call__"]


def _locate_return_value(extracted, location, frames):
    return _first_in_named_function(extracted, frames,
                                    lambda n: isinstance(n, ast.Return) and n.value is not None,
                                    lambda_body=True)


def _locate_py_function(extracted, location, frames):
    """The ``tf.py_function`` / ``tf.numpy_function`` call that made the op: the one given the
    function TensorFlow's registry holds for the token the message names, else the first
    such call in the user's files."""
    given = _registered_call(extracted)
    if given is not None:
        return given
    from ._operands import pipeline_py_function
    found = pipeline_py_function(extracted.chain[0], location)
    if found is not None:
        return Location(*found)
    for filename in user_files(extracted)[:8]:
        tree = module_tree(filename)
        call = first_call(tree, PY_FUNCTION_LEAVES) if tree is not None else None
        if call is not None:
            function = enclosing_function(tree, call.lineno)
            name = getattr(function, "name", "<lambda>" if function is not None else "<module>")
            return Location(filename, call.lineno, name)
    return None



def _registered_call(extracted) -> Location | None:
    if "tensorflow" not in sys.modules:
        return None
    from . import _tf

    function = next((f for f in map(_tf.registered_py_function, extracted.messages) if f is not None), None)
    name = getattr(function, "__name__", None)
    if not name or name == "<lambda>":
        return None
    calls = []
    for filename in user_files(extracted)[:8]:
        tree = module_tree(filename)
        for called, call in (source_index(tree).call_names if tree is not None else ()):
            given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "func"), None)
            if called.rsplit(".", 1)[-1] in PY_FUNCTION_LEAVES and given is not None \
                    and dotted_tail(given).rsplit(".", 1)[-1] == name:
                caller = enclosing_function(tree, call.lineno)
                calls.append(Location(filename, call.lineno, getattr(caller, "name", "<module>")))
    return calls[0] if len(calls) == 1 else None


def _locate_shape_invariants(extracted, location, frames):
    """The ``shape_invariants`` argument of the ``while_loop`` call at ``location``."""
    tree = module_tree(location.file)
    stmt = statement_at(tree, location.line) if tree is not None else None
    for name, call in calls_in(tree, stmt) if stmt is not None else ():
        invariants = call.args[3] if len(call.args) > 3 else next(
            (k.value for k in call.keywords if k.arg == "shape_invariants"), None)
        if name.rsplit(".", 1)[-1] == "while_loop" and invariants is not None:
            return Location(location.file, invariants.lineno, location.function)
    return None


def _locate_keras_call_tf_function(extracted, location, frames):
    return keras_call_tf_function(frames, extracted.chain)


def _locate_string_format(extracted, location, frames):
    """The f-string / ``str()`` / ``.format`` / ``%`` of a parameter (a tensor while tracing)
    in the function of the failing user line (a Keras ``call``, any traced helper), else in
    a function the module passes to ``tf.function``/``map``."""
    if location is not None:
        tree = module_tree(location.file)
        function = enclosing_function(tree, location.line) if tree is not None else None
        found = _formatted_parameter(function, location.file) if function is not None else None
        if found is not None:
            return found
    for filename in user_files(extracted)[:8]:
        tree = module_tree(filename)
        if tree is None:
            continue
        for function in _traced_functions(tree):
            found = _formatted_parameter(function, filename)
            if found is not None:
                return found
    return None


def _formatted_parameter(function: ast.AST, filename: str) -> Location | None:
    params = {a.arg for a in function.args.args + function.args.kwonlyargs} - {"self", "cls"}
    for node in ast.walk(function):
        if _formats_names(node, params):
            return Location(filename, node.lineno, getattr(function, "name", "<lambda>"))
    return None


def _traced_functions(tree: ast.AST) -> list[ast.AST]:
    """Functions passed to ``.map``/``tf.function`` or decorated with it, in source order."""
    passed = set()
    lambdas = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and dotted_tail(node.func).rsplit(".", 1)[-1] in (
                "map", "filter", "flat_map", "interleave", "function", "map_fn", "py_function"):
            for arg in node.args:
                if isinstance(arg, ast.Name):
                    passed.add(arg.id)
                elif isinstance(arg, ast.Lambda):
                    lambdas.append(arg)
    defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (n.name in passed or any(dotted_tail(d.func if isinstance(d, ast.Call) else d).endswith("function")
                                         for d in n.decorator_list))]
    return sorted(defs + lambdas, key=lambda n: n.lineno)


def _formats_names(node: ast.AST, names: set[str]) -> bool:
    def uses(expr):
        return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) and uses(v.value) for v in node.values)
    if isinstance(node, ast.Call):
        name = dotted_tail(node.func)
        if name.endswith(".format") or name == "str":
            return any(uses(a) for a in node.args)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        return uses(node.right)
    return False


def _locate_escape_store(extracted, location, frames):
    """``self.cache = t`` (or a global, a captured container) after the line that made the
    leaked graph tensor ``t``: where it leaves the traced function. The line that made it is
    TensorFlow's, else the creation stack of the tensor its raise site refused. A leaked
    input (the placeholder of an argument) has no such line: the statement of the traced
    function that stores that parameter is blamed."""
    stored = _argument_store(extracted)
    if stored is not None:
        return stored
    # the tensor's maker may return it to a caller that stores it: each user frame of its
    # creation stack, innermost first (the refused tensor's, else the stacks the message names)
    origins = _refused_tensor_origins(extracted) or \
        [loc for message in extracted.messages[:1] for loc in message_locations(message)]
    for start in (location, *origins):
        store = _store_after(start) if start is not None else None
        if store is not None:
            return store
    origin = origins[0] if origins else None
    return origin if origin is not None and origin != location else None


def _argument_store(extracted) -> Location | None:
    """The first statement of the traced function that stores the parameter whose placeholder
    leaked in an object the function did not make; the function is the one tfdebug saw
    traced into the placeholder's graph (None when it saw none: no explaining scope was
    active while it was traced)."""
    if "tensorflow" not in sys.modules:
        return None
    from . import _tf, tracing

    leaked = _tf.leaked_argument(extracted.chain)
    code = tracing.traced_code_of(leaked[0]) if leaked is not None else None
    function = function_node(code) if code is not None else None
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None  # a lambda stores nothing
    _, name, index, count = leaked
    parameters = [a.arg for a in function.args.posonlyargs + function.args.args]
    if name not in parameter_names(function):
        # named by position (tf.data's ``args_0``...): only when each parameter is one tensor
        if count != len(parameters) or function.args.vararg or function.args.kwonlyargs:
            return None
        name = parameters[index]
    store = _first_store(function, {name}, after=0, rebinding_ends=True)
    return Location(code.co_filename, store.lineno, function.name) if store is not None else None


def _first_store(function, names: set[str], after: int, rebinding_ends: bool = False):
    """The first statement of ``function`` after line ``after`` that stores a value mentioning
    ``names`` in an object the function did not make (an attribute of ``self``, a global, a
    captured or given container). With ``rebinding_ends``, none after a statement that binds
    one of ``names`` anew (the value stored after it is another tensor)."""
    bound = locally_bound(function)
    own = bound - set(parameter_names(function))  # objects the function made itself
    for node in own_statements(function.body):
        if node.lineno <= after:
            continue
        value = getattr(node, "value", None)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and value is not None and mentions_name(value, names) \
                and any(_stored_outside(t, bound, own) for t in _targets(node)):
            return node
        if isinstance(node, ast.Expr) and isinstance(value, ast.Call) \
                and isinstance(value.func, ast.Attribute) and value.func.attr in MUTATORS \
                and _not_made_here(value.func.value, own) \
                and any(mentions_name(a, names) for a in [*value.args, *(k.value for k in value.keywords)]):
            return node
        if rebinding_ends and _rebinds(node, names):
            return None
    return None


def _targets(node) -> list:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def _rebinds(node, names: set[str]) -> bool:
    """Does ``node`` bind one of ``names`` (``x = ...``, ``x += 1``, ``for x in``, ``as x``)?"""
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = _targets(node)
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
    else:
        return False
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in names
               for t in targets for n in ast.walk(t))


def _store_after(location: Location) -> Location | None:
    """The first statement after ``location``'s assignment that stores what it made in an
    object the function did not make (an attribute of ``self``, a global, a captured or
    given container)."""
    tree = module_tree(location.file)
    stmt = statement_at(tree, location.line) if tree else None
    function = enclosing_function(tree, location.line) if stmt else None
    made = assigned_names(stmt) if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else set()
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not made:
        return None  # a lambda stores nothing
    store = _first_store(function, made, after=stmt.lineno)
    return Location(location.file, store.lineno, location.function) if store is not None else None


def _stored_outside(target, bound, own) -> bool:
    """Does assigning to ``target`` reach past the function: a global name, or an item or
    attribute of an object the function did not make?"""
    if isinstance(target, ast.Name):
        return target.id not in bound  # declared global / nonlocal
    return isinstance(target, (ast.Attribute, ast.Subscript)) and _not_made_here(target.value, own)


def _not_made_here(node, own) -> bool:
    """Is ``node`` (``self.history``, ``cache``, ``args[0]``) rooted in a name the function
    did not bind itself (a parameter, a global, a captured name)?"""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return isinstance(node, ast.Name) and node.id not in own


_VARIABLE_CONSTRUCTORS = ("Variable", "add_weight", "add_variable")


def _locate_variable_initializer(extracted, location, frames):
    """The ``tf.Variable(...)`` whose initial value a tf.function's first call computed and
    TensorFlow could not lift: where that value was made (TensorFlow's op stack), or the
    constructor call of the same function that takes a name bound there; when the initial
    value is the traced function's input itself, the first constructor call in the function
    TensorFlow was tracing."""
    from . import _tf

    origin = next(((f, n, name) for f, n, name in _tf.unlifted_variable_origins(extracted.chain)
                   if is_user(f)), None)
    if origin is None:  # the initial value is an input itself (no user op made it)
        return _first_in_named_function(extracted, frames, lambda n: isinstance(n, ast.Call) and (
            dotted_tail(n.func).rsplit(".", 1)[-1] in _VARIABLE_CONSTRUCTORS))
    tree = module_tree(origin[0])
    stmt = statement_at(tree, origin[1]) if tree is not None else None
    if stmt is None:
        return None
    file, line, function = origin

    def constructs(node):
        return any(name.rsplit(".", 1)[-1] in _VARIABLE_CONSTRUCTORS for name, _ in calls_in(tree, node))

    if not constructs(stmt):
        bound, enclosing = assigned_names(stmt), enclosing_function(tree, line)
        simple = [s for s in own_statements(enclosing.body) if not hasattr(s, "body")] \
            if bound and enclosing is not None else []
        takers = [s for s in simple if s.lineno > line and constructs(s) and mentions_name(s, bound)]
        if len(takers) == 1:
            line = takers[0].lineno
    return Location(file, line, function)


def _locate_frozen_draw(extracted, location, frames):
    """The assignment that drew the random (or clock) value the failing line reads: the
    number the trace froze into the graph (``_effects.frozen``)."""
    from ._effects.frozen import frozen_draws
    from ._extract import file_globals

    draws = frozen_draws(location.file, location.line,
                         file_globals({0: frames}, location.file))
    return Location(location.file, min(line for line, _, _ in draws), location.function) if draws else None


def _locate_keras_step_reset(extracted, location, frames):
    """The ``compile()`` call in a user callback of the Keras loop that found its model's step
    function reset: compile() sets it to None, and the loop's callbacks are what ran
    the user's code while the loop ran."""
    from . import _tf
    from ._source import function_node

    found = _tf.reset_step_function(frames)
    if found is None:
        return None
    for callback in _tf.loop_callbacks(found[2]):
        for cls in type(callback).__mro__:
            for fn in list(vars(cls).values())[:200]:
                code = getattr(fn, "__code__", None)
                if code is None or not is_user(code.co_filename):
                    continue
                node = function_node(code)
                calls = sorted((n for n in ast.walk(node) if isinstance(n, ast.Call)
                                and isinstance(n.func, ast.Attribute) and n.func.attr == "compile"),
                               key=lambda n: n.lineno) if node is not None else []
                if calls:
                    return Location(code.co_filename, calls[0].lineno, code.co_qualname)
    return None


def _locate_tensor_format(extracted, location, frames):
    """The earlier line of the function that made the string the message quotes from a
    graph tensor (``str(value)``), when the failing line did not make it itself."""
    from . import _tf
    from ._extract import quoted_tensor_names
    from ._operands import formats_graph_tensor, formatted_before, user_frame

    frame = user_frame(extracted.chain[0], location.file, location.line)
    if frame is None or formats_graph_tensor(frame, location.file, location.line):
        return None
    names = quoted_tensor_names(extracted.messages, _tf.symbolic_tensor_text())
    line = formatted_before(frame, location.file, location.line, names)
    return Location(location.file, line, location.function) if line is not None else None


# Dataset methods that keep an unknown element shape unknown (the cause is further back).
_SHAPE_KEEPING = frozenset({"batch", "shuffle", "prefetch", "repeat", "cache", "take", "skip",
                            "unbatch", "rebatch", "with_options", "padded_batch"})


def _locate_unknown_dataset(extracted, location, frames):
    """Where the static shape the traced step lacked was lost, for a dataset argument of the
    user's line: the line of the op in a function the pipeline runs that made it unknown
    from known inputs (``tf.py_function`` in a ``map``); else, when the element spec has an
    unknown rank (``from_generator`` with ``TensorSpec(shape=None)``), where the dataset was
    made, following shape-keeping steps (``ds = ds.batch(2)``) back to that binding."""
    from . import _tf
    from ._operands import user_frame

    frame = user_frame(extracted.chain[0], location.file, location.line)
    tree = module_tree(location.file) if frame is not None else None
    stmt = statement_at(tree, location.line) if tree is not None else None
    if stmt is None:
        return None
    names = [arg.id for node in line_nodes(stmt, location.line) if isinstance(node, ast.Call)
             for arg in list(node.args) + [k.value for k in node.keywords] if isinstance(arg, ast.Name)]
    for name in names:
        value = frame.f_locals.get(name, frame.f_globals.get(name))
        lost = _tf.shape_lost_in_pipeline(value, is_user)
        if lost is not None:  # an op in a function the pipeline runs: its line
            return Location(*lost)
        if not _tf.unknown_rank_elements(value):
            continue
        scope = enclosing_function(tree, location.line) or tree
        before = location.line
        while True:
            bindings = [n for n in _assignments(getattr(scope, "body", []), name) if n.lineno < before]
            if not bindings:
                return None
            made = bindings[-1]
            call = getattr(made, "value", None)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                    and isinstance(call.func.value, ast.Name) and call.func.value.id == name \
                    and call.func.attr in _SHAPE_KEEPING:
                before = made.lineno  # `ds = ds.batch(2)`: made earlier
                continue
            return Location(location.file, made.lineno, location.function)
    return None


# TensorFlow's refusal of a per-replica read in cross-replica context (distribute/values.py)
_OUTSIDE_REPLICA = "is not available outside the replica context"
_REPLICA_ENTRIES = ("run", "experimental_run_v2", "call_for_each_replica", "experimental_run")


def _locate_replica_call(extracted, location, frames):
    """A distributed variable read per replica failed in cross-replica context inside a
    tf.function: when the user's line that called the tf.function (the innermost user frame
    of the traceback, outside the converted code) calls it directly, not through
    ``strategy.run``, that call is the cause (the step was meant to run per replica)."""
    if location is None or not any(_OUTSIDE_REPLICA in m[:20000] for m in extracted.messages):
        return None
    from ._effects.objects import is_tf_function  # TensorFlow raised this: it is loaded

    if any(frame.f_code.co_name in _REPLICA_ENTRIES and "/distribute/" in frame.f_code.co_filename
           for frame, _ in frames):
        return None  # the strategy ran it per replica: the read itself is the mistake
    outer = next(((frame, line) for frame, line in reversed(frames) if is_user(frame.f_code.co_filename)), None)
    if outer is None or (outer[0].f_code.co_filename, outer[1]) == (location.file, location.line):
        return None
    frame, line = outer
    tree = module_tree(frame.f_code.co_filename)
    stmt = statement_at(tree, line) if tree is not None else None
    if stmt is None:
        return None
    calls = [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    if any(isinstance(c.func, ast.Attribute) and c.func.attr in _REPLICA_ENTRIES for c in calls):
        return None
    names = {**frame.f_globals, **frame.f_locals}
    direct = [c for c in calls if isinstance(c.func, ast.Name)
              and is_tf_function(names.get(c.func.id))]
    if not direct:
        return None
    return Location(frame.f_code.co_filename, line, frame.f_code.co_name)


LOCATORS = {
    "unknown-dataset": _locate_unknown_dataset,
    "tensor-format": _locate_tensor_format,
    "keras-step-reset": _locate_keras_step_reset,
    "frozen-draw": _locate_frozen_draw,
    "variable-initializer": _locate_variable_initializer,
    "cast-binding": _locate_cast_binding,
    "escape-store": _locate_escape_store,
    "append-in-loop": _locate_append_in_loop,
    "set-seed": _locate_set_seed,
    "keras-constructor": _locate_keras_constructor,
    "shape-binding": _locate_shape_binding,
    "yield": _locate_yield,
    "generator-yield": _locate_generator_yield,
    "return-value": _locate_return_value,
    "py-function": _locate_py_function,
    "keras-call-tf-function": _locate_keras_call_tf_function,
    "shape-invariants": _locate_shape_invariants,
    "string-format": _locate_string_format,
    "replica-call": _locate_replica_call,
}



# -- a variable TensorFlow names: its assignment that causes the error --------------------

# AutoGraph's messages that name a variable (autograph/operators/control_flow.py), with where
# the cause sits: in the loop body, before the loop, or in the branch the message names.
_NAMED_VARIABLE = [
    (re.compile(r"'([\w.]+)' (?:has (?:dtype|shape) .* after one|does not have the same nested structure after one"
                r"|is None at the end of the iteration|must be defined before the loop)"), "loop", None),
    (re.compile(r"'([\w.]+)' is not allowed to be None before the loop"), "before-loop", None),
    (re.compile(r"'([\w.]+)' is None at the end of the (main|else) branch"), "branch", "same"),
    (re.compile(r"'([\w.]+)' must also be initialized in the (main|else) branch"), "branch", "other"),
    (re.compile(r"'([\w.]+)' has dtype .* in the main branch"), "branch", "main-dtype"),
    (re.compile(r"'([\w.]+)' must have the same nested structure in the main"), "branch", "main"),
]
# tf.while_loop's own check (ops/while_v2.py): the body returns a loop variable changed.
_WHILE_BODY_CHANGES = re.compile(r"enters the loop with (?:shape|type) .* after (?:one|1) iteration")
# func_graph's check after tracing: the function changed a list/dict argument in place.
_MODIFIED_ARGUMENTS = re.compile(
    r"([\w.]+)\(.*?\) should not modify its Python input arguments.*?"
    r"The following parameter\(s\) were modified: ([\w, ]+)", re.S)
_COMPOUND = {"loop": (ast.For, ast.While, ast.AsyncFor), "before-loop": (ast.For, ast.While, ast.AsyncFor),
             "branch": (ast.If,)}


def cause_of_named(extracted, location: Location | None, frames=()) -> Location | None:
    """The assignment of the variable TensorFlow's message names that causes the error.

    ``location`` is TensorFlow's user line (the ``for``/``while``/``if`` AutoGraph blames, or a
    line inside it); the answer is in the same function. A function TensorFlow names by its
    name alone (a modified argument) is the one the failing frames hold, else a def of that
    name in a user file of the traceback: the blamed call may sit in another module than the
    function. None when nothing fits.
    """
    for message in extracted.messages:
        modified = _MODIFIED_ARGUMENTS.search(message[:20000])
        if modified:
            names = {n.strip() for n in modified.group(2).split(",") if n.strip()}
            name = modified.group(1).rsplit(".", 1)[-1]
            fn = _user_function_named(name, frames)
            files = ([fn.__code__.co_filename] if fn is not None else []) + user_files(extracted)[:8]
            return _mutation_of(list(dict.fromkeys(files)), name, names)
    if location is None:
        return None
    tree = module_tree(location.file)
    if tree is None:
        return None
    for message in extracted.messages:
        head = message[:20000]
        if _WHILE_BODY_CHANGES.search(head):
            return _while_body_cause(extracted, tree, location)
        for pattern, where, branch in _NAMED_VARIABLE:
            match = pattern.search(head)
            if match is None:
                continue
            statement = _compound_at(tree, location.line, _COMPOUND[where])
            if statement is None:
                return None
            side = match.group(2) if match.lastindex and match.lastindex >= 2 else None
            line = _assignment_line(tree, statement, match.group(1), where, branch, side)
            return Location(location.file, line, location.function) if line else None
    return None


def _compound_at(tree, line: int, kinds):
    """The loop or ``if`` starting on ``line``, else the innermost one around it."""
    stmt = statement_at(tree, line)
    if isinstance(stmt, kinds) and stmt.lineno == line:
        return stmt
    parents = parents_of(tree)
    node = stmt
    while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        if isinstance(node, kinds):
            return node
        node = parents.get(node)
    return None


def _assignment_line(tree, statement, name: str, where: str, branch, side) -> int | None:
    if where == "loop":
        hits = _assignments(statement.body, name)
        return hits[-1].lineno if hits else None
    if where == "before-loop":
        function = enclosing_function(tree, statement.lineno)
        body = getattr(function, "body", None) or getattr(tree, "body", [])
        hits = [n for n in _assignments(body, name) if n.lineno < statement.lineno
                and isinstance(getattr(n, "value", None), ast.Constant) and n.value.value is None]
        return hits[-1].lineno if hits else None
    bodies = {"main": statement.body, "else": statement.orelse}
    if branch == "other":
        side = "else" if side == "main" else "main"
    elif branch in ("main", "main-dtype"):
        side = "main"
    hits = _assignments(bodies.get(side, []), name)
    if branch == "main-dtype":
        # the dtypes differ: a Python literal takes the dtype TensorFlow converts it to (an
        # int becomes int32), the other branch's is the computed one, so the literal is wrong.
        # Two computed values prove neither side wrong: TensorFlow's `if` line names both.
        other = _assignments(statement.orelse, name)
        main_literal, else_literal = bool(hits) and _literal(hits[-1]), bool(other) and _literal(other[-1])
        if main_literal == else_literal:
            return None
        hits = other if else_literal else hits
    if branch == "same":
        hits = [n for n in hits if isinstance(getattr(n, "value", None), ast.Constant) and n.value.value is None] or hits
    return hits[-1].lineno if hits else None


def _literal(statement) -> bool:
    """The statement assigns a Python number, bool or string literal (``loss = 0``)."""
    value = getattr(statement, "value", None)
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        value = value.operand
    return isinstance(statement, (ast.Assign, ast.AnnAssign)) and isinstance(value, ast.Constant) \
        and isinstance(value.value, (int, float, complex, str))


def _assignments(body, name: str) -> list[ast.stmt]:
    """Statements in ``body`` (nested blocks too, not nested functions) that bind ``name``."""
    out, pending = [], list(body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            targets = [node.target]
        elif isinstance(node, ast.NamedExpr):
            targets = [node.target]
        if any(dotted_tail(t) == name or any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(t)
                                        if not isinstance(t, (ast.Attribute, ast.Subscript)))
               for t in targets):
            out.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return sorted(out, key=lambda n: n.lineno)


def _refused_tensor_origin(extracted) -> Location | None:
    """The user line that made the tensor TensorFlow's raise site refused (a loop output)."""
    return next(iter(_refused_tensor_origins(extracted)), None)


def _refused_tensor_origins(extracted) -> list[Location]:
    """The user frames of that tensor's creation stack, innermost first."""
    from . import _tf

    return [Location(f, n, name) for f, n, name in _tf.refused_tensor_origin(extracted.chain)
            if is_user(f)]


def _while_body_cause(extracted, tree, location: Location) -> Location | None:
    """The body line that made the loop output while_v2 refused; the body's ``return`` when
    that op's stack names only the ``while_loop`` statement (a lambda body in converted code)."""
    origin = _refused_tensor_origin(extracted)
    if origin is not None and not (origin.file == location.file and statement_at(tree, origin.line)
                                   is statement_at(tree, location.line)):
        return origin
    return _while_loop_body(tree, location) or origin


def _while_loop_body(tree, location: Location) -> Location | None:
    """The line of the body an explicit ``tf.while_loop(cond, body, ...)`` at ``location`` runs."""
    stmt = statement_at(tree, location.line)
    if stmt is None:
        return None
    for name, call in calls_in(tree, stmt):
        if name.rsplit(".", 1)[-1] != "while_loop":
            continue
        body = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "body"), None)
        if isinstance(body, ast.Lambda):
            return Location(location.file, body.body.lineno, location.function)
        if isinstance(body, ast.Name):
            defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and n.name == body.id]
            returns = [n for d in defs[:1] for n in ast.walk(d) if isinstance(n, ast.Return)]
            if returns:
                return Location(location.file, returns[-1].lineno, defs[0].name)
    return None


def _mutation_of(files, function: str, names: set[str]) -> Location | None:
    """The first statement of def ``function`` (in the first of ``files`` defining it that
    changes them) that changes one of ``names`` in place (``names.append(...)``,
    ``names[k] = ...``, ``del names[k]``)."""
    for file in files:
        tree = module_tree(file)
        found = _mutation_in(tree, file, function, names) if tree is not None else None
        if found is not None:
            return found
    return None


def _mutation_in(tree, file: str, function: str, names: set[str]) -> Location | None:
    for node in source_index(tree).functions:
        if getattr(node, "name", None) != function:
            continue
        hits = []
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                    and sub.func.attr in MUTATORS and isinstance(sub.func.value, ast.Name) \
                    and sub.func.value.id in names:
                hits.append(sub)
            targets = sub.targets if isinstance(sub, (ast.Assign, ast.Delete)) else \
                [sub.target] if isinstance(sub, ast.AugAssign) else []
            if any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                   and t.value.id in names for t in targets):
                hits.append(sub)
        if hits:
            return Location(file, min(h.lineno for h in hits), function)
    return None


# -- a control-flow node TensorFlow names at run time: the construct that built it --------

# A run-time error names the failing node ("[[{{node cond_1/switch_pred/_9}}]]", "Detected at
# node while/...") and the traced function ("[Op:__inference_step_32]"). The node's first name
# scope is the tf.cond / tf.while_loop (or AutoGraph's `if` / `while`) that made it, numbered in
# the order the function built them: "cond_1" is its second cond.
_CONTROL_FLOW_NODE = re.compile(r"(?:\{\{node |Detected at node )(cond|while)(?:_(\d+))?/")
_TRACED_FUNCTION = re.compile(r"__inference_(\w+?)_\d+\b")
_CONSTRUCTS = {"cond": ({"cond"}, (ast.If,)), "while": ({"while_loop"}, (ast.While, ast.For))}


def construct_of_node(extracted, location: Location | None, frames=()) -> Location | None:
    """The ``tf.cond``/``tf.while_loop`` call (or ``if``/``while``) that built the control-flow
    node a run-time error names, when TensorFlow's user line is outside the traced function
    (its call). None when the function's source does not tell which construct it was."""
    for message in extracted.messages:
        head = message[:20000]
        node, traced = _CONTROL_FLOW_NODE.search(head), _TRACED_FUNCTION.search(head)
        if node is None or traced is None:
            continue
        fn = _user_function_named(traced.group(1), frames)
        definition = _def_of(fn) if fn is not None else None
        if definition is None or isinstance(definition, ast.Lambda):
            return None
        file = fn.__code__.co_filename
        inside = lambda loc: loc.file == file and \
            definition.lineno <= loc.line <= (definition.end_lineno or 0)  # noqa: E731
        if location is not None and any(inside(loc) for locs in extracted.locations
                                        if locs and locs[0] == location for loc in locs):
            return None  # TensorFlow already names a line of the function, or of code it calls
        leaves, kinds = _CONSTRUCTS[node.group(1)]
        tree = module_tree(file)
        calls = sorted((c for name, c in calls_in(tree, definition) if name.rsplit(".", 1)[-1] in leaves),
                       key=lambda c: (c.lineno, c.col_offset))
        statements = [s for s in ast.walk(definition) if isinstance(s, kinds)]
        index = int(node.group(2) or 0)
        if len(calls) + len(statements) == 1:
            chosen = (calls + statements)[0]
        elif not statements and index < len(calls):
            chosen = calls[index]
        else:
            return None
        return Location(file, chosen.lineno, definition.name)
    return None
