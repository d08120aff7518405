"""What the checker knows of a value: its kind (tensor, list, model, ...) and dtype family."""
from __future__ import annotations

from collections import namedtuple


class Kind(namedtuple("Kind", "what dtype", defaults=(None,))):
    """What the checker knows of a value: ``what`` and, for tensors, the dtype family.

    ``what``: tensor | tensors | element | dataset | model | list | dict | set | scalar |
    str | tape. An ``element`` is what a tf.data function gets: a tensor or a nested
    structure (tuple, dict) of them, so it is symbolic but may not be one tensor.
    """

    __slots__ = ()


TENSOR = Kind("tensor")
SCALAR = Kind("scalar")
ELEMENT = Kind("element")


def _is_tensor(kind) -> bool:
    return kind is not None and kind.what == "tensor"


def _is_symbolic(kind) -> bool:
    """A tensor, or a structure of tensors: NumPy, hashing and formatting fail on both."""
    return kind is not None and kind.what in ("tensor", "element")


def _join(a, b):
    return a if a == b else None
