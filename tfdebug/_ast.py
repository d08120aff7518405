"""Small AST helpers shared by the source readers (diagnose, side effects, lint)."""
from __future__ import annotations

import ast

# Keras' own loops: they iterate, convert to NumPy and branch in Python, so they cannot run
# inside a tf.function (diagnose blames them, lint flags them).
KERAS_LOOPS = frozenset({"fit", "evaluate", "predict", "predict_on_batch", "train_on_batch",
                         "test_on_batch"})


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
