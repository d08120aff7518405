"""Exception -> :class:`Extracted`: what TensorFlow left on an exception, as plain data.

It reads AutoGraph's "in user code:" frames and ``ag_error_metadata``, the op-definition
stack of run-time graph errors, Keras' "Exception encountered when calling" wrappers, the
``__cause__``/``__context__`` chain and the traceback; it finds where TensorFlow raised the
error (its *raise site*) and the user lines involved, and tags facts about the failing code
read from the user's source with ``ast`` (recipes' ``when``). Nothing here raises on odd input.
"""
from __future__ import annotations

import ast
import builtins
import dataclasses
import dis
import inspect
import linecache
import os
import re
import sys
import types

from . import _frames
from ._source import (assigned_names, calls_in, constructor_binding, dotted_tail,
                      enclosing_function, inside_loop, is_loop, line_nodes,
                      import_bindings, module_tree, parents_of, source_index, statement_at,
                      static_shape_binding)
from ._vocab import KERAS_LOOPS, KERAS_CONSTRUCTOR_NAME, PY_FUNCTION_LEAVES

_TFDEBUG_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_CHAIN_LIMIT = 8
_TEXT_LIMIT = 1 << 20  # a message longer than 1 MB is cut (its head and tail are kept)
_FILE_LINE = re.compile(r'File "([^"\n]+)", line (\d+), in ([^\s]+)')
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
    raise_site: "RaiseSite | None" = None     # where TensorFlow/Keras raised it, if they did
    user_raised: bool = False                 # the user's own ``raise`` statement raised it
    graph: bool = False                       # TensorFlow or Keras took part in the failure


@dataclasses.dataclass(frozen=True)
class RaiseSite:
    """A frame of TensorFlow or Keras that raised an error (``module`` is the package path)."""

    file: str
    line: int
    function: str
    module: str  # "tensorflow/python/ops/cond_v2.py", "keras/src/layers/layer.py", ...


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


def class_names_of(exc: BaseException) -> tuple[str, ...]:
    try:
        return tuple(c.__name__ for c in type(exc).__mro__ if c is not object)
    except Exception:  # noqa: BLE001
        return ()


def chain_of(exc: BaseException) -> tuple[BaseException, ...]:
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
        if line and not line.startswith(_NOT_THE_MESSAGE):
            return re.sub(r"\x1b\[[0-9;]*m", "", line)[:limit]
    return ""


# Lines of a message around what went wrong: AutoGraph's frames, a run-time error's heading
# and the stack of the op that failed ("Detected at node X defined at ...").
_NOT_THE_MESSAGE = ("in user code:", "File ", "Graph execution error:", "Detected at node ",
                    "<stack traces unavailable>", "[[")



_user_files_memo: dict[str, bool] = {}
_memo_modules = [0]


def is_user(filename) -> bool:
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




# -- tags: facts about where the error happened ------------------------------------------

def _line_tags(location: Location | None) -> set[str]:
    if location is None:
        return set()
    tree = module_tree(location.file)
    if tree is None:
        return set()
    stmt = statement_at(tree, location.line)
    if stmt is None:
        return set()
    tags = set()
    parents = parents_of(tree)
    nodes = line_nodes(stmt, location.line)
    if isinstance(stmt, ast.Assert):
        tags.add("assert")
    for node in nodes:
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                and any(isinstance(c, (ast.List, ast.Tuple, ast.Set)) for c in node.comparators):
            tags.add("in-list")
        elif isinstance(node, ast.Call):
            name = dotted_tail(node.func)
            if name in ("enumerate", "zip"):
                tags.add("enumerate")
            if KERAS_CONSTRUCTOR_NAME.search(name):
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
    function = enclosing_function(tree, location.line)
    while node is not None and node is not function:
        parent = parents.get(node)
        if isinstance(parent, ast.Try) and node in parent.body:
            tags.add("try-body")
        if is_loop(parent) and node in parent.body and assigned_names(stmt) and function is not None:
            before = {name for n in ast.walk(function) if getattr(n, "lineno", 10 ** 9) < parent.lineno
                      for name in assigned_names(n)}
            if assigned_names(stmt) & before:
                tags.add("loop-carried")
        node = parent
    if function is not None:
        if constructor_binding(tree, function, nodes) is not None:
            tags.add("keras-constructor")
        if static_shape_binding(function, nodes, location.line, tree) is not None:
            tags.add("shape-index")
        for name, call in calls_in(tree, function):
            if name.endswith("set_seed"):
                tags.add("set-seed")
            if name.endswith(".append") and inside_loop(call, parents, function):
                tags.add("append-in-loop")
    return tags



TF_DATA_DIR = os.sep + os.path.join("tensorflow", "python", "data") + os.sep


def _context_tags(chain, messages, frames_by_exc, location: Location | None) -> set[str]:
    tags = set()
    keras_dir = os.sep + "keras" + os.sep
    for exc, message in zip(chain, messages):
        if "Exception encountered when calling" in message[:4096]:
            tags.add("keras-call")
        frames = frames_by_exc.get(id(exc), ())
        if any(TF_DATA_DIR in f.f_code.co_filename for f, _ in frames):
            tags.add("tf.data")
        # TF's cond builder checks the branches with bare asserts ("AssertionError: [2, 1]").
        if frames and (frames[-1][0].f_code.co_filename.endswith(_COND_FILES) or (
                is_user(frames[-1][0].f_code.co_filename) and _called_cond_builder(exc))):
            tags.add("tf.cond")
        # The innermost user frame was called by Keras (a layer's call, a loss, a metric).
        # (tfdebug's own trace hook frames may sit in between: they are skipped.)
        users = [i for i, (f, _) in enumerate(frames) if is_user(f.f_code.co_filename)]
        callers = [f.f_code.co_filename for f, _ in frames[:users[-1]]] if users else []
        callers = [name for name in callers if not name.startswith(_TFDEBUG_DIR)]
        if callers and keras_dir in callers[-1]:
            tags.add("keras-call")
    if location is not None and not linecache.getlines(location.file):
        tags.add("no-source")
    return tags


def text_tags(text: str) -> frozenset[str]:
    """The ``when`` tags pasted error text proves (``tfdebug explain``): Keras' call wrapper
    and tf.data frames by their words and paths, and the line tags of the innermost user
    frame the traceback names, read from that file when it is on this machine."""
    tags = set()
    if "Exception encountered when calling" in text[:1 << 16]:
        tags.add("keras-call")
    if TF_DATA_DIR in text:
        tags.add("tf.data")
    users = [Location(f, int(n), fn) for f, n, fn in _FILE_LINE.findall(text[-(1 << 16):])
             if is_user(f) and os.path.isfile(f)]
    if users:
        tags |= _line_tags(users[-1]) | _function_tags([[users[-1]]])
    return frozenset(tags)


def _leaked_tensor(chain) -> bool:
    from . import _tf

    try:
        return _tf.leaked_graph_tensor(chain)
    except Exception:  # noqa: BLE001 - a tensor of another layout: no tag
        return False


def _scan_refused_state(exc, message: str, first: Location) -> bool:
    """A TensorArray refused an element ("Inconsistent shapes: saw ... but expected ...")
    while the innermost user frame was a call of ``tf.scan``: the user's function had
    returned, and the write that failed is scan's own, of the state it returned into the
    array shaped like the initializer (a TensorArray of the user's would fail in its frame)."""
    if "Inconsistent shapes: saw " not in message[:8192]:
        return False
    from ._operands import called_values

    scan = getattr(sys.modules.get("tensorflow"), "scan", None)
    return scan is not None and any(value is scan for value in called_values(exc, first))


def _function_tags(locations) -> set[str]:
    """"py-function" when a user function the failure ran through (a frame of a traceback or
    of a stack TensorFlow's message names) calls ``tf.py_function``/``tf.numpy_function``
    itself: a call elsewhere in its module says nothing about this failure."""
    for locs in locations:
        for loc in locs[:64]:
            tree = module_tree(loc.file)
            lines = _py_function_lines(tree) if tree is not None else ()
            function = enclosing_function(tree, loc.line) if lines else None
            if function is not None and any(
                    function.lineno <= n <= (function.end_lineno or n) for n in lines):
                return {"py-function"}
    return set()


def _py_function_lines(tree) -> tuple[int, ...]:
    """The lines of the module's ``tf.py_function``/``tf.numpy_function`` calls (kept)."""
    index = source_index(tree)
    key = ("py-function-lines", None)
    if key not in index.answers:
        index.answers[key] = tuple(sorted(n.lineno for name, n in index.call_names
                                          if name.rsplit(".", 1)[-1] in PY_FUNCTION_LEAVES))
    return index.answers[key]



# -- extraction --------------------------------------------------------------------------

def tb_frames(exc: BaseException) -> list[tuple[object, int]]:
    """``(frame, lineno)`` of ``exc``'s traceback, outermost first, with the frames
    TensorFlow's and Keras' filters dropped put back when a tfdebug scope kept them."""
    kept = sys.modules.get("tfdebug._tf.tracebacks")
    if kept is not None:
        return kept.unfiltered_frames(exc)
    out, tb = [], getattr(exc, "__traceback__", None)
    while tb is not None and len(out) < 2000:
        out.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return out


def raised_in_native_call(exc: BaseException) -> str | None:
    """The file of the innermost Python frame when it was *calling*, not raising: the
    exception came from native code it called (a C extension, a pybind11 binding), since a
    Python callee would have a frame of its own. None otherwise."""
    tb = _innermost_tb(exc)
    if tb is None:
        return None
    lasti = _instruction(tb)
    code = tb.tb_frame.f_code.co_code
    return tb.tb_frame.f_code.co_filename if lasti is not None and \
        dis.opname[code[lasti]].startswith("CALL") else None


def _innermost_tb(exc: BaseException):
    tb = getattr(exc, "__traceback__", None)
    for _ in range(2000):
        if tb is None or tb.tb_next is None:
            break
        tb = tb.tb_next
    return tb


def _instruction(tb) -> int | None:
    """The offset of the instruction ``tb`` stopped at. A traceback a library rebuilt (Keras'
    and TensorFlow's filters) may hold an offset inside the instruction's inline caches: the
    instruction is the one before them."""
    return _settled(tb.tb_frame.f_code.co_code, tb.tb_lasti)


def _settled(code: bytes, lasti: int) -> int | None:
    while 0 < lasti < len(code) and dis.opname[code[lasti]] == "CACHE":
        lasti -= 2
    return lasti if 0 <= lasti < len(code) else None


# Where a message lists the stack that built the failing op: AutoGraph's block, the Python
# op-definition stacks, and the C++ runtime's (XLA's compile errors among them) "The op is
# created at:", whose file names lose the prefix they share (a leading "/" at least).
# A Python function TensorFlow ran inside a graph (py_function, numpy_function, a
# from_generator generator) that raised: its op's error carries Python's own traceback.
_PY_TRACEBACK = "Traceback (most recent call last):"
_STACK_MARKERS = ("in user code:", "defined at (most recent call last):", "was defined here:",
                  "The op is created at:", "Stack trace for op definition:", _PY_TRACEBACK)
_STACK_MARKER = re.compile("|".join(re.escape(marker) for marker in _STACK_MARKERS))


def message_locations(message: str, known_files=()) -> list[Location]:
    """User frames named in the message: AutoGraph's block, op-definition stacks; innermost first.

    A message may hold several stacks: an error inside a nested function (a loop body, a
    branch) names the failing op first and then, appended on the way out, each enclosing
    op that called it (XLA's "conversion failed while converting ..."). The first stack is
    the innermost, after Python's own traceback of a function the op ran (py_function, a
    generator); each stack lists its own frames outermost first.
    """
    text = message[:200_000]
    starts = sorted(i for i in (text.find(marker) for marker in _STACK_MARKERS) if i >= 0)
    if starts:  # each marker may repeat: find every occurrence past the first one
        starts = sorted({m.start() for m in _STACK_MARKER.finditer(text, starts[0])})
    found, folders = [], None
    segments = list(zip(starts, starts[1:] + [len(text)]))
    # Python's traceback of a function the failing op ran is inside that op: innermost of all
    segments.sort(key=lambda segment: not text.startswith(_PY_TRACEBACK, segment[0]))
    for start, end in segments:
        for filename, lineno, name in reversed(_FILE_LINE.findall(text, start, end)):
            if not (filename.startswith("<") or os.path.isabs(filename) or os.path.exists(filename)):
                folders = _folders_above(known_files) if folders is None else folders
                filename = _full_path(filename, known_files, folders)
            if is_user(filename):
                found.append(Location(filename, int(lineno), name))
    return found


def _folders_above(known_files) -> list[str]:
    """The folders above the traceback's files, nearest first, each once, the root last."""
    out, seen = [], set()
    for known in dict.fromkeys(known_files):
        folder = os.path.dirname(known) if os.path.isabs(known) else ""
        while folder and folder not in seen:
            seen.add(folder)
            out.append(folder)
            parent = os.path.dirname(folder)
            folder = parent if parent != folder else ""
    root = os.path.abspath(os.sep)
    return [f for f in out if f != root] + [root]


def _full_path(filename: str, known_files, folders) -> str:
    """``filename`` as the traceback knows it, when a message cut a shared prefix off it.

    The prefix cut is the one every file of that stack shares, so it is a folder above the
    files the traceback holds (TensorFlow's own among them): try those, nearest first.
    """
    tail = os.sep + filename
    known = next((k for k in known_files if k.endswith(tail)), None)
    if known is not None:
        return known
    return next((os.path.join(folder, filename) for folder in folders
                 if os.path.exists(os.path.join(folder, filename))), filename)


def _autograph_locations(exc: BaseException) -> list[Location]:
    metadata = getattr(exc, "ag_error_metadata", None)
    stack = getattr(metadata, "translated_stack", None) or []
    out = []
    for frame in list(stack)[:500]:  # AutoGraph keeps it innermost first
        filename, lineno = getattr(frame, "filename", None), getattr(frame, "lineno", None)
        if isinstance(filename, str) and isinstance(lineno, int) and is_user(filename):
            out.append(Location(filename, lineno, str(getattr(frame, "function_name", "") or "")))
    return out


def _op_locations(exc: BaseException) -> list[Location]:
    from . import _tf

    return [Location(f, n, name) for f, n, name in _tf.op_creation_stack(exc) if is_user(f)]


# A run-time error of a graph without a Python stack (tf.data's functions) names only its
# node: "[[{{node DecodeJpeg}}]]", named after the op type (a "_3" suffix when repeated).
_RUN_TIME_NODE = re.compile(r"\[\[\{\{node ([A-Za-z][\w]*?)(?:_\d+)?\}\}\]\]")


def _node_locations(message: str, known_files) -> list[Location]:
    """The one user call that makes the op a run-time error names (``tf.io.decode_jpeg`` for
    node ``DecodeJpeg``), when the message has no stack of its own; [] when not exactly one."""
    if any(marker in message for marker in _STACK_MARKERS):
        return []
    match = _RUN_TIME_NODE.search(message[-20000:])
    if match is None:
        return []
    wanted = re.sub(r"V\d+$", "", match.group(1)).lower()
    hits = []
    for filename in list(dict.fromkeys(f for f in known_files if is_user(f)))[:8]:
        tree = module_tree(filename)
        if tree is None:
            continue
        tensorflow = {name for node in ast.walk(tree) for name, module in import_bindings(node).items()
                      if module.split(".")[0] == "tensorflow"}
        for name, call in source_index(tree).call_names:
            # TensorFlow's op wrappers are the op's name in snake case (np.mean makes no node)
            if name.split(".")[0] in tensorflow and \
                    name.rsplit(".", 1)[-1].replace("_", "").lower() == wanted:
                function = enclosing_function(tree, call.lineno)
                hits.append(Location(filename, call.lineno, "<lambda>" if isinstance(function, ast.Lambda)
                                     else getattr(function, "name", "<module>")))
    return hits if len(hits) == 1 else []


def _locations(exc: BaseException, message: str, frames) -> list[Location]:
    known_files = [frame.f_code.co_filename for frame, _ in frames[-200:]]
    found = _autograph_locations(exc) + message_locations(message, known_files) + _op_locations(exc)
    found += _node_locations(message, known_files)
    # A module-level line in AutoGraph's block is the call, never better than a function's.
    found = [loc for loc in found if loc.function != "<module>"] + \
            [loc for loc in found if loc.function == "<module>"]
    for frame, lineno in reversed(frames):
        filename = frame.f_code.co_filename
        if is_user(filename):
            found.append(Location(filename, lineno, frame.f_code.co_name))
    unique = []
    for loc in found:
        if loc not in unique:
            unique.append(loc)
    return unique


def _lambda_lines(locations, chain, frames_by_exc):
    """AutoGraph maps a lambda it converted (``tf.map_fn(lambda x: ..., elems)``) to the line
    of the statement around it, the same generated line as the call: when the innermost
    converted code running was a ``<lambda>`` and the statement at the first location holds
    exactly one lambda, on a line of its own, the lambda's line is where the error arose."""
    first = next((locs[0] for locs in locations if locs), None)
    if first is None or not _innermost_generated_is_lambda(chain, frames_by_exc):
        return locations
    tree = module_tree(first.file)
    stmt = statement_at(tree, first.line) if tree is not None else None
    lambdas = [n for n in ast.walk(stmt) if isinstance(n, ast.Lambda)] if stmt is not None else []
    if len(lambdas) != 1 or lambdas[0].lineno == first.line:
        return locations
    moved = Location(first.file, lambdas[0].lineno, "<lambda>")
    return tuple((moved, *locs) if first in locs else locs for locs in locations)


def _innermost_generated_is_lambda(chain, frames_by_exc) -> bool:
    for exc in reversed(chain):  # innermost exception first: its frames reach deepest
        for frame, _ in reversed(frames_by_exc.get(id(exc), ())):
            if "__autograph_generated_file" in frame.f_code.co_filename:
                return frame.f_code.co_name == "<lambda>"
    return False


def extract(exc: BaseException) -> Extracted:
    """Read ``exc`` and its chain into plain data (see :class:`Extracted`)."""
    chain = chain_of(exc)
    messages = tuple(safe_str(e) for e in chain)
    frames_by_exc = {id(e): tb_frames(e) for e in chain}
    locations = tuple(tuple(_locations(e, m, frames_by_exc[id(e)])) for e, m in zip(chain, messages))
    locations = _lambda_lines(locations, chain, frames_by_exc)
    first = next((locs[0] for locs in locations if locs), None)
    tags = _context_tags(chain, messages, frames_by_exc, first)
    if _leaked_tensor(chain):
        tags.add("leaked-tensor")
    if "tensorflow" in sys.modules:  # a loaded SavedModel's function refused the call: why
        from . import _tf
        refused = _tf.restored_call_mismatch(chain)
        if refused is not None:
            tags.add(f"signature-{refused}")
        returned = _tf.refused_return_value(chain)
        if returned is not None and (getattr(type(returned), "__module__", "") or "").split(".")[0] \
                in ("keras", "tf_keras"):
            tags.add("keras-return")
    tags |= _line_tags(first)
    if "shape-index" in tags and _shape_indexes_known(exc, first):
        tags.discard("shape-index")  # every `x.shape[i]` there is known: not the None refused
    tags |= _function_tags(locations)
    if keras_call_tf_function(frames_by_exc.get(id(exc), ()), chain) is not None:
        tags.add("keras-call-tf-function")
    site, user_raised = _raise_site(chain, frames_by_exc)
    if first is not None and not user_raised:
        tags |= _frame_tags(exc, chain, messages, first)
    if "tensorflow" in sys.modules:
        tags |= _state_tags(chain, messages, frames_by_exc, tags, user_raised, first)
        if first is not None and _frozen_draw_at(chain, first, frames_by_exc):
            tags.add("frozen-draw")
        if "keras" in sys.modules and _keras_step_reset(frames_by_exc.get(id(exc), ())):
            tags.add("keras-step-reset")
        if first is not None and _keras_loop_while_tracing(chain, frames_by_exc, first):
            tags.add("keras-loop-in-trace")
        if not user_raised:
            tags |= _callee_tags(exc, chain, messages, frames_by_exc, tags, first)
    return Extracted(chain=chain, class_names=tuple(class_names_of(e) for e in chain),
                     messages=messages, locations=locations, tags=frozenset(tags),
                     raise_site=site, user_raised=user_raised,
                     graph=_library_involved(chain, frames_by_exc))


def _keras_loop_while_tracing(chain, frames_by_exc, first: Location) -> bool:
    """The user's failing line called a Keras model's own loop (``model.predict(x)`` in a
    ``train_step``) while a trace ran it: whatever the loop's code then refused, the cause is
    the call (read from the frames under and above the user's, TensorFlow's and Keras')."""
    if "keras" not in sys.modules and "tf_keras" not in sys.modules:
        return False
    from . import _tf

    for exc in chain:
        frames = frames_by_exc.get(id(exc)) or ()
        at = [i for i, (frame, line) in enumerate(frames)
              if line == first.line and frame.f_code.co_filename == first.file]
        if at and _tf.loop_called_while_tracing(frames, at[-1]) is not None:
            return True
    return False


# The Python error line that ends a traceback: ``TypeError: ...``, ``module.Error: ...``.
_ERROR_LINE = re.compile(r"^(?:\w+\.)*\w+: .*$", re.M)


def _graph_tensor_at_run_time(chain, messages) -> set[str]:
    """``py-func-graph-tensor`` when a Python function TensorFlow ran *while a graph ran*
    (its op's error holds Python's traceback) failed on a graph tensor: Python names its
    class, or the tensor's own class refused it (the traceback ends in its module).
    TensorFlow hands such functions eager values, so the function held a tensor of a trace
    (a closure, a default argument, a value it yielded). ``tf.data`` too when that
    traceback runs through tf.data's code (a ``from_generator`` generator)."""
    from . import _tf

    for exc, message in zip(chain, messages):
        start = message.find(_PY_TRACEBACK, 0, 200_000)
        if start < 0 or "OpError" not in class_names_of(exc):
            continue
        embedded = message[start:start + 200_000]
        last = embedded.rfind('  File "')
        errors = _ERROR_LINE.findall(embedded, last)
        names = _tf.symbolic_tensor_type_names()
        frame = _FILE_LINE.match(embedded, last + 2) if last >= 0 else None
        refused = frame is not None and _tf.refuses_only_graph_tensors(frame.group(1), frame.group(3))
        if errors and (refused or any(re.search(rf"\b{re.escape(name)}\b", errors[0]) for name in names)):
            return {"py-func-graph-tensor"} | ({"tf.data"} if TF_DATA_DIR in embedded else set())
    return set()


# Python's refusal of an object that is not an int where it needs one: ``len()`` gives it
# when ``__len__`` returned such an object (a graph tensor there names its class).
_NOT_AN_INTEGER = re.compile(r"^'(\w+)' object cannot be interpreted as an integer$")


def _len_refused_tensor(chain, messages, frames_by_exc) -> bool:
    """Python's ``len()`` itself refused a graph tensor: the one an object's ``__len__``
    returned. The innermost frame was calling ``len`` (AutoGraph's Python fallback for
    non-tensors, or the user's own line), and the class Python names is a graph tensor's."""
    from . import _tf

    for exc, message in zip(chain, messages):
        found = _NOT_AN_INTEGER.match(message.strip().splitlines()[-1] if message.strip() else "")
        frames = frames_by_exc.get(id(exc), ())
        if not (found and frames and isinstance(exc, TypeError)) or \
                found.group(1) not in _tf.symbolic_tensor_type_names():
            continue
        frame, lineno = frames[-1]
        if _tf.is_python_len(frame) or (is_user(frame.f_code.co_filename)
                                        and _calls_builtin(exc, "len")):
            return True
    return False


def callee_at_raise(exc: BaseException):
    """What the innermost frame of ``exc`` was calling when the exception reached it: its
    last instruction is a call, whose source span (``co_positions``) gives the callee's
    expression, looked up in the frame (a name, or attributes of modules: no code runs).
    The call raised in native code, or in Python frames a library's traceback filter
    removed (Keras and TensorFlow keep only the user's frames). None when unknown."""
    if raised_in_native_call(exc) is None:
        return None
    tb = _innermost_tb(exc)
    frame, code = tb.tb_frame, tb.tb_frame.f_code
    try:  # the positions count UTF-8 bytes
        start, end, col, end_col = list(code.co_positions())[_instruction(tb) // 2]
        lines = [line.encode("utf-8") for line in linecache.getlines(code.co_filename)[start - 1:end]]
        text = b"".join(lines)[col:len(b"".join(lines[:-1])) + end_col].decode("utf-8")
        call = ast.parse(text.strip(), mode="eval").body
    except (TypeError, ValueError, IndexError, SyntaxError, UnicodeDecodeError):
        return None
    if not isinstance(call, ast.Call):
        return None
    names, node = [], call.func
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    scopes = (frame.f_locals, frame.f_globals, frame.f_builtins)
    value = next((scope[node.id] for scope in scopes if node.id in scope), None)
    for name in reversed(names):
        if not isinstance(value, types.ModuleType):
            return None  # an attribute of another object could run code (a property)
        value = getattr(value, name, None)
    return value


def _calls_builtin(exc: BaseException, name: str) -> bool:
    """The innermost frame of ``exc`` raised while calling Python's builtin ``name``."""
    callee = callee_at_raise(exc)
    return callee is not None and callee is getattr(builtins, name, None)


def _called_cond_builder(exc: BaseException) -> bool:
    """The user's line called tf.cond (or switch_case) and the error came out of it with its
    frames filtered away."""
    from . import _tf

    return "tensorflow" in sys.modules and _tf.is_cond_builder(callee_at_raise(exc))


def _state_tags(chain, messages, frames_by_exc, tags, user_raised: bool, first) -> set[str]:
    """The tags read from TensorFlow's and AutoGraph's state (the frames' locals and callers,
    the switches, op definitions, a pipeline's graphs), not from the text: each a proof of
    what TensorFlow did."""
    from . import _tf
    from ._operands import pipeline_py_function

    out = _graph_tensor_at_run_time(chain, messages)
    if "tf.data" in tags and _tf.functions_run_eagerly():
        out.add("eager-switch")  # the user asked for eager functions; tf.data ignores it
    if _tf.handle_refused_by_invariant(chain):
        out.add("handle-invariant")
    argument = _tf.refused_argument(chain)
    if argument is not None and (getattr(type(argument), "__module__", "") or "").split(".")[0] \
            in ("keras", "tf_keras"):
        out.add("keras-argument")  # a tf.function given a Keras object it cannot trace
    staged = _tf.staged_statement_output(chain)
    if staged is not None:
        out.add(f"{staged}-output")  # a variable a staged if / loop assigns is not a tensor
    if any("OperatorNotAllowedInGraphError" in class_names_of(e) for e in chain) and \
            _tf.library_caller(chain, is_user) is not None:
        out.add("library-callback")
    if _len_refused_tensor(chain, messages, frames_by_exc):
        out.add("len-of-tensor-length")
    if user_raised and any(frames_by_exc[id(e)] and _tf.raised_in_tensor_branch(frames_by_exc[id(e)][-1][0])
                           for e in chain):
        out.add("tensor-branch-raise")
    if "Detected unsupported operations" in messages[0][:4096]:
        kinds = _tf.xla_refused_op_kinds(messages[0])  # the ops XLA refused, by their definitions
        if kinds == {"python"} or kinds == {"string"}:
            out.add(f"xla-{next(iter(kinds))}-op")
    if first is not None and _scan_refused_state(chain[0], messages[0], first):
        out.add("scan-state")
    if first is not None and pipeline_py_function(chain[0], first) is not None:
        out.add("py-function")  # a dataset at the line lost its shape at a py_function
    return out


def _keras_step_reset(frames) -> bool:
    from . import _tf

    return _tf.reset_step_function(frames) is not None


def _frozen_draw_at(chain, location: Location, frames_by_exc) -> bool:
    """An op failed while the graph ran, at a line that reads a Python random or clock draw
    the trace froze into the graph (``_effects.frozen``)."""
    from . import _tf

    if not _tf.raised_running_graph(chain):
        return False
    from ._effects.frozen import frozen_draws  # reads the source: only for such errors
    try:
        return bool(frozen_draws(location.file, location.line, file_globals(frames_by_exc, location.file)))
    except Exception:  # noqa: BLE001 - an unreadable source proves nothing
        return False


def file_globals(frames_by_exc, file: str) -> dict | None:
    """The module namespace of a live frame running code of ``file`` (the caller of the
    failed tf.function call, for an error raised when its graph ran), else None."""
    for frames in frames_by_exc.values():
        for frame, _ in frames:
            if frame.f_code.co_filename == file:
                return frame.f_globals
    return None


def names_graph_tensor_class(text: str) -> bool:
    """Python's own message names a graph tensor's class, quoted or not (``not
    'SymbolicTensor'``, ``not SymbolicTensor``, ``'SymbolicTensor' object has no attribute``)."""
    from . import _tf

    return any(re.search(rf"(?<![\w.=]){re.escape(name)}\b(?!\()", text)
               for name in _tf.symbolic_tensor_type_names())


def refused_in_keras(chain, frames_by_exc=None) -> bool:
    """Python itself refused a graph tensor inside Keras' own code: a TypeError naming the
    tensor's class, raised while the innermost frame (the frames Keras' and TensorFlow's
    traceback filters dropped put back) of a Keras file was calling a builtin (``int(dim)``)."""
    for exc in chain:
        frames = ((frames_by_exc or {}).get(id(exc)) or tb_frames(exc)) if isinstance(exc, TypeError) else ()
        if frames and library_module(frames[-1][0].f_code.co_filename).startswith(("keras/", "tf_keras/")) \
                and _calling(frames[-1][0]) and names_graph_tensor_class(safe_str(exc)[-8192:]):
            return True
    return False


def _calling(frame) -> bool:
    """``frame`` (done) stopped at a call: what raised was the callee, native code here."""
    code = frame.f_code.co_code
    lasti = _settled(code, frame.f_lasti)
    return lasti is not None and dis.opname[code[lasti]].startswith("CALL")


def _callee_tags(exc: BaseException, chain, messages, frames_by_exc, tags, location) -> set[str]:
    """Tags of the API the user's line called, read from TensorFlow's and the frame's state:
    ``keras-static-argument`` when Python refused a graph tensor inside the Keras object the
    line calls (outside tf.data, whose functions are always traced: data-pipeline there);
    ``next-default-unused`` when the tf.data get-next op Python's ``next(iterator, default)``
    at the line made ran past the end in a tf.function while AutoGraph leaves ``next`` to
    Python (the default is never used in the graph)."""
    from . import _tf

    out = set()
    if location is not None and "tf.data" not in tags and refused_in_keras(chain, frames_by_exc):
        from ._operands import calls_keras, user_frame
        try:
            if calls_keras(user_frame(exc, location.file, location.line), location.file, location.line):
                out.add("keras-static-argument")
        except Exception:  # noqa: BLE001 - an unreadable frame proves nothing
            pass
    if any("OutOfRangeError" in class_names_of(e) for e in chain):
        made = _tf.iterator_next_past_end(chain, is_user)
        if made is not None and _calls_next_with_default(made[0], made[1]) and _tf.next_left_to_python():
            out.add("next-default-unused")
    return out


def _calls_next_with_default(file: str, line: int) -> bool:
    """The statement at ``file:line`` calls Python's builtin ``next`` with a default, and with
    none elsewhere on the line (``next`` not rebound in the file)."""
    tree = module_tree(file)
    stmt = statement_at(tree, line) if tree is not None else None
    if stmt is None or any(_binds_next(node) for node in ast.walk(tree)):
        return False
    calls = [node for node in line_nodes(stmt, line) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id == "next"]
    return bool(calls) and all(len(c.args) == 2 and not c.keywords
                               and not any(isinstance(a, ast.Starred) for a in c.args) for c in calls)


def _binds_next(node: ast.AST) -> bool:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == "next"
    if isinstance(node, ast.Name):
        return node.id == "next" and not isinstance(node.ctx, ast.Load)
    if isinstance(node, ast.arg):
        return node.arg == "next"
    return "next" in import_bindings(node)


def quoted_tensor_names(messages, text) -> set[str]:
    """The names of the graph tensors whose formatted text (``text``: the pattern of
    ``Tensor("value:0", shape=...``) the messages quote."""
    if text is None:
        return set()
    return {name for m in messages for quoted in text.findall(m[-200_000:])
            for name in re.findall(r'"([^"\s]+:\d+)"', quoted)}


def _frame_tags(exc: BaseException, chain, messages, location: Location) -> set[str]:
    """Tags read from the user's frame at ``location`` (its values, not only its text):
    ``formats-graph-tensor`` when a message quotes the text Python formatting makes of a
    graph tensor and the line formats one into a string (a scope name, a path, a dict key
    built from the placeholder while tracing); ``in-graph-tensor`` when Python refused to
    search a graph tensor the line tests membership in (``"lm" in t``); ``per-replica-value``
    when a message names the class of a per-replica value a name at the line holds (the
    replicas' values used where one value is needed, outside ``strategy.run``)."""
    if "tensorflow" not in sys.modules:
        return set()
    from . import _tf

    text = _tf.symbolic_tensor_text() if any('("' in m for m in messages) else None
    quoted = text is not None and any(text.search(m[-200_000:]) for m in messages)
    refused = any(isinstance(e, TypeError) and "not iterable" in m[-2000:] for e, m in zip(chain, messages))
    distributed = "tensorflow.python.distribute.values" in sys.modules and any(
        name in m[-200_000:] for name in _tf.per_replica_type_names() for m in messages)
    if not (quoted or refused or distributed):
        return set()
    from ._operands import (formats_graph_tensor, formatted_before, per_replica_names,
                            searches_graph_tensor, user_frame)  # reads the frame

    out = set()
    try:
        frame = user_frame(exc, location.file, location.line)
        if quoted and (formats_graph_tensor(frame, location.file, location.line) or formatted_before(
                frame, location.file, location.line, quoted_tensor_names(messages, text)) is not None):
            out.add("formats-graph-tensor")
        if refused and searches_graph_tensor(frame, location.file, location.line):
            out.add("in-graph-tensor")
        if distributed and any(re.search(rf"\b{name}\b", m[-200_000:])
                               for name in per_replica_names(frame, location.file, location.line)
                               for m in messages):
            out.add("per-replica-value")
    except Exception:  # noqa: BLE001 - an unreadable frame proves nothing
        pass
    return out


def _shape_indexes_known(exc: BaseException, location: Location) -> bool:
    from ._operands import shape_indexes_known  # reads the user's frame: only when needed
    try:
        return shape_indexes_known(exc, location)
    except Exception:  # noqa: BLE001 - an unreadable frame proves nothing
        return False


def _files_of(locations) -> list[str]:
    files = []
    for locs in locations:
        for loc in locs:
            if loc.file not in files:
                files.append(loc.file)
    return files


def user_files(extracted: Extracted) -> list[str]:
    """The user files of ``extracted``'s locations, in the order they are first named."""
    return _files_of(extracted.locations)


# -- where TensorFlow raised it ------------------------------------------------------------

_LIBRARIES = ("tensorflow", "keras", "tf_keras")


def library_module(filename) -> str:
    """``tensorflow/python/ops/cond_v2.py`` for a file of TensorFlow or Keras, else ""."""
    if not isinstance(filename, str):
        return ""
    parts = filename.replace(os.sep, "/").split("/")
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] in _LIBRARIES and (index == 0 or parts[index - 1] in ("site-packages", "dist-packages")):
            return "/".join(parts[index:])
    return ""


def _library_involved(chain, frames_by_exc) -> bool:
    for exc in chain:
        if getattr(exc, "ag_error_metadata", None) is not None:
            return True
        if any(str(getattr(c, "__module__", "")).split(".")[0] in _LIBRARIES for c in type(exc).__mro__):
            return True
        if any(library_module(f.f_code.co_filename) for f, _ in frames_by_exc.get(id(exc), ())):
            return True
    return False


def _raise_site(chain, frames_by_exc) -> tuple[RaiseSite | None, bool]:
    """(TensorFlow's raise site, whether the user's own ``raise`` raised it), deepest first.

    AutoGraph keeps the frames inside the converted call innermost first in
    ``ag_error_metadata.translated_stack`` (user frames already mapped back to the source);
    other errors carry their raise site in their own traceback.
    """
    for exc in reversed(chain):
        innermost = []
        stack = getattr(getattr(exc, "ag_error_metadata", None), "translated_stack", None) or ()
        for fs in list(stack)[:1]:
            innermost.append((getattr(fs, "filename", None), getattr(fs, "lineno", None),
                              str(getattr(fs, "function_name", "") or "")))
        frames = frames_by_exc.get(id(exc), ())
        if frames:
            frame, lineno = frames[-1]
            innermost.append((frame.f_code.co_filename, lineno, frame.f_code.co_name))
        for filename, lineno, name in innermost:
            if not isinstance(filename, str) or not isinstance(lineno, int):
                continue
            module = library_module(filename)
            if module:
                return RaiseSite(filename, lineno, name, module), False
            if is_user(filename):
                return None, _is_raise_statement(filename, lineno)
    return None, False


def _is_raise_statement(filename: str, line: int) -> bool:
    tree = module_tree(filename)
    stmt = statement_at(tree, line) if tree is not None else None
    return isinstance(stmt, (ast.Raise, ast.Assert))



def keras_call_tf_function(frames, chain=()):
    """(file, line, name) of a Keras layer's ``call`` wrapped in @tf.function, or None: a live
    layer of the innermost user frame, or a tf.function a call in ``chain`` (else ``frames``)
    ran (TensorFlow's frames hold it) when it is the ``call`` its class defines."""
    if "keras" not in sys.modules:
        return None
    for frame, _ in reversed(frames):
        if not is_user(frame.f_code.co_filename):
            continue
        values = list(frame.f_locals.values())[:500] + list(frame.f_globals.values())[:500]
        for value in values:
            found = _tf_function_call(type(value))
            if found is not None:
                return found
        break
    from . import _tf

    chained = [f for exc in chain for f in tb_frames(exc)] if chain else frames
    for function in _tf.called_tf_functions(chained):
        # a method's tf.function, bound to its instance, wraps the method: unwrapped here
        python_function = inspect.unwrap(getattr(function, "python_function", None) or (lambda: None))
        code = getattr(python_function, "__code__", None)
        found = _tf_function_call(_defining_class(python_function))
        if found is not None and (found.file, found.line) == (code.co_filename, code.co_firstlineno):
            return found  # the call that ran is the decorated ``call`` itself
    return None


def _defining_class(fn):
    """The class a method named ``Class.method`` at module level was defined in (its module's
    binding of ``Class``), else None."""
    parts = (getattr(fn, "__qualname__", "") or "").split(".")
    if len(parts) != 2:
        return None
    owner = (getattr(fn, "__globals__", None) or {}).get(parts[0])
    return owner if isinstance(owner, type) else None


def _tf_function_call(cls) -> Location | None:
    """Where the user's ``call`` of Keras layer class ``cls`` is defined, when
    ``@tf.function`` wraps it; else None."""
    from . import _tf

    if not isinstance(cls, type) or not any(
            c.__module__.startswith("keras") and c.__name__ == "Layer" for c in cls.__mro__):
        return None
    call = next((c.__dict__["call"] for c in cls.__mro__ if "call" in c.__dict__), None)
    if call is not None and _tf.is_tf_function(call):
        fn = getattr(call, "python_function", None)
        code = getattr(fn, "__code__", None)
        if code is not None and is_user(code.co_filename):
            return Location(code.co_filename, code.co_firstlineno, f"{cls.__name__}.call")
    return None


