"""The ``tfdebug`` command: ``run``, ``doctor`` (and the subcommands later issues add).

Usage errors (a missing script, a directory, a syntax error, a bad flag) print one clear
line and exit 2.
"""
from __future__ import annotations

import argparse
import sys


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tfdebug", description="Make tf.function / AutoGraph code debuggable.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    run = sub.add_parser("run", help="run a script like `python SCRIPT ARGS`, with diagnoses",
                         description="Run SCRIPT as `python SCRIPT ARGS` would, with error "
                                     "diagnosis, the trace logger and the side-effect guard.")
    run.add_argument("--eager", action="store_true", help="run every tf.function eagerly")
    run.add_argument("--report", metavar="FILE.json", help="write a JSON report here")
    run.add_argument("--pdb", action="store_true",
                     help="on an uncaught error, re-run the failing tf.function call eagerly "
                          "with the same inputs and open pdb at the offending user line")
    run.add_argument("script", help="the Python script to run")
    script_args = run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    script_args.required = False  # a missing SCRIPT is the only thing to report

    sub.add_parser("doctor", help="show versions, devices, flags and which hooks work")

    from .recipebook import CATEGORIES

    recipes = sub.add_parser("recipes", help="list the recipes (the knowledge base)",
                             description="List every recipe: id, category, title.")
    recipes.add_argument("--category", choices=CATEGORIES, metavar="CATEGORY",
                         help=f"only this category: {', '.join(CATEGORIES)}")
    explain = sub.add_parser("explain", help="explain a recipe id or an error message",
                             description="Show a recipe (cause, fix, before/after) by id, "
                                         "or the recipes that match a pasted error message.")
    explain.add_argument("query", nargs="+", metavar="ID|ERROR-TEXT",
                         help='a recipe id such as TFD101, or error text in quotes')

    lint = sub.add_parser("lint", help="find tf.function pitfalls in source, without running it",
                          description="Check Python files for tf.function / AutoGraph pitfalls "
                                      "(AST only: nothing is imported or run). Exit 0 when clean, "
                                      "1 with findings, 2 on usage errors. Settings come from "
                                      "[tool.tfdebug] in the nearest pyproject.toml.")
    lint.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .)")
    lint.add_argument("--format", choices=("text", "json"), default="text", dest="fmt",
                      help="text: `path:line:col: CODE message` lines; json: an array")
    lint.add_argument("--select", action="append", metavar="IDS",
                      help="only these recipe ids, id prefixes or categories (comma-separated)")
    lint.add_argument("--ignore", action="append", metavar="IDS",
                      help="skip these recipe ids, id prefixes or categories (comma-separated)")
    lint.add_argument("--exclude", action="append", metavar="GLOB",
                      help="skip files and folders matching these globs")
    lint.add_argument("--config", metavar="PYPROJECT", help="read [tool.tfdebug] from this file")
    lint.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                      help="worker processes (default: automatic)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tfdebug`` console script; returns the exit code."""
    args = _parser().parse_args(argv)
    if args.command == "run":
        return _run(args)
    if args.command == "lint":
        from .lint import main as lint_main
        return lint_main(args.paths, fmt=args.fmt, select=args.select, ignore=args.ignore,
                         exclude=args.exclude, jobs=args.jobs, config=args.config)
    if args.command == "recipes":
        return _recipes(args)
    if args.command == "explain":
        return _explain(args)
    if args.command == "doctor":
        from .doctor import render
        try:
            print(render())
        except Exception as exc:  # noqa: BLE001 - one line, never a traceback
            print(f"tfdebug: error: doctor failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
        return 0
    return 2  # pragma: no cover - argparse rejects unknown commands


def _run(args) -> int:
    from .runner import RunOptions, ScriptError, run

    options = RunOptions(script=args.script, args=args.args, eager=args.eager,
                         report_path=args.report, pdb=args.pdb)
    try:
        return run(options)
    except ScriptError as exc:
        print(f"tfdebug: error: {exc}", file=sys.stderr)
        return 2


def _recipes(args) -> int:
    from . import recipebook, render

    chosen = recipebook.by_category(args.category) if args.category else recipebook.load()
    print(render.recipes_table(chosen))
    return 0


def _explain(args) -> int:
    from . import recipebook, render

    query = " ".join(args.query).strip()
    if not query:
        print("tfdebug: error: explain needs a recipe id (e.g. TFD101) or the text of an error; "
              "got only blanks", file=sys.stderr)
        return 2
    color = render.use_color(sys.stdout)
    if recipebook.ID_PATTERN.fullmatch(query.upper()):
        try:
            recipe = recipebook.get(query.upper())
        except KeyError as exc:
            print(f"tfdebug: error: {exc.args[0]}", file=sys.stderr)
            return 2
        print(render.recipe_text(recipe, color=color))
        return 0
    found = recipebook.search(query)
    if not found:
        print("tfdebug: no recipe matches this error text; paste the exception's last line "
              "(e.g. \"TypeError: Tensor is unhashable\") or see `tfdebug recipes`",
              file=sys.stderr)
        return 1
    print(render.recipe_text(found[0], color=color))
    if len(found) > 1:
        print("\nalso matching:")
        print(render.recipes_table(found[1:6]))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
