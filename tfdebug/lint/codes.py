"""The one table of what lint finds: check name -> (recipe id, category), and file codes."""
from __future__ import annotations

# check name -> (recipe id, category). The one table of what lint cites; a test asserts
# that every id exists in recipes/ with this category.
CHECKS: dict[str, tuple[str, str]] = {
    "tensor-bool": ("TFD101", "tensor-as-bool"),
    "tensor-bool-keras": ("TFD105", "tensor-as-bool"),
    "nonbool-condition": ("TFD102", "tensor-as-bool"),
    "assert-tensor": ("TFD103", "tensor-as-bool"),
    "in-list": ("TFD104", "tensor-as-bool"),
    "set-seed-tensor": ("TFD106", "tensor-as-bool"),
    "iterate-tensor": ("TFD110", "tensor-iteration"),
    "enumerate-tensor": ("TFD111", "tensor-iteration"),
    "comprehension-tensor": ("TFD112", "tensor-iteration"),
    "append-in-graph-loop": ("TFD115", "out-of-scope-tensor"),
    "unhashable": ("TFD118", "unhashable-tensor"),
    "len-tensor": ("TFD120", "unknown-length"),
    "try-except": ("TFD125", "unsupported-syntax"),
    "yield": ("TFD126", "unsupported-syntax"),
    "return-in-graph-loop": ("TFD127", "unsupported-syntax"),
    "shared-lambda-line": ("TFD130", "autograph-conversion"),
    "autograph-declines": ("TFD132", "autograph-conversion"),
    "variable-in-body": ("TFD135", "variable-creation"),
    "keras-object-in-body": ("TFD136", "variable-creation"),
    "numpy-method": ("TFD140", "numpy-in-graph"),
    "numpy-call": ("TFD141", "numpy-in-graph"),
    "numpy-in-data": ("TFD145", "data-pipeline"),
    "loop-var-grows": ("TFD150", "loop-var-shape"),
    "loop-var-dtype": ("TFD151", "loop-var-shape"),
    "branch-undefined": ("TFD155", "branch-mismatch"),
    "branch-structure": ("TFD156", "branch-mismatch"),
    "keras-call-tf-function": ("TFD165", "keras-misuse"),
    "py-function-shape": ("TFD170", "unknown-shape"),
    "fstring-tensor": ("TFD175", "string-format"),
    "format-spec-tensor": ("TFD176", "string-format"),
    "percent-format-tensor": ("TFD177", "string-format"),
    "keras-loop-in-graph": ("TFD167", "keras-misuse"),
    "list-index-tensor": ("TFD119", "unhashable-tensor"),
    "tf-function-in-loop": ("TFD204", "retracing"),
    "shape-changing-arg": ("TFD200", "retracing"),
    "python-scalar-arg": ("TFD202", "retracing"),
    "stale-global": ("TFD210", "stale-capture"),
    "print": ("TFD300", "trace-time-side-effect"),
    "global-write": ("TFD301", "trace-time-side-effect"),
    "container-mutation": ("TFD302", "trace-time-side-effect"),
    "attribute-mutation": ("TFD303", "trace-time-side-effect"),
    "python-random": ("TFD304", "trace-time-side-effect"),
    "python-clock": ("TFD305", "trace-time-side-effect"),
    "python-io": ("TFD306", "trace-time-side-effect"),
    "python-input": ("TFD307", "trace-time-side-effect"),
    "stale-capture": ("TFD308", "trace-time-side-effect"),
    "tensor-array-dropped": ("TFD311", "trace-time-side-effect"),
    "float-meets-int": ("TFD161", "dtype-mismatch"),
    "keras-training-flag": ("TFD320", "keras-training-flag"),
}


# Confidence, as pylint marks it. A check is `proven` when its finding follows from what the
# module shows (a decorator, a literal, a call it can see); these checks rest instead on the
# project's usual shape and are reported only with preview (`--preview`, or `preview = true`
# in [tool.tfdebug]). Checks with a proven and an inferred branch pass `inferred=True` to
# `report` on the inferred one.
INFERRED: frozenset[str] = frozenset({
    # "Keras compiles `call` already": true only in projects that train with fit/compile
    "keras-call-tf-function",
    # the shape is unknown (proven), but it harms only a pipeline that feeds a layer needing
    # it, which the module need not show
    "py-function-shape",
})

# Codes for files that could not be checked (flake8's spelling): unreadable, syntax error,
# and a failure of the checker itself (reported, never raised).
READ_ERROR, SYNTAX_ERROR, INTERNAL_ERROR = "E902", "E999", "E900"
# A part of a file the checker could not analyse (too deep, syntax it does not know): the
# line says where; the rest of the file is still checked.
UNCHECKED = "E903"
