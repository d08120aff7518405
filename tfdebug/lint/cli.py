"""``tfdebug lint`` on the command line: options, the run, the output, the exit code."""
from __future__ import annotations

import sys

from .config import Options, PerFileConfig, config_file_options, options_from
from .files import lint_paths
from .findings import LintUsageError
from .output import FORMATS, render


def main(paths, fmt="text", select=None, ignore=None, exclude=None, jobs=0, config=None,
         out=None, err=None, preview=None) -> int:
    """``tfdebug lint``: print findings; 0 when clean, 1 with findings, 2 on usage errors.

    Without ``config``, each file gets the nearest ``[tool.tfdebug]`` above it. ``preview``
    (or ``preview = true`` there) adds the findings that rest on inference.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        if fmt not in FORMATS:
            raise LintUsageError(f"--format {fmt}: choose one of {', '.join(FORMATS)}")
        if jobs is not None and jobs < 0:
            raise LintUsageError(f"--jobs {jobs}: give a number of processes >= 0 "
                                 "(0 picks one)")
        if config:
            findings = lint_paths(paths or ["."], config_file_options(
                config, select, ignore, exclude, jobs, preview))
        else:
            options_from({}, None, select, ignore)  # bad selectors fail before any file is read
            findings = lint_paths(paths or ["."], Options(exclude=tuple(exclude or ()),
                                                          jobs=jobs),
                                  PerFileConfig(select, ignore, exclude, jobs, preview))
    except LintUsageError as exc:
        _print(f"tfdebug lint: error: {exc}", err)
        return 2
    from ..render import paint_summary, use_color

    text = render(findings, fmt, color=fmt == "text" and use_color(out))
    if text:
        _print(text, out)
    if fmt == "text" and findings:
        n = len(findings)
        _print(paint_summary(f"Found {n} problem{'s' if n != 1 else ''}.", use_color(err)), err)
    return 1 if findings else 0


def _print(text: str, stream) -> None:
    """Print to a stream of any encoding: what it cannot encode (a file name in another
    script on an ASCII terminal) is written as Python's tracebacks write it, escaped."""
    try:
        print(text, file=stream)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        print(text.encode(encoding, "backslashreplace").decode(encoding), file=stream)
