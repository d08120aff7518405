"""Find the Python side effects in the source of a function that is being traced.

Static analysis of the user's own source (``ast``, real line numbers), made precise with
facts only the live trace has: which names are globals or closure cells, which objects
those names hold (a captured list vs. one created inside the function), which object a
method is bound to. Calls to user functions, methods and Keras layers are followed, so a
``print`` in a helper or in ``Model.call`` is found where it is written.

``find(fn, instance)`` returns :class:`Effect` records; ``side_effects`` decides what to
report. Nothing here raises: an unreadable source yields no effects.
"""
from .finder import ENTRY_METHODS, MAX_DEPTH, MUTATORS, Effect, find, user_entry_points
from .names import CALLS

__all__ = ["CALLS", "ENTRY_METHODS", "MAX_DEPTH", "MUTATORS", "Effect", "find", "user_entry_points"]
