"""The category vocabulary of recipes and findings (DESIGN.md), in a module that imports
nothing: the command line names them for every command, ``tfdebug run`` included."""

CATEGORIES = (
    "tensor-as-bool", "tensor-iteration", "out-of-scope-tensor", "unhashable-tensor",
    "unknown-length", "unsupported-syntax", "autograph-conversion", "variable-creation",
    "retracing", "trace-time-side-effect", "stale-capture", "numpy-in-graph",
    "loop-var-shape", "branch-mismatch", "string-format", "unknown-shape", "dtype-mismatch",
    "keras-training-flag", "keras-misuse", "data-pipeline", "distribute",
)
