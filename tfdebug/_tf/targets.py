"""What a trace is of: the user's function, its bound object, a key per tf.function.

The trace hook hands over TF's TracingOptions and canonical FunctionType. These helpers
turn them into plain Python: the user's function and bound object, a key per tf.function
object, and a neutral description of each argument's TraceType. Every private access
falls back to a less precise answer instead of raising.
"""
from __future__ import annotations

import functools
import importlib
import re

import tensorflow as tf

from .versions import log


def is_tf_function(obj) -> bool:
    """True for a ``tf.function`` object (not a ConcreteFunction, not a plain callable)."""
    kinds = tuple(getattr(tf.types.experimental, name) for name in
                  ("PolymorphicFunction", "GenericFunction") if hasattr(tf.types.experimental, name))
    return bool(kinds) and isinstance(obj, kinds)


@functools.lru_cache(maxsize=None)
def _module(name: str):
    """TF's module ``name``, or None when this TensorFlow has none: imported once (asked at
    every trace, an in-function ``from ... import`` costs a Python call each time)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _unwrap_decorators(fn):
    try:
        return _module("tensorflow.python.util.tf_decorator").unwrap(fn)[1]
    except Exception:  # noqa: BLE001 - older layouts: follow __wrapped__ as functools does
        seen = set()
        while hasattr(fn, "__wrapped__") and id(fn) not in seen:
            seen.add(id(fn))
            fn = fn.__wrapped__
        return fn


def _method_parts(fn):
    """(function, instance) of a bound method; tf.function binds through a weak target."""
    import types

    if not isinstance(fn, types.MethodType):
        return fn, None
    target = fn.__self__
    try:
        from tensorflow.python.eager.polymorphic_function.tf_method_target import TfMethodTarget
        if isinstance(target, TfMethodTarget):
            target = target.target
    except ImportError:
        pass
    return fn.__func__, target


def _data_function(fn):
    """The user's function inside a tf.data wrapper (``Dataset.map(fn)``), or None."""
    if "StructuredFunctionWrapper" not in getattr(fn, "__qualname__", ""):
        return None
    try:
        from tensorflow.python.data.ops.structured_function import StructuredFunctionWrapper
    except ImportError:
        return None
    wrapper = _closure_value(fn, lambda value: isinstance(value, StructuredFunctionWrapper))
    return getattr(wrapper, "_func", None)


def _replica_function(fn):
    """The user's tf.function that ``strategy.run`` re-wrapped to run on each replica."""
    if not getattr(fn, "__qualname__", "").endswith("call_for_each_replica.<locals>.wrapped_fn"):
        return None
    function = _closure_value(fn, is_tf_function)
    return function.python_function if function is not None else None


def _closure_value(fn, wanted):
    """The first value captured by ``fn``'s closure for which ``wanted(value)``, or None."""
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if wanted(value):
            return value
    return None


def traced_target(tracing_options) -> tuple[object, object, str]:
    """(function, bound instance or None, kind) of a trace.

    kind is "function", "data" (a tf.data function) or "replica" (a tf.function that
    ``strategy.run`` runs on each replica). The function is the user's own Python function,
    with tf.function's, AutoGraph's, tf.data's and tf.distribute's wrappers removed, so its
    ``__code__`` is the source the user wrote.
    """
    fn = _unwrap_decorators(getattr(tracing_options, "python_function", None))
    kind = "function"
    inner = _data_function(fn)
    if inner is not None:
        fn, kind = _unwrap_decorators(inner), "data"
    else:
        inner = _replica_function(fn)
        if inner is not None:
            fn, kind = _unwrap_decorators(inner), "replica"
    fn, instance = _method_parts(fn)
    return fn, instance, kind


def is_internal_function(fn) -> bool:
    """True for TensorFlow's own bookkeeping functions (variable initializers, ...)."""
    module = getattr(fn, "__module__", None) or ""
    return module.startswith("tensorflow.python.eager")


def trace_scope(tracing_options) -> str:
    """The variable scope of a trace: "VARIABLE_CREATION", "NO_VARIABLE_CREATION" or ""."""
    scope = getattr(tracing_options, "scope_type", None)
    return getattr(scope, "name", "") or ""


def tf_function_key(tracing_options):
    """A hashable key per tf.function object that does not keep the object alive."""
    import weakref

    captures = getattr(tracing_options, "function_captures", None)
    if captures is not None:
        try:
            return weakref.ref(captures)
        except TypeError:
            pass
    return ("cache", id(getattr(tracing_options, "function_cache", None)))


_SPEC_NOISE = re.compile(r"TensorSpec\(shape=(\([^)]*\)|<unknown>), dtype=tf\.(\w+), name=None\)")


def _short_spec(match) -> str:
    return f"{match.group(2)} {match.group(1)}"


def describe_trace_type(trace_type):
    """A TraceType as plain tuples, so callers never touch TF's type classes:

    ("tensor", shape tuple or None, dtype name), ("value", python value),
    ("object", type name, weakref or None, id), ("tuple" | "list", [items]),
    ("namedtuple", type name, [(field, item)]), ("dict", [(key, item)]),
    ("replicated", type name, count, item) for per-replica values whose replicas agree,
    ("spec", text) for anything else.
    """
    dt = _module("tensorflow.core.function.trace_type.default_types")
    if dt is None:  # pragma: no cover - layout change: compare by text only
        return ("spec", str(trace_type))
    try:
        if isinstance(trace_type, tf.TensorSpec):
            shape = trace_type.shape
            dims = None if shape.rank is None else tuple(shape.as_list())
            return ("tensor", dims, trace_type.dtype.name)
        if isinstance(trace_type, tf.TypeSpec):
            # tf.distribute values (PerReplicaSpec, ...) hold one spec per replica.
            parts = getattr(trace_type, "_component_specs", None)
            if (isinstance(parts, (tuple, list)) and len(parts) > 1
                    and all(isinstance(p, tf.TensorSpec) and p == parts[0] for p in parts)):
                return ("replicated", type(trace_type).__name__.removesuffix("Spec"),
                        len(parts), describe_trace_type(parts[0]))
            return ("spec", _SPEC_NOISE.sub(_short_spec, str(trace_type)))
        if isinstance(trace_type, dt.Literal):
            value = trace_type.value
            if isinstance(value, type) and value.__name__ == "NanMarker":
                value = float("nan")
            return ("value", value)
        if isinstance(trace_type, dt.Weakref):
            ref = trace_type._ref
            obj = ref()
            return ("object", type(obj).__name__ if obj is not None else "object", ref, id(obj))
        if isinstance(trace_type, dt.NamedTuple):
            items = [describe_trace_type(c) for c in trace_type.attributes.components]
            return ("namedtuple", trace_type.type_name, list(zip(trace_type.attribute_names, items)))
        if isinstance(trace_type, dt.Attrs):
            named = trace_type.named_attributes
            items = [describe_trace_type(c) for c in named.attributes.components]
            return ("namedtuple", named.type_name, list(zip(named.attribute_names, items)))
        if isinstance(trace_type, dt.List):
            return ("list", [describe_trace_type(c) for c in trace_type.components_tuple.components])
        if isinstance(trace_type, dt.Tuple):
            return ("tuple", [describe_trace_type(c) for c in trace_type.components])
        if isinstance(trace_type, dt.Dict):
            return ("dict", [(k, describe_trace_type(v)) for k, v in trace_type.mapping.items()])
    except Exception:  # noqa: BLE001 - an unexpected layout degrades to text
        log.debug("tfdebug: cannot describe trace type %r", trace_type, exc_info=True)
    return ("spec", str(trace_type))


def function_target(obj) -> tuple[object, object, object]:
    """(Python function, bound instance, tf.function key or None) for what a user names:
    a tf.function (also one bound to an object), a method, or a plain function."""
    key = None
    if is_tf_function(obj):
        captures = getattr(obj, "_function_captures", None)
        if captures is not None:
            import weakref
            key = weakref.ref(captures)
        obj = getattr(obj, "python_function", obj)
    fn, instance = _method_parts(_unwrap_decorators(obj))
    return fn, instance, key


def unknown_rank_elements(value) -> bool:
    """``value`` is a tf.data Dataset with an element of unknown rank in its element spec."""
    if not isinstance(value, tf.data.Dataset):
        return False
    try:
        specs = tf.nest.flatten(value.element_spec)
    except Exception:  # noqa: BLE001 - an odd spec: no claim
        return False
    return any(getattr(getattr(spec, "shape", None), "rank", 0) is None for spec in specs)


_PY_FUNCTION_OPS = frozenset({"EagerPyFunc", "PyFunc", "PyFuncStateless"})


def shape_lost_in_pipeline(value, is_user, py_function_only=False) -> tuple[str, int, str] | None:
    """``(file, line, function)`` of the user line whose op lost the static shape of a tf.data
    Dataset's features (the element's first component, or all of it when it is not a tuple):
    in the graph of a function the pipeline runs (``map``), the op whose output has an
    unknown dimension or rank although every input it was given is fully known
    (``tf.py_function``'s output); its creation stack names the line. Datasets are followed
    through their inputs; None when no such op is found (``py_function_only``: or when that
    op is not a ``tf.py_function``/``tf.numpy_function``)."""
    from .data_replay import pipeline_functions
    from .locations import op_user_site

    if not isinstance(value, tf.data.Dataset):
        return None
    try:
        for wrapper in pipeline_functions(value):
            graph = getattr(getattr(wrapper, "function", None), "graph", None)
            if graph is None:
                continue
            outputs = list(graph.outputs)
            structure = getattr(wrapper, "output_structure", None)
            if isinstance(structure, tuple) and structure:
                outputs = outputs[:len(tf.nest.flatten(structure[0]))]
            for output in outputs:
                op = _shape_loser(output)
                if op is not None and (op.type in _PY_FUNCTION_OPS or not py_function_only):
                    return op_user_site(op, is_user)
    except Exception:  # noqa: BLE001 - another TensorFlow's layout: no claim
        log.debug("tfdebug: reading the pipeline's graphs failed", exc_info=True)
    return None


def _shape_loser(tensor):
    """Back from ``tensor`` through ops with unknown output shapes to the first op whose data
    inputs are all fully defined (the op that lost the shape), else None."""
    stack, seen = [tensor], set()
    while stack:
        current = stack.pop()
        if current.shape.is_fully_defined() or id(current.op) in seen:
            continue
        seen.add(id(current.op))
        inputs = [t for t in current.op.inputs if t.dtype != tf.resource]
        unknown = [t for t in inputs if not t.shape.is_fully_defined()]
        if inputs and not unknown:
            return current.op
        stack.extend(unknown)
    return None


_REFUSED_BY_XLA = re.compile(r"No registered '(\w+)' OpKernel for XLA")


def xla_refused_op_kinds(message: str) -> frozenset:
    """What the ops XLA refused to compile (named in TensorFlow's "Detected unsupported
    operations" message) are, from their registered op definitions: "python" for the ops
    ``tf.py_function``/``tf.numpy_function`` make, "string" for an op with a string input or
    output or asked for with a string type attribute, "other" for the rest (an op TensorFlow
    does not know: "other")."""
    try:
        from tensorflow.python.framework import op_def_registry
    except ImportError:  # another layout: nothing known of any op
        op_def_registry = None
    kinds = set()
    text = message[:1 << 16]
    found = list(_REFUSED_BY_XLA.finditer(text))
    for match, after in zip(found, found[1:] + [None]):
        name = match.group(1)
        if name in _PY_FUNCTION_OPS:
            kinds.add("python")
            continue
        if "=DT_STRING" in text[match.end():after.start() if after is not None else len(text)]:
            kinds.add("string")  # a kernel exists, not for strings: "Requested Attributes: T=DT_STRING"
            continue
        try:
            op_def = op_def_registry.get(name) if op_def_registry is not None else None
        except Exception:  # noqa: BLE001 - another layout: nothing known of the op
            op_def = None
        args = list(op_def.input_arg) + list(op_def.output_arg) if op_def is not None else []
        kinds.add("string" if any(arg.type == tf.string.as_datatype_enum for arg in args) else "other")
    return frozenset(kinds)
