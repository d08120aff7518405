"""Lint precision on judged real-world code, overall and per finding kind.

Reads ``tests/lint_realworld/judged.toml`` (every finding lint made on a real-world corpus,
judged in context: true, defensible or false), lints the kept excerpts with the current
linter and prints, per recipe id, how many judged findings it still reports and how many
of those are right (true or defensible). ``--as-judged`` prints the table of the corpus
run the verdicts were made on, instead.

    python benchmarks/lint_precision.py
    python benchmarks/lint_precision.py --as-judged --sample held-out
"""
import argparse
import collections
import pathlib
import tomllib

from tfdebug import lint

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "lint_realworld"


def table(entries, reported):
    """Rows of (code, reported, true, defensible, false, precision) and the total row."""
    rows = collections.defaultdict(collections.Counter)
    for e in entries:
        if reported(e):
            rows[e["code"]][e["verdict"]] += 1
    out = []
    total = collections.Counter()
    for code in sorted(rows):
        total.update(rows[code])
        out.append((code, rows[code]))
    out.append(("all", total))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--as-judged", action="store_true",
                        help="the corpus run as judged (every entry counts as reported)")
    parser.add_argument("--sample", choices=("tuning", "held-out", "all"), default="all",
                        help="the findings the fixes were made against, the held-out ones, or all")
    args = parser.parse_args()
    entries = tomllib.loads((HERE / "judged.toml").read_text(encoding="utf-8"))["finding"]
    entries = [e for e in entries if args.sample in ("all", e["sample"])]
    found = {}

    def reported(e):
        if args.as_judged:
            return True
        if e["excerpt"] not in found:
            found[e["excerpt"]] = {(f.line, f.code)
                                   for f in lint.lint_file(str(HERE / e["excerpt"]))}
        return (e["excerpt_line"], e["code"]) in found[e["excerpt"]]

    rows = table(entries, reported)
    print(f"{'kind':8} {'found':>5} {'true':>5} {'defens.':>7} {'false':>5} {'precision':>9}")
    for code, c in rows:
        n = sum(c.values())
        right = c["true"] + c["defensible"]
        print(f"{code:8} {n:5d} {c['true']:5d} {c['defensible']:7d} {c['false']:5d} "
              f"{(100 * right / n if n else 0):8.0f}%")
    gone = sum(1 for e in entries if e["verdict"] == "false" and not reported(e))
    lost = sum(1 for e in entries if e["verdict"] != "false" and not reported(e))
    print(f"{len(entries)} judged findings; false alarms gone: {gone}; right findings lost: {lost}")


if __name__ == "__main__":
    main()
