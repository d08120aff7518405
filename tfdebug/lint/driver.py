"""The analysis of one module: index, module kinds, entries, the host pass, then the graph
pass over entries and the helpers they call. Also the explainer's question: which finding
sits at this line?"""
from __future__ import annotations

import ast
import linecache
import types

from .._source import module_tree
from .checks import syntax_support
from .entries import _call_site_params, _find_entries, _host_functions, _module_env
from .facts import Context, _index, _Module
from .findings import LintFinding, debug
from .walker import Walker


def analyse(tree: ast.Module, path: str, lines: list[str],
            enabled: frozenset | None = None, preview: bool = False) -> list[LintFinding]:
    """All findings in one parsed module (unsuppressed); ``enabled`` limits the checks run;
    ``preview`` adds the inferred findings to the proven ones."""
    mod = _Module(tree, path, lines, enabled, preview)
    _index(mod)
    if not any(v.startswith(("tensorflow", "keras")) for v in mod.aliases.values()):
        return []
    _module_env(mod)
    _find_entries(mod)
    # host pass: the module body and every function, as plain Python
    host = Walker(mod, tree, Context(False, False, "host"))
    host.local_names = set()
    host.block(tree.body)
    for node in _host_functions(mod):
        _walk(mod, node, Context(False, False, "host"))
    syntax_support.shared_lambda_lines(mod)
    # graph pass: entries, then the helpers they call (each function at most a few times)
    queue = [(fn, ctx, _call_site_params(mod, fn, params) if ctx.kind == "function" else params)
             for fn, ctx, params in mod.entries]
    done: dict[tuple, int] = {}
    while queue:
        fn, ctx, params = queue.pop(0)
        key = (id(fn), ctx.converted, ctx.kind, ctx.entry,
               tuple(sorted((k, v) for k, v in params.items() if v is not None)))
        per_fn = sum(1 for k in done if k[0] == id(fn))
        if key in done or per_fn >= 4:
            continue
        done[key] = 1
        queue.extend(_walk(mod, fn, ctx, params))
    return sorted(mod.findings.values())


def _walk(mod, fn, ctx, params=None) -> list:
    """Walk one function; a failure costs that function alone (E900 at its line, the other
    functions are still checked). The helpers it asks to walk next."""
    try:
        return Walker(mod, fn, ctx, params).run().requests
    except RecursionError:
        mod.unchecked(fn, "this function is nested too deeply for the checker")
    except Exception as exc:  # noqa: BLE001 - a checker bug must not cost the whole file
        debug("tfdebug lint: internal error in %s:%s", mod.path, getattr(fn, "lineno", 1))
        mod.failed(fn, exc)
    return []


_module_findings: dict[tuple, tuple[int, list[LintFinding]]] = {}  # (file, enabled) ->


def findings_at(filename: str, line: int, function: types.CodeType | str | None = None,
                enabled: frozenset | None = None) -> list[LintFinding]:
    """The lint findings at ``line`` of ``filename`` (inside ``function`` when given).

    The explainer's question, "which finding sits at this line of this function?", answered
    by the same analysis ``tfdebug lint`` runs, on the text ``linecache`` holds (so files,
    notebook cells and ``exec``'d source with a registered cache entry all work). ``function``
    is the frame's code object or the function's name; a finding counts when it sits in the
    lines of that def. Suppression comments are ignored (the error happened), and inferred
    findings are included (each carries its ``confidence``): the error raised at that line is
    the evidence they lacked. ``enabled``: only these checks are run (and only their modules
    imported), as ``--select`` does. Never raises.

    Example::

        for f in findings_at(frame.f_code.co_filename, frame.f_lineno, frame.f_code):
            print(f.code, f.message)
    """
    try:
        found = _all_findings(filename, enabled)
        hits = [f for f in found if f.line == line]
        if hits and function is not None:
            span = _function_span(filename, line, function)
            if span is not None:
                hits = [f for f in hits if span[0] <= f.line <= span[1]]
        return hits
    except Exception:  # noqa: BLE001 - the explainer must never fail because of lint
        return []


def _all_findings(filename: str, enabled: frozenset | None = None) -> list[LintFinding]:
    lines = linecache.getlines(filename)
    if not lines:
        return []
    key = hash(tuple(lines))
    cached = _module_findings.get((filename, enabled))
    if cached is not None and cached[0] == key:
        return cached[1]
    tree = module_tree(filename)
    found = analyse(tree, filename, [ln.rstrip("\r\n") for ln in lines], enabled=enabled,
                    preview=True) if tree is not None else []
    if len(_module_findings) > 64:
        _module_findings.clear()
    _module_findings[filename, enabled] = (key, found)
    return found


def _function_span(filename: str, line: int, function) -> tuple[int, int] | None:
    """The lines of the def named by ``function`` (a code object or a name) around ``line``;
    ``(0, -1)`` (nothing) when no such def covers the line, None when the source is unknown."""
    from .._source import function_node, source_index

    if isinstance(function, types.CodeType):
        node = function_node(function)
        if node is None:
            return None
    else:
        tree = module_tree(filename)
        if tree is None:
            return None
        named = [n for n in source_index(tree).functions if getattr(n, "name", "<lambda>")
                 == function and n.lineno <= line <= (n.end_lineno or n.lineno)]
        if not named:
            return 0, -1
        node = named[-1]
    first = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
    return first, node.end_lineno or node.lineno
