"""How findings are printed: text lines, JSON, GitHub workflow annotations, SARIF 2.1.0."""
from __future__ import annotations

from .codes import CHECKS, INTERNAL_ERROR, READ_ERROR, SYNTAX_ERROR, UNCHECKED

FORMATS = ("text", "json", "github", "sarif")
SARIF_SCHEMA = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                "sarif-schema-2.1.0.json")
_FILE_RULES = {READ_ERROR: ("unreadable-file", "The file could not be read"),
               SYNTAX_ERROR: ("syntax-error", "The file is not valid Python"),
               INTERNAL_ERROR: ("internal-error", "tfdebug could not check the file"),
               UNCHECKED: ("unchecked-code", "tfdebug could not check this part of the file")}


def render(findings, fmt: str = "text") -> str:
    """Findings as flake8-style text lines, a JSON array, GitHub annotations or SARIF."""
    if fmt in ("json", "sarif"):
        import json

        data = [f.to_json() for f in findings] if fmt == "json" else sarif_log(findings)
        return json.dumps(data, indent=2)
    if fmt == "github":
        return "\n".join(github_annotation(f) for f in findings)
    return "\n".join(f.text() for f in findings)


def _escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def github_annotation(f) -> str:
    """``::error file=...,line=...,col=...,title=...::message`` (a workflow command).

    In a notebook the file's lines are JSON, so the annotation names the cell instead.
    """
    level = "error" if f.code in _FILE_RULES else "warning"
    if f.cell:
        where = f"file={_escape(f.path, True)}"
        message = f"cell {f.cell}, line {f.line}: {f.message}"
    else:
        where = f"file={_escape(f.path, True)},line={f.line},col={f.col}"
        message = f.message
    title = _escape(f"tfdebug {f.code}", True)
    return f"::{level} {where},title={title}::{_escape(message)}"


def _rule(code: str, check: str) -> dict:
    rule = {"id": code}
    if code in _FILE_RULES:
        name, text = _FILE_RULES[code]
        rule.update(name=name, shortDescription={"text": text})
        return rule
    from .findings import LintFinding

    title, docs = LintFinding("", 1, 1, code, "").recipe()
    rule.update(name=check, shortDescription={"text": title or code},
                helpUri=docs or None,
                help={"text": f"Run `tfdebug explain {code}` for the cause, the fix and an "
                              "example."},
                properties={"category": CHECKS[check][1]} if check in CHECKS else {})
    if rule["helpUri"] is None:
        del rule["helpUri"]
    return rule


def sarif_log(findings) -> dict:
    """A SARIF 2.1.0 log with one run: the rules cited and one result per finding."""
    import urllib.parse

    from .._version import __version__

    rules, index = [], {}
    for f in findings:
        if f.code not in index:
            index[f.code] = len(rules)
            rules.append(_rule(f.code, f.check))
    results = []
    for f in findings:
        location = {"artifactLocation": {"uri": urllib.parse.quote(f.path.replace("\\", "/"))}}
        message = f.message
        if f.cell:
            message = f"cell {f.cell}, line {f.line}: {message}"
        else:
            location["region"] = {"startLine": f.line, "startColumn": f.col}
        result = {"ruleId": f.code, "ruleIndex": index[f.code],
                  "level": "error" if f.code in _FILE_RULES else "warning",
                  "message": {"text": message},
                  "locations": [{"physicalLocation": location}]}
        if f.cell:
            result["properties"] = {"cell": f.cell, "cellLine": f.line, "cellColumn": f.col}
        results.append(result)
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0",
            # no informationUri (optional in SARIF): the project publishes no page to link
            "runs": [{"tool": {"driver": {"name": "tfdebug", "version": __version__,
                                          "rules": rules}},
                      "columnKind": "unicodeCodePoints",
                      "results": results}]}
