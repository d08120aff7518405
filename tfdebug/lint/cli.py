"""``tfdebug lint`` on the command line: options, the run, the output, the exit code."""
from __future__ import annotations

import sys

from .config import Options, PerFileConfig, config_file_options, options_from
from .files import lint_paths
from .findings import LintUsageError
from .output import FORMATS, render


def main(paths, fmt="text", select=None, ignore=None, exclude=None, jobs=0, config=None,
         out=None, err=None) -> int:
    """``tfdebug lint``: print findings; 0 when clean, 1 with findings, 2 on usage errors.

    Without ``config``, each file gets the nearest ``[tool.tfdebug]`` above it.
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
                config, select, ignore, exclude, jobs))
        else:
            options_from({}, None, select, ignore)  # bad selectors fail before any file is read
            findings = lint_paths(paths or ["."], Options(exclude=tuple(exclude or ()),
                                                          jobs=jobs),
                                  PerFileConfig(select, ignore, exclude, jobs))
    except LintUsageError as exc:
        print(f"tfdebug lint: error: {exc}", file=err)
        return 2
    text = render(findings, fmt)
    if text:
        print(text, file=out)
    if fmt == "text" and findings:
        n = len(findings)
        print(f"Found {n} problem{'s' if n != 1 else ''}.", file=err)
    return 1 if findings else 0
