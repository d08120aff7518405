"""``tfdebug lint``: find tf.function / AutoGraph pitfalls in source, without running it.

The checker reads Python source with :mod:`ast` only: it never imports or runs the code it
checks, and imports no TensorFlow itself. It first works out which code runs as a graph
(``@tf.function`` in any spelling, ``tf.function(fn)``, Keras ``call``/``train_step``/...,
``tf.data`` ``map``/``filter`` functions, Keras metric/loss functions, and the same-module
helpers they call), and whether AutoGraph converts it. Then it follows which local names hold
symbolic tensors and reports the constructs that fail or misbehave there. When a value's
tensor-ness is unknown it stays silent: a false alarm costs more than a missed finding.
What TF/Keras calls return comes from ``tf_api.json``, generated from TensorFlow itself by
``tools/tf_api.py``. Each finding is ``proven`` or ``inferred`` (``codes.INFERRED``, and
branches that say so); inferred ones are reported with ``preview`` only. A part the checker
cannot analyse gives an ``E903`` line, and the rest of the file is still checked.

Every check cites a recipe (``CHECKS``), so ``tfdebug explain TFD101`` tells the whole story.

The package: ``codes`` (the check table), ``findings``, ``apis``/``values``/``kinds`` (what
names and expressions give), ``facts`` (module facts), ``entries`` (what runs as a graph),
``expressions``/``walker`` (traversal), ``checks/`` (one module per recipe category group),
``driver`` (one module's analysis, and ``findings_at`` for the explainer), ``config``,
``files``, ``notebooks``, ``output`` (text, JSON, GitHub annotations, SARIF), ``cli``.

Example::

    from tfdebug import lint
    for finding in lint.lint_source("@tf.function\\ndef f(x):\\n    return x.numpy()\\n",
                                    "f.py", header="import tensorflow as tf\\n"):
        print(finding.text())
"""
# The names below are loaded on first use (PEP 562): the explainer's ``findings_at`` needs
# the analysis alone, not the file walker, configuration, output formats or command line.
_EXPORTS = {
    "codes": ("CHECKS", "INFERRED", "INTERNAL_ERROR", "READ_ERROR", "SYNTAX_ERROR", "UNCHECKED"),
    "config": ("Options", "PerFileConfig", "check_selectors", "load_config", "options_from"),
    "driver": ("analyse", "findings_at"),
    "files": ("DEFAULT_EXCLUDE", "collect_files", "lint_file", "lint_paths", "lint_source",
              "read_source", "suppressed"),
    "findings": ("LintFinding", "LintUsageError"),
    "output": ("FORMATS", "render"),
    "cli": ("main",),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name: str):
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_HOME))


__all__ = ["CHECKS", "DEFAULT_EXCLUDE", "FORMATS", "INFERRED", "INTERNAL_ERROR", "LintFinding",
           "LintUsageError", "Options", "PerFileConfig", "READ_ERROR", "SYNTAX_ERROR",
           "UNCHECKED", "analyse",
           "check_selectors",
           "collect_files", "findings_at", "lint_file", "lint_paths", "lint_source",
           "load_config", "main", "options_from", "read_source", "render", "suppressed"]
