"""The recipes: tfdebug's one source of knowledge (DESIGN principle 5).

Each recipe is a TOML file in the top-level ``recipes/`` folder, shipped in the wheel as the
package data ``tfdebug.recipes``. (This loader is ``recipebook`` because the data package
owns the name ``tfdebug.recipes``.) Loading is lenient: a broken file is skipped with a
warning naming the file and the key. ``validate()`` is the strict check the tests run.

Example::

    from tfdebug import recipebook
    recipe = recipebook.get("TFD101")
    print(recipe.category, recipe.title)
"""
from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import pathlib
import re
import tomllib
import warnings

CATEGORIES = (
    "tensor-as-bool", "tensor-iteration", "out-of-scope-tensor", "unhashable-tensor",
    "unknown-length", "unsupported-syntax", "autograph-conversion", "variable-creation",
    "retracing", "trace-time-side-effect", "stale-capture", "numpy-in-graph",
    "loop-var-shape", "branch-mismatch", "string-format", "unknown-shape", "dtype-mismatch",
    "keras-training-flag", "keras-misuse", "data-pipeline", "distribute",
)

REQUIRED = ("id", "category", "title", "cause", "fix")
OPTIONAL = ("errors", "messages", "before", "after", "docs", "when", "blame")
ID_PATTERN = re.compile(r"TFD\d{3}")

# ``when``: facts about where an error happened, all of which must hold for the recipe to
# apply (diagnose.py computes them from the traceback and the offending source).
TAGS = (
    "tf.data",                 # raised while tf.data traced a map/filter function
    "keras-call",              # raised inside a Keras layer/model/loss/metric call
    "no-source",               # the offending function's source is not readable (exec, REPL)
    "assert",                  # the offending line is an `assert` statement
    "in-list",                 # ... tests `x in [...]` / `x not in (...)`
    "enumerate",               # ... calls enumerate() or zip()
    "comprehension",           # ... holds a list/set/dict comprehension or generator expression
    "shape-index",             # ... indexes a static shape: `x.shape[i]`
    "try-body",                # ... sits in the body of a `try` statement
    "loop-carried",            # ... updates, inside a loop, a variable set before the loop
    "keras-constructor",       # ... constructs (or calls a local just made by) a Keras layer
    "keras-loop",              # ... calls Keras' fit/evaluate/predict/*_on_batch
    "append-in-loop",          # the offending function appends to a list inside a loop
    "set-seed",                # the offending function calls tf.random.set_seed
    "py-function",             # the user's code calls tf.py_function / tf.numpy_function
    "keras-call-tf-function",  # a live Keras layer/model has @tf.function on its `call`
    "tf.cond",                 # raised inside TensorFlow's own tf.cond construction code
    "leaked-tensor",           # a tf.function graph's tensor refused where no graph is built
)
# ``blame``: where the cause is when TensorFlow points at the symptom (diagnose.py's locators).
LOCATORS = ("append-in-loop", "set-seed", "yield", "py-function", "keras-call-tf-function",
            "string-format", "keras-constructor", "return-value", "shape-binding",
            "generator-yield", "escape-store")

# Message regexes see a bounded window (head and tail) of the message, so a 10 MB message
# costs what a short one does; AutoGraph and Keras put the useful text near either end.
MESSAGE_WINDOW = 8192
MESSAGE_TAIL = 4096


def message_window(message: str) -> str:
    """The part of ``message`` regexes look at: all of it when short, else head and tail."""
    if len(message) <= MESSAGE_WINDOW + MESSAGE_TAIL:
        return message
    return message[:MESSAGE_WINDOW] + "\n" + message[-MESSAGE_TAIL:]


class RecipeError(ValueError):
    """A recipe file is malformed; the message names the file and the key."""


@dataclasses.dataclass(frozen=True)
class Recipe:
    id: str
    category: str
    title: str
    cause: str
    fix: str
    errors: tuple[str, ...] = ()
    messages: tuple[re.Pattern, ...] = ()
    before: str = ""
    after: str = ""
    docs: str = ""
    when: tuple[str, ...] = ()
    blame: str = ""
    source: str = ""  # the file it came from

    def matches_error(self, class_names) -> bool:
        """True when any of the exception's class names (MRO) is one of ``errors``."""
        return bool(set(self.errors) & set(class_names))

    def matches_message(self, message: str) -> bool:
        window = message_window(message)
        return any(p.search(window) for p in self.messages)

    def applies(self, tags) -> bool:
        """True when every ``when`` tag is among ``tags``."""
        return set(self.when) <= set(tags)


def parse(text: str, source: str = "<string>") -> Recipe:
    """Parse and check one recipe; raise RecipeError naming ``source`` and the key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"{source}: not valid TOML: {exc}") from None
    for key in REQUIRED:
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise RecipeError(f"{source}: key {key!r} is missing or not a non-empty string")
    unknown = set(data) - set(REQUIRED) - set(OPTIONAL)
    if unknown:
        raise RecipeError(f"{source}: unknown key(s) {', '.join(sorted(unknown))}")
    if not ID_PATTERN.fullmatch(data["id"]):
        raise RecipeError(f"{source}: key 'id' must look like TFD123, got {data['id']!r}")
    if data["category"] not in CATEGORIES:
        raise RecipeError(f"{source}: key 'category' {data['category']!r} is not one of "
                          f"the DESIGN.md categories")
    for key in ("errors", "messages", "when"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RecipeError(f"{source}: key {key!r} must be a list of strings")
    for key in ("before", "after", "docs", "blame"):
        if not isinstance(data.get(key, ""), str):
            raise RecipeError(f"{source}: key {key!r} must be a string")
    unknown_tags = set(data.get("when", [])) - set(TAGS)
    if unknown_tags:
        raise RecipeError(f"{source}: key 'when' has unknown tag(s) {', '.join(sorted(unknown_tags))}; "
                          f"known: {', '.join(TAGS)}")
    if data.get("blame") and data["blame"] not in LOCATORS:
        raise RecipeError(f"{source}: key 'blame' {data['blame']!r} is not one of {', '.join(LOCATORS)}")
    messages = []
    for pattern in data.get("messages", []):
        try:
            messages.append(re.compile(pattern))
        except re.error as exc:
            raise RecipeError(f"{source}: key 'messages' has a bad regex {pattern!r}: {exc}") from None
    return Recipe(
        id=data["id"], category=data["category"], title=data["title"].strip(),
        cause=data["cause"].strip(), fix=data["fix"].strip(),
        errors=tuple(data.get("errors", [])), messages=tuple(messages),
        before=data.get("before", ""), after=data.get("after", ""), docs=data.get("docs", ""),
        when=tuple(data.get("when", [])), blame=data.get("blame", ""), source=source)


def _files(folder=None):
    folder = importlib.resources.files("tfdebug.recipes") if folder is None else pathlib.Path(folder)
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)


@functools.lru_cache(maxsize=4)
def load(folder: str | None = None) -> tuple[Recipe, ...]:
    """All recipes (of the shipped folder, or of ``folder``), in id order.

    Broken files are skipped with a warning naming the file and the key.
    """
    recipes, seen = [], set()
    for file in _files(folder):
        try:
            recipe = parse(file.read_text(encoding="utf-8"), file.name)
        except RecipeError as exc:
            warnings.warn(f"tfdebug: skipping recipe {exc}", RuntimeWarning, stacklevel=2)
            continue
        except (UnicodeDecodeError, OSError) as exc:
            warnings.warn(f"tfdebug: skipping recipe {file.name}: cannot read it as UTF-8 "
                          f"text ({exc})", RuntimeWarning, stacklevel=2)
            continue
        if recipe.id in seen:
            warnings.warn(f"tfdebug: skipping recipe {file.name}: key 'id' {recipe.id} is "
                          f"already used", RuntimeWarning, stacklevel=2)
            continue
        seen.add(recipe.id)
        recipes.append(recipe)
    return tuple(sorted(recipes, key=lambda r: r.id))


def validate(folder: str | None = None) -> list[Recipe]:
    """Strict: parse every file, raising RecipeError on the first problem (tests use it)."""
    recipes, seen = [], {}
    for file in _files(folder):
        recipe = parse(file.read_text(encoding="utf-8"), file.name)
        if recipe.id in seen:
            raise RecipeError(f"{file.name}: key 'id' {recipe.id} is already used by {seen[recipe.id]}")
        seen[recipe.id] = file.name
        recipes.append(recipe)
    return recipes


def get(recipe_id: str) -> Recipe:
    """The recipe with this id; KeyError with the known ids' range when there is none."""
    for recipe in load():
        if recipe.id == recipe_id:
            return recipe
    raise KeyError(f"no recipe {recipe_id!r}; `tfdebug recipes` lists them")


def by_category(category: str) -> list[Recipe]:
    if category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; one of: {', '.join(CATEGORIES)}")
    return [r for r in load() if r.category == category]


def match(class_names, message: str, tags=None) -> list[Recipe]:
    """Recipes whose ``errors`` name one of ``class_names``, best first.

    A recipe with ``messages`` needs one of its regexes to hit ``message``; with ``tags``
    given, a recipe's ``when`` tags must all be among them. Ranking: message matches before
    class-only ones, then the most specific (most ``when`` tags) first. With ``tags=None``
    (only the text is known, as in ``tfdebug explain "<error text>"``) ``when`` is not
    checked and general recipes come first.

    Example::

        match(["OperatorNotAllowedInGraphError", "TypeError"],
              "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed.")[0].id
    """
    names = set(class_names)
    ranked = []
    for order, recipe in enumerate(load()):
        if not recipe.matches_error(names):
            continue
        if recipe.messages and not recipe.matches_message(message):
            continue
        if tags is not None and not recipe.applies(tags):
            continue
        specificity = len(recipe.when) if tags is not None else -len(recipe.when)
        ranked.append((not recipe.messages, -specificity, order, recipe))
    return [entry[-1] for entry in sorted(ranked, key=lambda e: e[:3])]


_ERROR_NAME = re.compile(r"\b([A-Z]\w*(?:Error|Exception))\b")


def search(text: str) -> list[Recipe]:
    """Recipes for pasted error text, best first (``tfdebug explain "<error text>"``).

    Message regexes decide; an exception class named in the text ranks its recipes first.
    With no message hit, only recipes that match by class alone (no ``messages``, as
    :func:`match` treats them) come back: a recipe whose messages all missed does not
    explain this text, whatever class it lists.
    """
    window = message_window(text)
    named = set(_ERROR_NAME.findall(window))
    hits = [r for r in load() if r.messages and r.matches_message(window)]
    if hits:
        return sorted(hits, key=lambda r: (not (named & set(r.errors)), len(r.when), r.id))
    return sorted((r for r in load() if not r.messages and named & set(r.errors)),
                  key=lambda r: (len(r.when), r.id))
