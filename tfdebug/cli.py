"""The ``tfdebug`` command: ``run``, ``doctor`` (and the subcommands later issues add).

Usage errors (a missing script, a directory, a syntax error, a bad flag) print one clear
line and exit 2.
"""
from __future__ import annotations

import sys


def _help_formatter(prog: str):
    """argparse's help formatter at the terminal's width, found as ``shutil`` finds it:
    argparse itself imports ``shutil`` (and its compression modules) on every run to ask."""
    import argparse
    import os

    try:
        width = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        try:
            width = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            width = 80
    return argparse.HelpFormatter(prog, width=max(width - 2, 11))


def _parser():
    import argparse
    import functools

    parser = argparse.ArgumentParser(
        prog="tfdebug", description="Make tf.function / AutoGraph code debuggable.",
        formatter_class=_help_formatter)
    from ._version import __version__

    parser.add_argument("--version", action="version", version=f"tfdebug {__version__}")
    # every subparser with the same formatter: argparse's default imports shutil (~5 ms)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=functools.partial(
        argparse.ArgumentParser, formatter_class=_help_formatter))
    sub.required = True

    run = sub.add_parser("run", help="run a script like `python SCRIPT ARGS`, with diagnoses",
                         description="Run SCRIPT as `python SCRIPT ARGS` would, with error "
                                     "diagnosis, the trace logger and the side-effect guard.")
    run.add_argument("--eager", action="store_true", help="run every tf.function eagerly")
    run.add_argument("--report", metavar="FILE.json", help="write a JSON report here")
    run.add_argument("--html", metavar="FILE.html",
                     help="write the report as one self-contained HTML page (timeline of traces)")
    run.add_argument("--pdb", action="store_true",
                     help="on an uncaught error, re-run the failing tf.function call eagerly "
                          "with the same inputs and open pdb at the offending user line")
    run.add_argument("-m", dest="module", metavar="MODULE",
                     help="run a module as `python -m MODULE ARGS` does (the arguments after "
                          "MODULE are the module's)")
    run.add_argument("script", help="the Python script to run")
    script_args = run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    script_args.required = False  # a missing SCRIPT is the only thing to report
    run.set_defaults(**RUN_DEFAULTS)  # the quick reader's, so that the two agree

    sub.add_parser("doctor", help="show versions, devices, flags and which hooks work")

    show = sub.add_parser("report", help="render a saved JSON report as an HTML page",
                          description="Render a report written by `tfdebug run --report "
                                      "FILE.json` (from CI, another machine) as one "
                                      "self-contained HTML page.")
    show.add_argument("json", metavar="FILE.json", help="the JSON report")
    show.add_argument("--html", metavar="OUT.html", required=True, help="write the page here")

    from ._categories import CATEGORIES  # not recipebook: `tfdebug run` starts at once

    recipes = sub.add_parser("recipes", help="list the recipes (the knowledge base)",
                             description="List every recipe: id, category, title.")
    recipes.add_argument("--category", choices=CATEGORIES, metavar="CATEGORY",
                         help=f"only this category: {', '.join(CATEGORIES)}")
    explain = sub.add_parser("explain", help="explain a recipe id or an error message",
                             description="Show a recipe (cause, fix, before/after) by id, "
                                         "or the recipes that match a pasted error message.")
    explain.add_argument("query", nargs="+", metavar="ID|ERROR-TEXT",
                         help='a recipe id such as TFD101, error text in quotes, or - to read '
                              'a whole pasted traceback from stdin')

    _add_lint(sub)
    return parser


# `tfdebug lint`'s options, read by argparse and by the quick reader alike
LINT_OPTIONS = (
    (("--format",), {"choices": ("text", "json", "github", "sarif"), "default": "text",
                     "dest": "fmt",
                     "help": "text: `path:line:col: CODE message` lines; json: an array; "
                             "github: workflow annotations; sarif: SARIF 2.1.0"}),
    (("--select",), {"action": "append", "metavar": "IDS",
                     "help": "only these recipe ids, id prefixes or categories (comma-separated)"}),
    (("--ignore",), {"action": "append", "metavar": "IDS",
                     "help": "skip these recipe ids, id prefixes or categories (comma-separated)"}),
    (("--exclude",), {"action": "append", "metavar": "GLOB",
                      "help": "skip files and folders matching these globs"}),
    (("--config",), {"metavar": "PYPROJECT",
                     "help": "read [tool.tfdebug] from this file, for every file"}),
    (("--jobs", "-j"), {"type": int, "default": 0, "metavar": "N",
                        "help": "worker processes (default: automatic)"}),
    (("--preview",), {"action": "store_true", "default": None,
                      "help": "also report findings that rest on inference (confidence "
                              "'inferred'); the default reports only what is proven"}),
)


def _add_lint(sub) -> None:
    lint = sub.add_parser("lint", help="find tf.function pitfalls in source, without running it",
                          formatter_class=_help_formatter,
                          description="Check Python files for tf.function / AutoGraph pitfalls "
                                      "(AST only: nothing is imported or run). Exit 0 when clean, "
                                      "1 with findings, 2 on usage errors. Each file gets the "
                                      "settings of [tool.tfdebug] in the nearest pyproject.toml "
                                      "above it. Jupyter notebooks (.ipynb) are checked too.")
    lint.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .)")
    for flags, settings in LINT_OPTIONS:
        lint.add_argument(*flags, **settings)


def _lint_parser():
    """The parser for ``tfdebug lint`` alone: building it imports nothing (no recipes)."""
    import argparse

    parser = argparse.ArgumentParser(prog="tfdebug", formatter_class=_help_formatter)
    _add_lint(parser.add_subparsers(dest="command", metavar="COMMAND"))
    return parser


def quick_lint_args(argv: list[str]) -> dict | None:
    """The options of a plain ``lint [--option VALUE | --option=VALUE]... [PATH]...``, read
    without argparse (its import and parser are a tenth of a one-file run); None for anything
    else (help, abbreviations, a short option with its value attached, a value or path that
    starts with ``-``, an option after a path, a bad value), which argparse then reads, with
    its own messages. Where it answers, it answers as argparse does (a test compares them).
    """
    if argv[:1] != ["lint"]:
        return None
    by_flag = {flag: settings for flags, settings in LINT_OPTIONS for flag in flags}
    dest = {id(settings): settings.get("dest", flags[0].lstrip("-"))
            for flags, settings in LINT_OPTIONS}
    values = {dest[id(settings)]: settings.get("default") for _, settings in LINT_OPTIONS}
    paths, rest = [], iter(argv[1:])
    for arg in rest:
        if not arg.startswith("-"):
            paths.append(arg)
            continue
        flag, has_value, value = arg.partition("=")
        settings = by_flag.get(flag)
        if paths or settings is None or (has_value and not flag.startswith("--")):
            return None
        if settings.get("action") == "store_true":
            if has_value:
                return None
            values[dest[id(settings)]] = True
            continue
        if not has_value:
            value = next(rest, None)
            if value is None or value.startswith("-"):
                return None
        if "type" in settings:
            try:
                value = settings["type"](value)
            except ValueError:
                return None
        if value not in settings.get("choices", (value,)):
            return None
        key = dest[id(settings)]
        values[key] = (values[key] or []) + [value] if settings.get("action") == "append" \
            else value
    return {"command": "lint", "paths": paths, **values}


# `tfdebug run`'s options and what argparse gives when none is on the command line
RUN_DEFAULTS = {"eager": False, "report": None, "html": None, "pdb": False, "module": None}


def quick_run_args(argv: list[str]) -> dict | None:
    """``run SCRIPT [ARGS]...`` with no option before SCRIPT, read without argparse (whose
    import is a sixth of a run of a script without TensorFlow); None for anything else, which
    argparse reads. It answers as argparse does (a test compares them)."""
    if len(argv) < 2 or argv[0] != "run" or argv[1].startswith("-") or "--" in argv:
        return None  # (argparse drops a "--" from the script's arguments)
    return {"command": "run", **RUN_DEFAULTS, "script": argv[1], "args": argv[2:]}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tfdebug`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # `tfdebug lint` runs on every commit (pre-commit), `tfdebug run` starts a program: their
    # plain forms are read without argparse; otherwise lint builds only its own parser
    quick = quick_lint_args(argv) or quick_run_args(argv)
    if quick is not None:
        import types
        args = types.SimpleNamespace(**quick)
    else:
        head, module = _split_module(argv)
        args = (_lint_parser() if argv[:1] == ["lint"] else _parser()).parse_args(
            head + module[:1] if module else argv)  # the module's name stands for the script
        if module is not None:
            args.module, args.args = module[0], module[1:]
    if args.command == "run":
        return _needs_tensorflow(_run, args)  # the script's own streams: python's behaviour
    _tolerant_streams()
    try:
        code = _command(args)
        sys.stdout.flush()  # inside the try: a reader that left shows at the last flush too
        return code
    except BrokenPipeError:
        # `tfdebug lint | head`: the reader left; stop quietly, as a pipeline expects
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _split_module(argv: list[str]):
    """``run [OPTIONS] -m NAME ARGS...``: (``run [OPTIONS]``, [NAME, ARGS...]); as for
    ``python -m``, everything after NAME is the module's, options included."""
    if argv[:1] != ["run"]:
        return argv, None
    index = 1
    while index < len(argv):
        arg = argv[index]
        if arg == "-m" and index + 1 < len(argv):
            return argv[:index], argv[index + 1:]
        if arg.startswith("-m") and len(arg) > 2:  # -mNAME, as python takes it
            return argv[:index], [arg[2:], *argv[index + 1:]]
        if not arg.startswith("-") or arg in ("-", "--"):
            break
        index += 2 if arg in ("--report", "--html") else 1  # their value is not the script
    return argv, None


def _tolerant_streams() -> None:
    """Any output encoding works (an ASCII terminal, ``PYTHONIOENCODING=ascii``): what it
    cannot show is written as ``\\xe9``-style escapes, as Python's own tracebacks are."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except Exception:  # noqa: BLE001 - a replaced stream: written as it is
                pass


def _command(args) -> int:
    if args.command != "lint":
        try:
            return _dispatch(args)
        except BrokenPipeError:
            raise  # main() stops quietly: the reader left
        except Exception as exc:  # noqa: BLE001 - any input: one line and exit 2, no traceback
            print(f"tfdebug: error: {args.command} failed: {_one_line(exc)}", file=sys.stderr)
            return 2
    return _dispatch(args)


def _dispatch(args) -> int:
    if args.command == "lint":
        from .lint import main as lint_main
        return lint_main(args.paths, fmt=args.fmt, select=args.select, ignore=args.ignore,
                         exclude=args.exclude, jobs=args.jobs, config=args.config,
                         preview=args.preview)
    if args.command == "recipes":
        return _recipes(args)
    if args.command == "explain":
        return _explain(args)
    if args.command == "report":
        return _report(args)
    if args.command == "doctor":
        return _needs_tensorflow(_doctor, args)
    return 2  # pragma: no cover - argparse rejects unknown commands


def _needs_tensorflow(command, args) -> int:
    """Run a runtime command; without TensorFlow, say in one line what to install."""
    try:
        return command(args)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in ("tensorflow", "keras"):
            raise
        from ._install import needs_tensorflow
        print("tfdebug: error: " + needs_tensorflow(f"`tfdebug {args.command}`"), file=sys.stderr)
        return 2


def _doctor(args) -> int:
    from .doctor import render

    try:
        print(render())
    except ModuleNotFoundError:
        raise  # no TensorFlow: _needs_tensorflow says what to install
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        print(f"tfdebug: error: doctor failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


def _run(args) -> int:
    from .runner import RunOptions, ScriptError, run

    module = getattr(args, "module", None)
    options = RunOptions(script=module or args.script, args=args.args, eager=args.eager,
                         report_path=args.report, pdb=args.pdb, html_path=args.html,
                         module=module is not None)
    try:
        return run(options)
    except ScriptError as exc:
        print(f"tfdebug: error: {exc}", file=sys.stderr)
        return 2


def _report(args) -> int:
    from . import report
    from .runner import ScriptError, check_report_path

    try:
        check_report_path(args.html, "--html", "r.html")
        data = report.load(args.json)
        report.write_html(args.html, data)
    except (ScriptError, report.ReportError) as exc:
        print(f"tfdebug: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"tfdebug: error: cannot write {args.html}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - any input: one line, never a traceback
        print(f"tfdebug: error: {args.json}: cannot render this report ({_one_line(exc)})",
              file=sys.stderr)
        return 2
    print(f"tfdebug: wrote {args.html}")
    return 0


def _one_line(exc: BaseException) -> str:
    try:
        text = str(exc).strip().splitlines()
    except Exception:  # noqa: BLE001 - an exception whose text itself fails
        text = []
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__


def _recipes(args) -> int:
    from . import recipebook, render

    chosen = recipebook.by_category(args.category) if args.category else recipebook.load()
    print(render.recipes_table(chosen, width=render.terminal_width(sys.stdout),
                               color=render.use_color(sys.stdout)))
    return 0


def _explain(args) -> int:
    from . import recipebook, render

    query = " ".join(args.query).strip()
    if args.query == ["-"]:  # a whole traceback, pasted (ended with Ctrl-D) or piped
        if sys.stdin is not None and sys.stdin.isatty():
            print("tfdebug: paste the error (the whole traceback is best), then Ctrl-D",
                  file=sys.stderr)
        query = sys.stdin.read().strip() if sys.stdin is not None else ""
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
    from ._extract import text_tags

    found = recipebook.search(query, tags=text_tags(query))
    if not found:
        print("tfdebug: no recipe matches this error text; paste the exception's last line "
              "(e.g. \"TypeError: Tensor is unhashable\") or see `tfdebug recipes`",
              file=sys.stderr)
        return 1
    print(render.recipe_text(found[0], color=color))
    if len(found) > 1:
        print("\nalso matching:")
        print(render.recipes_table(found[1:6], width=render.terminal_width(sys.stdout),
                                   color=color))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
