"""Exception -> :class:`Diagnosis`: what went wrong, and which *user* line is at fault.

Two pure steps, as rich's traceback does it: :func:`extract` (``_extract``) reads what
TensorFlow left on the exception into plain data; :func:`diagnose` matches it in layers,
most specific first:

(a) the message family: a recipe whose ``errors`` and ``messages`` fit (``recipes/``);
(b) the exception class and the construct at the blamed user line: the linter's analysis
    of that line (``tfdebug lint``: one analysis, two users) names a pitfall whose recipe
    lists this class;
(c) a generic diagnosis for any other failure TensorFlow or Keras took part in: the user
    line, the category where TensorFlow's raise site or the class tells it, TensorFlow's
    message and where to read more. It claims no recipe and no fix (``generic``).

Where TensorFlow blames the symptom, the blame moves to the cause: a recipe's ``blame``
locator, the assignment of the variable TensorFlow's message names, or the construct that
built the control-flow node a run-time error names (``_locate``).

Nothing here raises: an internal failure gives ``None`` and a DEBUG log record.

Example::

    try:
        train_step(x, y)
    except Exception as exc:
        d = tfdebug.diagnose(exc)
        if d:
            print(d.category, d.recipe.id if d.recipe else "generic", d.file, d.line)
"""
from __future__ import annotations

import ast
import dataclasses
import functools
import linecache
import logging

from . import _frames, _tf, recipebook
from ._extract import (Extracted, Location, chain_of, extract, is_user, library_module,  # noqa: F401
                       safe_str, short_message, tb_frames)
from ._generic import generic_category, generic_docs
from ._locate import LOCATORS as _LOCATORS
from ._locate import cause_of_named, construct_of_node
from ._quit import is_quit
from ._source import dotted_tail, line_nodes, module_tree, source_index, statement_at
from .report import Finding

log = logging.getLogger("tfdebug")

__all__ = ["Diagnosis", "Extracted", "Location", "diagnose", "extract", "safe_str"]

_chain = chain_of  # the name older callers import
# AutoGraph conversion failures explain the symptom that follows them (code run unconverted).
_CONVERSION_ERRORS = {"ConversionError", "UnsupportedLanguageElementError", "AutoGraphError"}
_NEEDS_NO_LOCATION = ("py-function", "keras-call-tf-function")


@dataclasses.dataclass(frozen=True, repr=False)
class Diagnosis:
    """An exception explained at one user line: by a recipe, or generically (``recipe`` None).

    ``layer`` says how it was found: "message" (the recipe's message family), "construct"
    (the class and the pitfall the linter sees at the line) or "generic". ``symptom`` is the
    line TensorFlow named when the blame moved to the cause.
    """

    recipe: recipebook.Recipe | None
    file: str | None
    line: int | None
    function: str | None
    code: str
    context: tuple[tuple[int, str], ...]
    message: str
    error: str  # the exception's class name
    category: str | None = None
    layer: str = "message"
    symptom: Location | None = None
    docs: str = ""
    autograph: str = ""  # AutoGraph's own reason when it ran the function as-is
    shapes: tuple[str, ...] = ()  # the line's operands of unknown static shape (shape categories)

    def __post_init__(self):
        if self.category is None and self.recipe is not None:
            object.__setattr__(self, "category", self.recipe.category)

    @property
    def generic(self) -> bool:
        """True when no recipe applies: the diagnosis names no cause and no fix."""
        return self.recipe is None

    def finding(self) -> Finding:
        """The report entry (severity "error") for ``tfdebug run --report``."""
        message = f"{self.error}: {self.message}" if self.message else self.error
        if self.recipe is not None:
            return Finding.at(self.recipe, "error", self.file, self.line, self.function, message=message)
        return Finding.generic_at(self.category, self.file, self.line, self.function, message)

    def __repr__(self) -> str:
        """One line: ``<Diagnosis TFD101 tensor-as-bool at train.py:14 in train_step>``."""
        from .render import display_path

        what = self.recipe.id if self.recipe is not None else "generic"
        where = f" at {display_path(self.file)}:{self.line}" if self.file else ""
        return f"<Diagnosis {what} {self.category}{where}" + \
            (f" in {self.function}>" if self.function and where else ">")

    def __str__(self) -> str:
        """The diagnosis as tfdebug prints it (title, marked source line, cause, fix)."""
        return self.note()

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(repr(self) if cycle else str(self))

    def note(self) -> str:
        """The plain-text diagnosis added to the exception as a PEP 678 note."""
        from . import render
        return render.diagnosis_text(self, color=False)

    def _repr_html_(self) -> str:
        """Jupyter shows the diagnosis rendered (recipe, marked source line, cause, fix)."""
        from . import html_report
        return html_report.diagnosis_html(self)


# -- layer (b): the construct at the line, as the linter sees it ---------------------------

def _construct_recipe(class_names, location: Location | None):
    """The recipe of a pitfall the linter finds at ``location`` that raises this class."""
    checks = _lint_checks_citing(tuple(class_names)) if location is not None else None
    if not checks:
        return None
    from .lint.driver import findings_at  # the linter's own analysis (no second copy of its rules)

    # only the checks whose finding could name this class run (and only their modules load)
    for finding in findings_at(location.file, location.line, enabled=checks):
        code = getattr(finding, "code", "")
        if not isinstance(code, str) or not code.startswith("TFD"):
            continue
        try:
            recipe = recipebook.get(code)
        except KeyError:
            continue
        if recipe.matches_error(class_names):
            return recipe
    return None


@functools.lru_cache(maxsize=64)
def _lint_checks_citing(class_names: tuple) -> frozenset:
    """The linter's checks (its check table: the only codes it reports) whose recipe names
    one of these exception classes. When none does, no finding can explain the error and
    the linter is neither imported nor run."""
    from .lint.codes import CHECKS

    naming = {recipe.id for name in class_names for recipe in recipebook.naming_error(name)}
    return frozenset(check for check, (recipe_id, _) in CHECKS.items() if recipe_id in naming)


# -- matching ----------------------------------------------------------------------------

# Categories that blame a static shape unknown while tracing: claimed only when the line's
# operands do not prove every shape there known.
_STATIC_SHAPE = ("unknown-shape", "unknown-length")


def _choose(extracted: Extracted):
    """(index in the chain, recipe): the root cause's recipe, else the exception's own."""
    matches, known = [], None
    for index, (names, message) in enumerate(zip(extracted.class_names, extracted.messages)):
        found = recipebook.match(names, message, extracted.tags)
        if found and index > 0 and found[0].category in _SYMPTOMS \
                and _refused_for_library(extracted.chain[index]):
            continue  # TensorFlow's own code tried the tensor as a bool/iterable and moved on
        if found and found[0].category in _STATIC_SHAPE and not _refuses_any_shape(extracted):
            known = _operands_known(extracted) if known is None else known
            found = [r for r in found if r.category not in _STATIC_SHAPE] if known else found
        if found:
            matches.append((index, found[0], names))
    for index, recipe, names in matches:
        if index > 0 and _CONVERSION_ERRORS & set(names):
            return index, recipe
    if matches:
        proven = _proven_by_state(extracted, matches[0][1])
        if proven is not None:
            return matches[0][0], proven
    return (matches[0][0], matches[0][1]) if matches else (None, None)


# Facts read from the user's and TensorFlow's frames that prove the cause's category, whose
# recipe answers whatever the refusing code said: it replaces a recipe of another category
# chosen by the text alone (a per-replica batch given to a Keras layer is not a wrong
# positional argument; Keras' `predict` refusing a replica context inside a traced
# `train_step` is the call to `predict`); one of the same category keeps its own words.
# (A proving recipe with a message family, like TFD186's, already ranks first by its tag.)
_PROVEN = {"per-replica-value": "TFD609", "keras-static-argument": "TFD187",
           "keras-loop-in-trace": "TFD167"}


def _proven_by_state(extracted: Extracted, chosen):
    for tag, recipe_id in _PROVEN.items():
        if tag in extracted.tags:
            try:
                proven = recipebook.get(recipe_id)
            except KeyError:
                return None
            return proven if proven.category != chosen.category else None
    return None


# Frames between the refusing tensor and the code that asked it: wrappers, not askers.
_PASSING_MODULES = ("tensorflow/python/framework/tensor.py", "tensorflow/python/util/")


def _refused_for_library(exc: BaseException) -> bool:
    """A symbolic tensor refused to be a bool or iterated for TensorFlow's or Keras' own
    code (``TensorShape(t)`` tries ``iter(t)`` and falls back), not for the user's code or
    AutoGraph's operators that run it: an exception inside the chain that is not the cause."""
    modules = [library_module(frame.f_code.co_filename) for frame, _ in tb_frames(exc)]
    refusal = max((i for i, m in enumerate(modules) if m == _PASSING_MODULES[0]), default=None)
    if refusal is None:
        return False
    for module in reversed(modules[:refusal]):
        if module.startswith(_PASSING_MODULES):
            continue
        return bool(module) and not module.startswith("tensorflow/python/autograph/")
    return False


# Raise sites that refuse a graph tensor whatever its static shape (read from their source:
# ``Tensor.__len__`` raises for every symbolic tensor, known length or not): the operands'
# shapes cannot veto the recipe there.
_SHAPE_BLIND_SITES = (("tensorflow/python/framework/tensor.py", "__len__"),)


def _refuses_any_shape(extracted: Extracted) -> bool:
    """The refusal does not depend on a static shape: ``Tensor.__len__`` refusing any graph
    tensor, or Python's ``len()`` refusing the tensor a ``__len__`` returned."""
    site = extracted.raise_site
    return (site is not None and (site.module, site.function) in _SHAPE_BLIND_SITES) \
        or "len-of-tensor-length" in extracted.tags


def _operands_known(extracted: Extracted) -> bool:
    """True when the failing op sits at the user's line (no Keras layer in between) and every
    tensor and shape the line names has a fully known static shape in the user's frame."""
    location = _first_location(extracted, None)
    if location is None or "keras-call" in extracted.tags or not extracted.chain:
        return False
    from ._operands import is_unknown, line_shapes, user_frame

    frame = user_frame(extracted.chain[0], location.file, location.line)
    shapes = line_shapes(frame, location.file, location.line)
    return bool(shapes) and not any(is_unknown(value) for _, value in shapes)


def diagnose(exc: BaseException) -> Diagnosis | None:
    """The diagnosis of ``exc``, or None when TensorFlow had no part in it (never raises).

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


def _first_location(extracted: Extracted, index: int | None) -> Location | None:
    locations = (extracted.locations[index] if index is not None else ()) or \
        next((locs for locs in extracted.locations if locs), ())
    return locations[0] if locations else None


def _diagnose(exc: BaseException) -> Diagnosis | None:
    if not isinstance(exc, BaseException) or isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
        return None
    if is_quit(exc) or any(_is_tfdebugs(e) for e in chain_of(exc)):
        return None  # the user quit a debugger; tfdebug's own errors explain themselves
    extracted = extract(exc)
    index, recipe = _choose(extracted)
    layer = "message"
    if recipe is None:
        if not extracted.graph or extracted.user_raised:
            return None  # the user's own error, or one TensorFlow had no part in
        location = _first_location(extracted, None)
        recipe, layer = _construct_recipe(extracted.class_names[0], location), "construct"
    if recipe is None:
        layer = "generic"
    location = _first_location(extracted, index)
    moved = None
    if recipe is not None and recipe.blame in _LOCATORS:
        moved = _run_locator(recipe.blame, extracted, location, exc)
    if moved is None:
        frames = tb_frames(exc)
        moved = cause_of_named(extracted, location, frames) or construct_of_node(extracted, location, frames)
    symptom = location if moved is not None and moved != location else None
    declined = _autograph_declined(extracted, recipe, location)
    autograph = ""
    if declined is not None:
        recipe, moved, autograph = declined
        symptom, layer = (location if moved is not None else None), "message"
    location = _readable(moved or location, extracted)
    file = location.file if location else None
    line = location.line if location else None
    category = recipe.category if recipe is not None else generic_category(extracted)
    shapes = _unknown_operands(exc, location) if category in _STATIC_SHAPE else ()
    return Diagnosis(
        recipe=recipe, file=file, line=line,
        function=location.function if location else None,
        code=_frames.source_line(file, line),
        context=tuple(_frames.source_context(file, line, around=1)),
        message=short_message(extracted.messages[0]),
        error=type(exc).__name__, category=category, layer=layer, symptom=symptom,
        docs=recipe.docs if recipe is not None else generic_docs(category), autograph=autograph,
        shapes=shapes)


def _unknown_operands(exc: BaseException, location: Location | None) -> tuple[str, ...]:
    if location is None:
        return ()
    from ._operands import unknown_operands
    try:
        return unknown_operands(exc, location)
    except Exception:  # noqa: BLE001 - an unreadable frame: the diagnosis without the facts
        log.debug("tfdebug: operands unreadable", exc_info=True)
        return ()


def _is_tfdebugs(exc: BaseException) -> bool:
    """An error tfdebug raises on purpose (``RetracingError``, the side-effect guard's): its
    message is already the diagnosis, cause and fix included."""
    return (getattr(type(exc), "__module__", "") or "").split(".")[0] == __name__.split(".")[0]


# -- AutoGraph ran the function as-is: the cause is its decision, not the symptom ------------

_SYMPTOMS = ("tensor-as-bool", "tensor-iteration")
# What AutoGraph's decline says, per kind: the recipe that explains it.
_DECLINE_RECIPES = {"construct": "TFD132", "error": "TFD132", "do-not-convert": "TFD133",
                    "library-call": "TFD124",
                    "never-converted": "TFD134", "no-source": "TFD131"}


def _autograph_declined(extracted: Extracted, recipe, location: Location | None):
    """(recipe, blamed location, AutoGraph's reason) when a tensor used as a bool or iterated
    in Python fails in a function AutoGraph ran as-is, at a construct it converts (so the
    decline is the cause); else None."""
    if recipe is None or location is None or \
            (recipe.category not in _SYMPTOMS and recipe.id not in _DECLINE_RECIPES.values()):
        return None
    if not _converts(location):
        # converted code would fail there too: the symptom is the diagnosis, not a
        # conversion error chained to it
        if recipe.id in _DECLINE_RECIPES.values():
            symptom = recipebook.match(extracted.class_names[0], extracted.messages[0], extracted.tags)
            if symptom and symptom[0].category in _SYMPTOMS:
                return symptom[0], None, ""
        return None
    found = _tf.declined_function(extracted.chain, is_user)
    decline = found[0] if found is not None else None
    if decline is None and "keras-call" not in extracted.tags:
        decline = _tf.library_caller(extracted.chain, is_user)
    if decline is None:
        # Keras calls the user's code without AutoGraph by design (its step is marked
        # do_not_convert): the symptom's recipe explains it; AutoGraph's side is the context
        keras = _tf.keras_caller(extracted.chain, is_user)
        return (recipe, None, keras.reason) if keras is not None else None
    # A recipe that knows AutoGraph's words (a lambda sharing its line) fits best.
    known = [r for r in recipebook.match(("UnsupportedLanguageElementError",), decline.reason)
             if r.category == "autograph-conversion"]
    try:
        chosen = known[0] if known else recipebook.get(_DECLINE_RECIPES[decline.kind])
    except KeyError:
        return None
    return chosen, _decline_location(decline, location), decline.reason


def _converts(location: Location) -> bool:
    """Does the statement at ``location`` hold a construct AutoGraph converts to graph ops
    (``if``/``while``/``for`` headers, ``assert``, ``and``/``or``/``not``, ``x if c else y``)?"""
    tree = module_tree(location.file)
    stmt = statement_at(tree, location.line) if tree is not None else None
    if stmt is None:
        return False
    if isinstance(stmt, (ast.If, ast.While, ast.For, ast.Assert)) and stmt.lineno == location.line:
        return True
    return any(isinstance(n, (ast.BoolOp, ast.IfExp)) or (isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not))
               for n in line_nodes(stmt, location.line))


def _decline_location(decline, symptom: Location) -> Location:
    """The construct AutoGraph refused; for a function the user excluded from conversion
    (``do_not_convert``), the construct of theirs that needed it (the symptom's line; the
    decorator is named in AutoGraph's reason); else the decorator that made it decline (an
    ``lru_cache``); else the ``def``."""
    function = decline.function
    if decline.construct_line:
        return Location(decline.file, decline.construct_line, function)
    if decline.kind in ("do-not-convert", "library-call"):
        return symptom
    tree = module_tree(decline.file)
    for node in (source_index(tree).functions if tree is not None else ()):
        if getattr(node, "name", None) != function or not \
                (node.lineno <= decline.line + 50 and (node.end_lineno or 0) >= decline.line):
            continue
        for deco in node.decorator_list:
            name = dotted_tail(getattr(deco, "func", deco))
            if name.rsplit(".", 1)[-1] in ("lru_cache", "cache") and \
                    decline.kind == "never-converted":
                return Location(decline.file, deco.lineno, function)
        return Location(decline.file, node.lineno, function)
    return Location(decline.file, decline.line, function)


def _readable(location: Location | None, extracted: Extracted) -> Location | None:
    """``location``, or when its source cannot be read (code made by ``exec``) the first user
    location of the error whose source can: the line the user can open."""
    if location is None or linecache.getlines(location.file):
        return location
    return next((loc for locs in extracted.locations for loc in locs if linecache.getlines(loc.file)),
                location)


def _run_locator(name: str, extracted: Extracted, location: Location | None, exc) -> Location | None:
    if location is None and name not in _NEEDS_NO_LOCATION:
        return None
    try:
        return _LOCATORS[name](extracted, location, tb_frames(exc))
    except Exception:  # noqa: BLE001 - keep TensorFlow's location
        log.debug("tfdebug: locator %s failed", name, exc_info=True)
        return None
