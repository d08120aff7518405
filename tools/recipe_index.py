"""Build the recipes' prebuilt index (``recipes/_index.json``) that a diagnosis reads.

The index holds every shipped recipe already parsed (no TOML parsing at the first
diagnosis), the size of each file it came from (a folder that differs is read from its TOML
files instead) and, per ``messages`` regex, the texts one of which every match contains:
found from the regex's own parse tree (Python's ``re`` parser), so a regex whose required
texts are all absent from a message is never compiled for it. ``[""]`` means none is known
(the regex is always tried).

Usage::

    python tools/recipe_index.py            # check: exit 1 and a diff when the index is stale
    python tools/recipe_index.py --update   # rewrite recipes/_index.json
"""
from __future__ import annotations

import argparse
import difflib
import os
import sys

try:
    from re import _constants as _sre, _parser as _sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover - older layouts
    import sre_constants as _sre
    import sre_parse as _sre_parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "recipes")
_REPEATS = (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", _sre.MAX_REPEAT))


def required_texts(pattern: str) -> list[str]:
    """Texts one of which every match of ``pattern`` contains; ``[""]`` when none is known.

    >>> required_texts(r"symbolic `tf\\.Tensor` as a (Python )?`bool`")
    ['symbolic `tf.Tensor` as a ']
    >>> required_texts("unhashable|is not hashable")
    ['unhashable', 'is not hashable']
    """
    parsed = _sre_parse.parse(pattern)
    if parsed.state.flags & _sre.SRE_FLAG_IGNORECASE:
        return [""]
    return _sequence(list(parsed)) or [""]


def _sequence(items) -> list[str] | None:
    """The best set of alternatives among the required parts of a sequence of regex items
    (the one whose shortest text is longest), or None."""
    best: list[str] | None = None
    run: list[str] = []

    def better(candidate):
        nonlocal best
        if candidate and all(candidate) and (best is None or min(map(len, candidate)) > min(map(len, best))):
            best = candidate

    for op, arg in items:
        if op is _sre.LITERAL:
            run.append(chr(arg))
            continue
        better(["".join(run)] if run else None)
        run = []
        if op is _sre.SUBPATTERN:
            _group, add_flags, _del_flags, sub = arg
            if not add_flags & _sre.SRE_FLAG_IGNORECASE:
                better(_sequence(list(sub)))
        elif op is _sre.BRANCH:
            alternatives = [_sequence(list(branch)) for branch in arg[1]]
            if all(alternatives):
                better(list(dict.fromkeys(text for alt in alternatives for text in alt)))
        elif op in _REPEATS and arg[0] >= 1:
            better(_sequence(list(arg[2])))
    better(["".join(run)] if run else None)
    return best


def build(folder: str = FOLDER) -> dict:
    """The index of ``folder``'s recipes (strict: a broken recipe raises RecipeError)."""
    sys.path.insert(0, ROOT)
    from tfdebug import recipebook

    recipes = recipebook.validate(folder)
    files = {name: os.path.getsize(os.path.join(folder, name))
             for name in sorted(os.listdir(folder)) if name.endswith(".toml")}
    entries, words = [], {}
    for position, recipe in enumerate(sorted(recipes, key=lambda r: r.id)):
        entry = {field: getattr(recipe, field) for field in recipebook.INDEXED_FIELDS}
        entry["literals"] = [required_texts(p) for p in recipe.patterns]
        entries.append(entry)
        for key in (f"id:{recipe.id}", f"category:{recipe.category}",
                    *(f"errors:{name}" for name in dict.fromkeys(recipe.errors))):
            words.setdefault(key, []).append(position)
    return {"format": recipebook.INDEX_FORMAT, "files": files, "recipes": entries, "words": words}


def render(index: dict) -> str:
    """The index as JSON, its recipes last, one per line: a diagnosis parses the head (files,
    words) and only the lines of the recipes its exception's classes name."""
    import json

    def dumps(value):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    head = dumps({key: value for key, value in index.items() if key != "recipes"})
    return (head[:-1] + ',\n"recipes": [\n' + ",\n".join(map(dumps, index["recipes"]))
            + "\n]}\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="rewrite the index")
    parser.add_argument("--folder", default=FOLDER, help="the recipes' folder (default: recipes/)")
    args = parser.parse_args(argv)
    path = os.path.join(args.folder, "_index.json")
    text = render(build(args.folder))
    if args.update:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"wrote {path}")
        return 0
    current = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    if current == text:
        print("the recipe index is up to date")
        return 0
    sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), text.splitlines(True),
                                               "recipes/_index.json", "rebuilt", n=1))
    print("\nthe recipe index is stale: run python tools/recipe_index.py --update")
    return 1


if __name__ == "__main__":
    sys.exit(main())
