"""Small AST helpers shared by the source readers (diagnose, side effects, lint)."""
from __future__ import annotations

import ast


def attribute_chain(node: ast.AST) -> tuple[list[str], bool]:
    """The names of ``a.b.c`` as ``(["a", "b", "c"], True)``.

    The flag is False when the chain does not start at a plain name (``f().b.c`` gives
    ``(["b", "c"], False)``); callers decide whether a partial chain is useful.
    """
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    rooted = isinstance(node, ast.Name)
    if rooted:
        parts.append(node.id)
    return parts[::-1], rooted
