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
import json
import logging
import os
import pathlib
import re
import warnings

from ._categories import CATEGORIES  # noqa: F401 - recipebook.CATEGORIES, as before

REQUIRED = ("id", "category", "title", "cause", "fix")
OPTIONAL = ("errors", "messages", "before", "after", "docs", "when", "blame")
ID_PATTERN = re.compile(r"TFD\d{3}")
# The prebuilt index of the shipped recipes (tools/recipe_index.py writes it, a test checks it).
INDEX_NAME = "_index.json"
INDEX_FORMAT = 1
INDEXED_FIELDS = ("id", "category", "title", "cause", "fix", "errors", "patterns", "before",
                  "after", "docs", "when", "blame", "source")

log = logging.getLogger("tfdebug")

# ``when``: facts about where an error happened, all of which must hold for the recipe to
# apply (diagnosis.py computes them from the traceback and the offending source).
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
    "keras-loop-in-trace",     # ... called a Keras model's own loop, which failed, while a trace ran it
    "append-in-loop",          # the offending function appends to a list inside a loop
    "set-seed",                # the offending function calls tf.random.set_seed
    "py-function",             # the user's code calls tf.py_function / tf.numpy_function
    "keras-call-tf-function",  # a live Keras layer/model has @tf.function on its `call`
    "tf.cond",                 # raised inside TensorFlow's own tf.cond construction code
    "leaked-tensor",           # a tf.function graph's tensor refused where no graph is built
    "signature-shape",         # a loaded SavedModel function's every saved trace refused a shape
    "signature-dtype",         # ... every saved trace refused an argument's dtype
    "signature-value",         # ... every saved trace was made with another Python argument value
    "keras-return",            # a tf.function returned a Keras object (model, layer, optimizer)
    "len-of-tensor-length",    # Python's len() refused the graph tensor an object's __len__ returned
    "tensor-branch-raise",     # the user's `raise` ran in a branch of an `if` AutoGraph staged as tf.cond
    "py-func-graph-tensor",    # a Python function run by a graph op failed on a graph tensor it held
    "eager-switch",            # tf.config.run_functions_eagerly(True) is on: tf.data ignores it
    "library-callback",        # library code called the failing user function back inside converted code
    "handle-invariant",        # a TensorArray/TensorList loop variable was given a non-scalar shape invariant
    "formats-graph-tensor",    # the user's line formatted a graph tensor into a string the message quotes
    "if-output",               # a variable an `if` AutoGraph staged as tf.cond assigns is not a tensor
    "loop-output",             # a variable a loop AutoGraph staged as tf.while_loop assigns is not a tensor
    "keras-argument",          # a tf.function could not make a trace type of a Keras object argument
    "per-replica-value",       # the message names a per-replica value the user's line holds
    "in-graph-tensor",         # the user's line tests membership in a graph tensor (`a in t`)
    "frozen-draw",             # an op failed running the graph at a line reading a trace-time random/clock draw
    "keras-static-argument",   # Python refused a graph tensor inside the Keras API the user's line calls
    "next-default-unused",     # the get-next op `next(it, default)` made ran past the end in a tf.function
    "keras-step-reset",        # Keras' loop called its model's step function, which compile() had reset to None
    "xla-python-op",           # every op XLA refused to compile runs Python (tf.py_function, tf.numpy_function)
    "xla-string-op",           # every op XLA refused to compile takes or makes strings (tf.strings, tf.print)
    "scan-state",              # tf.scan's loop body refused the state the user's function returned
)
# ``blame``: where the cause is when TensorFlow points at the symptom (diagnosis.py's locators).
LOCATORS = ("append-in-loop", "variable-initializer", "cast-binding", "set-seed", "yield", "py-function", "keras-call-tf-function",
            "string-format", "keras-constructor", "return-value", "shape-binding",
            "generator-yield", "escape-store", "shape-invariants", "frozen-draw", "keras-step-reset", "tensor-format", "unknown-dataset",
            "replica-call")

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
    patterns: tuple[str, ...] = ()  # the ``messages`` regexes' text, compiled on first use
    before: str = ""
    after: str = ""
    docs: str = ""
    when: tuple[str, ...] = ()
    blame: str = ""
    source: str = ""  # the file it came from
    # per regex, texts one of which each of its matches contains ("": none known); the
    # prebuilt index has them from the regex's parse tree, else the leading literal text
    literals: tuple[tuple[str, ...], ...] = dataclasses.field(default=(), compare=False, repr=False)

    @functools.cached_property
    def messages(self) -> tuple[re.Pattern, ...]:
        """The compiled ``messages`` regexes (only recipes a diagnosis reaches compile them;
        a bad one, which ``validate()`` rejects, is skipped with a warning)."""
        compiled = []
        for pattern in self.patterns:
            try:
                compiled.append(re.compile(pattern))
            except re.error as exc:
                warnings.warn(f"tfdebug: recipe {self.source}: key 'messages' has a bad regex "
                              f"{pattern!r} ({exc}); skipped", RuntimeWarning, stacklevel=2)
        return tuple(compiled)

    def matches_error(self, class_names) -> bool:
        """True when any of the exception's class names (MRO) is one of ``errors``."""
        return bool(set(self.errors) & set(class_names))

    def matches_message(self, message: str) -> bool:
        """True when one of the ``messages`` regexes hits the message's window; only the
        regexes whose required text is in the window are compiled and tried."""
        window = message_window(message)
        literals = self.literals or tuple((_literal_of(p),) for p in self.patterns)
        for pattern, texts in zip(self.patterns, literals):
            if any(text in window for text in texts):
                compiled = _compiled(pattern, self.source)
                if compiled is not None and compiled.search(window):
                    return True
        return False

    @functools.cached_property
    def _unquoted(self) -> tuple[re.Pattern, ...]:
        """The ``messages`` regexes with TensorFlow's backticks optional: pasted text often
        lost them (a rendered page, a chat message)."""
        return tuple(re.compile(p.pattern.replace("`", "`?"), p.flags) for p in self.messages)

    def matches_text(self, text: str) -> bool:
        """:meth:`matches_message` for pasted text, with or without TensorFlow's backticks."""
        if self.matches_message(text):
            return True
        window = message_window(text)
        return "`" not in window and any(p.search(window) for p in self._unquoted)

    def applies(self, tags) -> bool:
        """True when every ``when`` tag is among ``tags``."""
        return set(self.when) <= set(tags)


@functools.lru_cache(maxsize=None)
def _compiled(pattern: str, source: str) -> re.Pattern | None:
    """``pattern`` compiled once; None (warned) when it is not a regex."""
    try:
        return re.compile(pattern)
    except re.error as exc:
        warnings.warn(f"tfdebug: recipe {source}: key 'messages' has a bad regex "
                      f"{pattern!r} ({exc}); skipped", RuntimeWarning, stacklevel=3)
        return None


_SPECIAL = frozenset(".^$*+?{}[]\\|()")


@functools.lru_cache(maxsize=1024)
def _literal_of(pattern: str) -> str:
    """Text every match of ``pattern`` contains: its leading literal characters ("" when
    none can be proven: an alternation, an inline flag, a quantified first character...)."""
    if "|" in pattern:
        return ""
    end = 0
    while end < len(pattern) and pattern[end] not in _SPECIAL:
        end += 1
    if end < len(pattern) and pattern[end] in "*?{":
        end -= 1  # the last character is optional or repeated
    return pattern[:max(end, 0)]


def parse(text: str, source: str = "<string>", strict: bool = True) -> Recipe:
    """Parse and check one recipe; raise RecipeError naming ``source`` and the key.

    ``strict=False`` leaves the regexes uncompiled (checked when first used).
    """
    import tomllib  # only recipes read from TOML files (the shipped ones come indexed)

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
    for pattern in data.get("messages", []) if strict else ():
        try:
            re.compile(pattern)
        except re.error as exc:
            raise RecipeError(f"{source}: key 'messages' has a bad regex {pattern!r}: {exc}") from None
    return Recipe(
        id=data["id"], category=data["category"], title=data["title"].strip(),
        cause=data["cause"].strip(), fix=data["fix"].strip(),
        errors=tuple(data.get("errors", [])), patterns=tuple(data.get("messages", [])),
        before=data.get("before", ""), after=data.get("after", ""), docs=data.get("docs", ""),
        when=tuple(data.get("when", [])), blame=data.get("blame", ""), source=source)


# every quoted word, quotes matched, overlapping ones included (a lookahead consumes nothing)
_QUOTED_WORD = re.compile(r"""(?=(["'])([A-Za-z_][\w.-]*)\1)""")


def _files(folder=None):
    folder = importlib.resources.files("tfdebug.recipes") if folder is None else pathlib.Path(folder)
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)


@functools.lru_cache(maxsize=4)
def load(folder: str | None = None) -> tuple[Recipe, ...]:
    """All recipes (of the shipped folder, or of ``folder``), in id order.

    Broken files are skipped with a warning naming the file and the key.
    """
    book = _book() if folder is None else _Book(folder)
    if isinstance(book, _Index):
        return book.recipes  # checked when the index was built
    recipes = (_regexes_checked(book.recipe(i)) for i in range(len(book.texts)))
    return tuple(sorted((r for r in recipes if r is not None), key=lambda r: r.id))


def _regexes_checked(recipe: Recipe | None) -> Recipe | None:
    """The recipe, or None (warned) when one of its regexes does not compile: all of them
    are listed only with regexes that work (a diagnosis compiles just the ones it tries)."""
    for pattern in recipe.patterns if recipe is not None else ():
        try:
            re.compile(pattern)
        except re.error as exc:
            warnings.warn(f"tfdebug: skipping recipe {recipe.source}: key 'messages' has a bad "
                          f"regex {pattern!r}: {exc}", RuntimeWarning, stacklevel=3)
            return None
    return recipe


_SHIPPED: list[_Index | _Book] = []  # the shipped recipes' book, made once


def _book() -> _Index | _Book:
    """The shipped recipes, read once per process: the prebuilt index when it describes
    the folder's files, else the files themselves."""
    if not _SHIPPED:
        book = _Index.read() or _Book(None)
        if not _SHIPPED:
            _SHIPPED.append(book)
    return _SHIPPED[0]


class _Index:
    """The shipped recipes from the prebuilt index (``recipes/_index.json``): already parsed
    and checked, each regex with the texts its matches need, so a first diagnosis neither
    parses TOML nor compiles a regex whose text the message lacks.

    Used only while the index lists the folder's ``.toml`` files with their sizes; an edited,
    added or removed recipe file makes the folder be read as files (``_Book``) until the
    index is rebuilt (``python tools/recipe_index.py --update``; a test fails meanwhile).
    """

    def __init__(self, data):
        self.entries = data["recipes"]  # in id order: each a dict, or its line of JSON text
        self.words: dict[str, list[int]] = data["words"]  # "errors:Name" -> entries naming it
        self.built: dict[int, Recipe] = {}

    def _recipe(self, position: int) -> Recipe:
        """The recipe of entry ``position``, made when first reached."""
        recipe = self.built.get(position)
        if recipe is None:
            entry = self.entries[position]
            if isinstance(entry, str):
                entry = json.loads(entry)
            recipe = self.built[position] = Recipe(
                **{k: tuple(v) if isinstance(v, list) else v for k, v in entry.items() if k != "literals"},
                literals=tuple(map(tuple, entry["literals"])))
        return recipe

    @property
    def recipes(self) -> tuple[Recipe, ...]:
        """Every recipe, in id order."""
        return tuple(map(self._recipe, range(len(self.entries))))

    @classmethod
    def read(cls, folder=None) -> _Index | None:
        """The index of ``folder`` (the shipped one), or None when it is missing,
        unreadable or does not describe the folder's files."""
        try:
            folder = importlib.resources.files("tfdebug.recipes") if folder is None else folder
            with open(os.path.join(folder, INDEX_NAME), encoding="utf-8") as fh:
                data = _index_data(fh.read())
            with os.scandir(folder) as entries:
                files = {e.name: e.stat().st_size for e in entries if e.name.endswith(".toml")}
            if data.get("format") != INDEX_FORMAT or data.get("files") != files:
                log.debug("tfdebug: the recipe index does not describe %s; reading the files", folder)
                return None
            return cls(data)
        except (OSError, ValueError, TypeError, KeyError) as exc:
            log.debug("tfdebug: no usable recipe index (%s); reading the files", exc)
            return None

    def naming(self, word: str, field: str, tags=None) -> tuple[Recipe, ...]:
        """As :meth:`_Book.naming`; with ``tags``, an entry whose ``when`` tags are not all
        among them is skipped before it is parsed (its line ends with them)."""
        positions = self.words.get(f"{field}:{word}", ())
        if tags is not None:
            positions = [p for p in positions if p in self.built or self._may_apply(p, tags)]
        return tuple(map(self._recipe, positions))

    def _may_apply(self, position: int, tags) -> bool:
        entry = self.entries[position]
        start = entry.rfind('"when": [') if isinstance(entry, str) else -1
        if start < 0:
            return True
        try:
            return set(json.loads(entry[start + 8:entry.rindex("]") + 1])) <= set(tags)
        except ValueError:
            return True  # not the layout expected: parse the whole entry


def _index_data(text: str) -> dict:
    """The index's data, its recipes left as their lines of JSON text when it is laid out as
    ``tools/recipe_index.py`` writes it (the recipes last, one per line): a diagnosis parses
    the few its exception's classes name, not all of them. Any other layout is parsed whole."""
    head, marker, rows = text.partition(',\n"recipes": [\n')
    if marker and "\n" not in head and rows.endswith("\n]}\n"):
        data = json.loads(head + "}")
        if isinstance(data, dict) and "recipes" not in data:
            data["recipes"] = rows[:-len("\n]}\n")].split(",\n")
            return data
    return json.loads(text)


class _Book:
    """The recipe files, read once; each parsed when first needed (regexes compiled later
    still), so a diagnosis parses the few recipes its exception's classes could name.

    The index is the files' own text: a recipe can only name a class (or have an id) that
    its file spells out, so a file without that text is never parsed for it. Used for a
    folder of the user's (``load(folder)``) and for the shipped folder when the prebuilt
    index does not describe it.
    """

    def __init__(self, folder: str | None):
        self.texts: list[tuple[str, str | None]] = []  # (file name, text or None: unreadable)
        for file in _files(folder):
            try:
                self.texts.append((file.name, file.read_text(encoding="utf-8")))
            except (UnicodeDecodeError, OSError) as exc:
                warnings.warn(f"tfdebug: skipping recipe {file.name}: cannot read it as UTF-8 "
                              f"text ({exc})", RuntimeWarning, stacklevel=3)
                self.texts.append((file.name, None))
        self.parsed: dict[int, Recipe | None] = {}
        self.by_word: dict[str, tuple[Recipe, ...]] = {}
        # {quoted word: files}: a TOML string naming a class or an id is quoted in its file
        # ("..." or '...', multi-line ones included); a file that spells a letter as an
        # escape (\u0041) could name anything, so it is a candidate for every word.
        self.quoting: dict[str, list[int]] = {}
        self.escaped: list[int] = []
        for index, (_, text) in enumerate(self.texts):
            if text is None:
                continue
            if "\\u" in text or "\\U" in text:
                self.escaped.append(index)
            for _, word in set(_QUOTED_WORD.findall(text)):
                self.quoting.setdefault(word, []).append(index)

    def _parse(self, index: int) -> Recipe | None:
        if index not in self.parsed:
            name, text = self.texts[index]
            recipe = None
            if text is not None:
                try:
                    recipe = parse(text, name, strict=False)
                except RecipeError as exc:
                    warnings.warn(f"tfdebug: skipping recipe {exc}", RuntimeWarning, stacklevel=4)
            self.parsed[index] = recipe
        return self.parsed[index]

    def recipe(self, index: int) -> Recipe | None:
        """The recipe of file ``index``; None when broken or its id is an earlier file's."""
        recipe = self._parse(index)
        if recipe is None:
            return None
        for earlier in self._containing(recipe.id, before=index):
            other = self._parse(earlier)
            if other is not None and other.id == recipe.id and self.recipe(earlier) is not None:
                warnings.warn(f"tfdebug: skipping recipe {self.texts[index][0]}: key 'id' "
                              f"{recipe.id} is already used", RuntimeWarning, stacklevel=3)
                self.parsed[index] = None
                return None
        return recipe

    def _containing(self, word: str, before: int | None = None) -> list[int]:
        """The files that may hold the TOML string ``word`` (before file ``before``)."""
        found = sorted(set(self.quoting.get(word, ())) | set(self.escaped))
        return found if before is None else [i for i in found if i < before]

    def naming(self, word: str, field: str, tags=None) -> tuple[Recipe, ...]:
        """The recipes whose ``field`` ("errors", "id" or "category") holds ``word``, in id
        order (``tags`` is for the index: every recipe file is parsed here anyway)."""
        key = f"{field}:{word}"
        if key not in self.by_word:
            found = [r for r in map(self.recipe, self._containing(word)) if r is not None
                     and (word in r.errors if field == "errors" else getattr(r, field) == word)]
            self.by_word[key] = tuple(sorted(found, key=lambda r: r.id))
        return self.by_word[key]


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
    for recipe in _book().naming(recipe_id, "id") if isinstance(recipe_id, str) else ():
        return recipe
    raise KeyError(f"no recipe {recipe_id!r}; `tfdebug recipes` lists them")


def by_category(category: str) -> list[Recipe]:
    """The recipes of ``category``, in id order (only their files are parsed)."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; one of: {', '.join(CATEGORIES)}")
    return list(_book().naming(category, "category"))


def naming_error(class_name: str) -> tuple[Recipe, ...]:
    """The recipes whose ``errors`` name ``class_name``, in id order (only the files that
    spell the name are parsed)."""
    return _book().naming(class_name, "errors")


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
    book = _book()
    candidates = {r.id: r for name in names for r in book.naming(name, "errors", tags)}
    ranked = []
    for recipe in candidates.values():  # the recipes that name a class (the index), then:
        if tags is not None and not recipe.applies(tags):  # cheap checks before any regex
            continue
        if recipe.patterns and not recipe.matches_message(message):
            continue
        specificity = len(recipe.when) if tags is not None else -len(recipe.when)
        ranked.append((not recipe.patterns, -specificity, recipe.id, recipe))
    return [entry[-1] for entry in sorted(ranked, key=lambda e: e[:3])]


_ERROR_NAME = re.compile(r"\b([A-Z]\w*(?:Error|Exception))\b")


def search(text: str, tags=frozenset()) -> list[Recipe]:
    """Recipes for pasted error text, best first (``tfdebug explain "<error text>"``).

    Message regexes decide; an exception class named in the text ranks its recipes first.
    With no message hit, only recipes that match by class alone (no ``messages``, as
    :func:`match` treats them) come back: a recipe whose messages all missed does not
    explain this text, whatever class it lists. A recipe's ``when`` holds for text as it
    does for an exception: every tag must be among ``tags`` (what the text shows of where
    the error happened), so a recipe for a special case never answers text that does not
    show that case.
    """
    window = message_window(text)
    named = set(_ERROR_NAME.findall(window))
    usable = [r for r in load() if r.applies(tags)]
    hits = [r for r in usable if r.patterns and r.matches_text(window)]
    if hits:
        return sorted(hits, key=lambda r: (not (named & set(r.errors)), -len(r.when), r.id))
    return sorted((r for r in usable if not r.patterns and named & set(r.errors)),
                  key=lambda r: (-len(r.when), r.id))
