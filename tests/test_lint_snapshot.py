"""Golden findings: lint's findings on the case corpora, examples and recipe snippets.

The snapshot (``tests/lint_snapshot.json``) guards refactors of the linter: findings stay the
same unless a commit says why. After an intended change, regenerate it and review the diff::

    python tests/test_lint_snapshot.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNAPSHOT = os.path.join(ROOT, "tests", "lint_snapshot.json")
FOLDERS = ("tests/cases", "tests/cases_extra", "tests/lint_fixed", "examples")


def current_findings() -> list[list]:
    """(path, line, col, code, message, confidence) for every finding, preview included
    (the confidence tells which ones a default run reports), in a stable order."""
    sys.path.insert(0, ROOT)
    from tfdebug import lint, recipebook

    rows = []
    folders = [os.path.join(ROOT, f) for f in FOLDERS]
    for f in lint.lint_paths(folders, lint.Options(jobs=1, preview=True)):
        where = os.path.relpath(f.path, ROOT).replace(os.sep, "/")
        rows.append([where + (f":cell {f.cell}" if f.cell else ""), f.line, f.col, f.code,
                     f.message, f.confidence])
    for recipe in recipebook.load():
        for side in ("before", "after"):
            snippet = getattr(recipe, side)
            if snippet:
                where = f"recipes/{recipe.id}.toml:{side}"
                rows.extend([where, f.line, f.col, f.code, f.message, f.confidence]
                            for f in lint.lint_source(snippet, where, preview=True))
    return sorted(rows)


def test_findings_match_the_snapshot():
    with open(SNAPSHOT, encoding="utf-8") as fh:
        expected = [tuple(row) for row in json.load(fh)]
    got = [tuple(row) for row in current_findings()]
    missing = sorted(set(expected) - set(got))
    extra = sorted(set(got) - set(expected))
    assert not missing and not extra, (
        f"lint findings changed (regenerate with `python tests/test_lint_snapshot.py` if "
        f"intended):\nmissing: {missing}\nnew: {extra}")
    assert len(got) == len(expected)


if __name__ == "__main__":
    rows = current_findings()
    with open(SNAPSHOT, "w", encoding="utf-8") as fh:
        fh.write("[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")
    print(f"{SNAPSHOT}: {len(rows)} findings")
