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
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")

    sub.add_parser("doctor", help="show versions, devices, flags and which hooks work")

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
    if args.command == "doctor":
        from .doctor import render
        print(render())
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
