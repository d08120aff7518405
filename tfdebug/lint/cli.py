"""``tfdebug lint`` on the command line: options, the run, the output, the exit code."""
from __future__ import annotations

import json
import os

from .config import load_config, options_from
from .files import lint_paths
from .findings import LintUsageError


def render(findings, fmt: str = "text") -> str:
    """Findings as flake8-style text lines or as a JSON array."""
    if fmt == "json":
        return json.dumps([f.to_json() for f in findings], indent=2)
    return "\n".join(f.text() for f in findings)


def main(paths, fmt="text", select=None, ignore=None, exclude=None, jobs=0, config=None,
         out=None, err=None) -> int:
    """``tfdebug lint``: print findings; 0 when clean, 1 with findings, 2 on usage errors."""
    import sys

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        if config:
            if not os.path.isfile(config):
                raise LintUsageError(f"--config {config}: no such file")
            section, source = load_config(os.path.dirname(os.path.abspath(config)))
            if os.path.abspath(source or "") != os.path.abspath(config):
                import tomllib
                with open(config, "rb") as fh:
                    section = tomllib.load(fh).get("tool", {}).get("tfdebug", {})
                source = config
        else:
            section, source = load_config()
        options = options_from(section, source, select, ignore, exclude, jobs)
        findings = lint_paths(paths or ["."], options)
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
