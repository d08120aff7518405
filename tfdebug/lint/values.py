"""What the checker knows of a value: its kind (tensor, list, model, ...) and dtype family."""
from __future__ import annotations

from collections import namedtuple


class Kind(namedtuple("Kind", "what dtype", defaults=(None,))):
    """What the checker knows of a value: ``what`` and, for tensors, the dtype family.

    ``what``: tensor | tensors | dataset | model | list | dict | set | scalar | str | tape.
    """

    __slots__ = ()


TENSOR = Kind("tensor")
SCALAR = Kind("scalar")


def _is_tensor(kind) -> bool:
    return kind is not None and kind.what == "tensor"


def _join(a, b):
    return a if a == b else None
