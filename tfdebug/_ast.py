"""Compatibility names for readers not yet moved to :mod:`tfdebug._source` (one layer)."""
from ._source import attribute_chain  # noqa: F401
from ._vocab import KERAS_LOOPS  # noqa: F401
