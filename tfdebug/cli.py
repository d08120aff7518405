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
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tfdebug`` console script; returns the exit code."""
    args = _parser().parse_args(argv)
    if args.command == "run":
        return _run(args)
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
