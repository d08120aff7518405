"""What the checker knows of a value: its kind (tensor, list, model, ...) and dtype family."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Kind:
    """What the checker knows of a value: ``what`` and, for tensors, the dtype family."""

    what: str           # tensor | tensors | dataset | model | list | dict | set | scalar | str | tape
    dtype: str | None = None


TENSOR = Kind("tensor")


SCALAR = Kind("scalar")


def _is_tensor(kind) -> bool:
    return kind is not None and kind.what == "tensor"


def _join(a, b):
    return a if a == b else None
