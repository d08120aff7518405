"""What a generic diagnosis can honestly say: the category, from where TensorFlow raised it.

When no recipe fits, the category still comes from TensorFlow itself: the module and
function of its *raise site* (AutoGraph's loop checks raise loop-variable errors, cond_v2's
output checks raise branch mismatches, ...), else the exception class when every recipe
naming that class agrees on one category. Anything less certain gives no category: a
wrong one is worse than none.
"""
from __future__ import annotations

import ast
import builtins
import collections
import functools
import re

from . import recipebook
from ._extract import (TF_DATA_DIR, library_module, names_graph_tensor_class, raised_in_native_call,
                       refused_in_keras, tb_frames)

# (module of TensorFlow/Keras, function raising there, category). Only raise sites whose
# every message is of that category (read from the installed sources); other frames of the
# innermost library stretch are skipped (nest, ops, tensor_shape are used by everything).
_LOOP_ENTRY = r"tensorflow/python/(ops/while_loop\.py|autograph/operators/control_flow\.py)"
_COND_ENTRY = (r"tensorflow/python/(ops/cond(_v2)?\.py|ops/control_flow_switch_case\.py"
               r"|framework/smart_cond\.py|autograph/operators/control_flow\.py)")
_RAISE_SITES = (
    ("tensorflow/python/autograph/operators/control_flow.py",
     r"_verify_single_loop_var|verify_loop_init_vars|verify_tf_loop_vars|_disallow_undefs_into_loop",
     "loop-var-shape"),
    ("tensorflow/python/autograph/operators/control_flow.py",
     r"_verify_tf_cond_branch_vars|_verify_tf_cond_vars|verify_single_cond_var", "branch-mismatch"),
    ("tensorflow/python/autograph/operators/control_flow.py", r"_verify_tf_condition", "tensor-as-bool"),
    ("tensorflow/python/ops/cond_v2.py",
     r"_check_same_outputs|_make_output_composite_tensors_match|_make_indexed_slices_indices_types_match"
     r"|_get_compatible_spec|error$", "branch-mismatch", _COND_ENTRY),
    ("tensorflow/python/ops/while_v2.py", r"_check_shapes_compat|_check_inputs_outputs_types_match",
     "loop-var-shape", _LOOP_ENTRY),
    # wrapped_body raises nothing itself: its nest check of the body's outputs against the
    # loop variables is the only library call below the user's body that can fail there.
    ("tensorflow/python/ops/while_v2.py", r"wrapped_body$", "loop-var-shape", _LOOP_ENTRY),
    ("tensorflow/python/ops/while_loop.py", r"_enforce_shape_invariant|_shape_invariant_to_type_spec",
     "loop-var-shape", _LOOP_ENTRY),
    ("tensorflow/python/data/ops/structured_function.py", r".", "data-pipeline"),
    # dataset constructors validate the user's functions and arguments (filter's predicate,
    # flat_map's return, zip's inputs, ...); iteration raises elsewhere
    ("tensorflow/python/data/ops/", r"__init__$", "data-pipeline"),
    ("tensorflow/python/distribute/", r".", "distribute"),
    ("keras/src/backend/common/keras_tensor.py", r".", "keras-misuse"),
    # a Keras Variable refuses to be a Python bool (``if self.bias:``), traced or not
    ("keras/src/backend/common/variables.py", r"__bool__$", "tensor-as-bool"),
)
# A site with an entry pattern (a 4th field) counts only when the user called that API
# itself: tf.map_fn and tf.scan build a while_loop, and their own mistakes are not a loop the
# user wrote. The entry is the API module nearest the user's frame, skipping the call
# wrappers in between (dispatch, deprecation, traceback filtering, AutoGraph's converted_call).
_DECORATORS = ("tensorflow/python/util/", "tensorflow/python/autograph/impl/")
_DEFAULT_DOCS = "https://www.tensorflow.org/guide/function"
_TENSOR_CLASS = "tensorflow/python/framework/tensor.py"


# Raise sites that refuse a static shape for being unknown (read from their sources): the
# category is unknown-shape only when an operand at the user's line has such a shape too.
_SHAPE_SITES = (
    ("tensorflow/python/framework/tensor_shape.py", r"(as_list|__iter__|__len__|assert_is_fully_defined)$"),
    ("tensorflow/python/framework/constant_op.py", r"_tensor_shape_tensor_conversion_function$"),
    ("tensorflow/python/ops/array_ops.py", r"unstack$"),
    ("keras/src/backend/common/variables.py", r"_validate_shape$"),
)


# Python (or NumPy) refusing None where it needs a number: an unknown static dimension is
# None, so when the user's line reads a ``.shape`` that holds one, that is where it came from.
_NONE_REFUSED = re.compile(r"\bNoneType\b")


def _unknown_operand(extracted) -> str | None:
    """A static-shape category when the innermost raise site needs a static shape (or Python
    refused a None) and a tensor or ``.shape`` at the user's line holds an unknown rank or
    dimension in the user's frame: unknown-shape when a rank is unknown (the shape itself
    was lost), else unknown-length (a dimension, such as the batch axis, known only when the
    graph runs: ``tf.zeros(x.shape)``, ``int(x.shape[0])``)."""
    stretch = next(iter(_library_stretches(extracted)), ())
    at_shape_site = bool(stretch) and any(
        stretch[0][0] == module and re.match(functions, stretch[0][1]) for module, functions in _SHAPE_SITES)
    refused_none = not at_shape_site and bool(extracted.messages) \
        and _NONE_REFUSED.search(extracted.messages[0][-8192:]) is not None
    if not (at_shape_site or refused_none):
        return None
    from ._operands import dims, is_unknown, line_shapes, user_frame

    location = next((locs[0] for locs in extracted.locations if locs), None)
    if location is None:
        return None
    frame = user_frame(extracted.chain[0], location.file, location.line)
    unknown = [value for text, value in line_shapes(frame, location.file, location.line)
               if is_unknown(value) and (at_shape_site or ".shape" in text)]
    if not unknown:
        return None
    return "unknown-shape" if any(v is not None and dims(v) is None for v in unknown) else "unknown-length"


def _site_category(module: str, function: str, entry: str) -> str | None:
    for prefix, functions, category, *entries in _RAISE_SITES:
        if module.startswith(prefix) and re.match(functions, function or "") and (
                not entries or re.match(entries[0], entry)):
            return category
    return None


def _entry(stretch) -> str:
    """The library module the user's code called into (its decorators skipped)."""
    modules = [module for module, _ in stretch if not module.startswith(_DECORATORS)]
    return modules[-1] if modules else ""


def _library_stretches(extracted):
    """Per exception of the chain, innermost exception first: (module, function) of the
    library frames below its last user frame, innermost first. An inner exception whose own
    traceback holds no user frame (TensorFlow caught and re-raised it) continues in the next
    one out; once a user frame is reached, outer exceptions are not TensorFlow's check."""
    for exc in reversed(extracted.chain):
        stack = getattr(getattr(exc, "ag_error_metadata", None), "translated_stack", None) or ()
        translated = [(getattr(fs, "filename", None), str(getattr(fs, "function_name", "") or ""))
                      for fs in list(stack)[:200]]
        # AutoGraph's stack maps generated code back to the user's, but was taken from a
        # traceback a filter may have cut; the traceback with the frames the filters
        # dropped put back (when kept) can reach deeper, down to the raise site
        traced = [(frame.f_code.co_filename, frame.f_code.co_name) for frame, _ in reversed(tb_frames(exc))]
        stretch, reached_user = max((_stretch(frames) for frames in (translated, traced) if frames),
                                    key=lambda found: len(found[0]), default=([], False))
        if stretch:
            yield stretch
        if reached_user:
            return


def _stretch(frames) -> tuple[list, bool]:
    """(the library frames before the first user or generated frame, whether one was
    reached) of ``frames``, innermost first."""
    stretch = []
    for filename, function in frames:
        module = library_module(filename)
        if not module:
            return stretch, True  # a user (or generated) frame: what called it is not TF's check
        stretch.append((module, function))
    return stretch, False


def _python_call_on_symbolic_tensor(extracted) -> bool:
    """Python itself (a builtin, a ``str`` method, ``os.path``, NumPy), not TensorFlow, refused
    a graph tensor: its message names the operand's class, quoted or not (``not
    'SymbolicTensor'``, ``not SymbolicTensor``, ``'SymbolicTensor' object has no attribute``)."""
    from . import _tf

    site = extracted.raise_site
    if site is not None and site.module.startswith(("tensorflow/", "keras/")) \
            and site.module != _TENSOR_CLASS:  # the tensor itself refusing an attribute is Python's
        # Python's builtin refusing it inside Keras' code counts only in a tf.data function;
        # in a tf.function the Keras API at the line is TFD187's (keras-static-argument)
        return _native_refusal(extracted) or ("tf.data" in extracted.tags
                                              and refused_in_keras(extracted.chain))
    head = extracted.messages[0][-8192:] if extracted.messages else ""
    pattern = _tf.symbolic_tensor_repr()  # NumPy shows the tensor itself: got '<tf.Tensor 'x:0' ...>'
    return names_graph_tensor_class(head) or (pattern is not None and pattern.search(head) is not None)


def _native_refusal(extracted) -> bool:
    """Native code TensorFlow's Python called (a pybind11 binding wanting a ``str``) refused
    a graph tensor: a TypeError raised below TensorFlow's innermost frame while it was
    calling, whose message shows the graph tensor's repr (``<tf.Tensor 'args_0:0' ...>``).
    TensorFlow's own Python refusing a tensor (a dtype check) raises in a frame of its own."""
    from . import _tf

    pattern = _tf.symbolic_tensor_repr()
    for exc in extracted.chain:
        if isinstance(exc, TypeError) and pattern is not None \
                and library_module(raised_in_native_call(exc) or "") \
                and pattern.search(str(exc)[-8192:]) is not None:
            return _called_by_tf_data(exc)
    return False


def _called_by_tf_data(exc) -> bool:
    """tf.data's code is outside the innermost user frame: tf.data called (traced) the
    user's function, rather than the user's code calling a tf.data API."""
    files = [frame.f_code.co_filename for frame, _ in tb_frames(exc)]
    users = [i for i, name in enumerate(files) if not library_module(name)]
    return bool(users) and any(TF_DATA_DIR in name for name in files[:users[-1]])


# What kind of Python API refused a symbolic tensor, from the module it comes from (resolved
# through the user's imports) or the method Python found missing on the tensor: NumPy wants
# the tensor's value (numpy-in-graph); str/bytes/path/JSON APIs want a Python string, which a
# graph tensor is not while it is traced (string-format).
_NUMPY_ROOTS = frozenset({"numpy"})
_TF_ROOTS = frozenset({"tensorflow", "keras", "tf_keras"})
_STRING_ROOTS = frozenset({"os", "posixpath", "ntpath", "genericpath", "pathlib", "glob", "shutil",
                           "json", "re", "string", "codecs", "base64", "fnmatch", "urllib"})
_STRING_BUILTINS = frozenset({"open", "ord"})
# Builtins and modules that need a Python number: the tensor's value, which a graph tensor
# does not have while it is traced (as NumPy would need it).
_NUMBER_BUILTINS = frozenset({"float", "int", "complex", "round"})
_NUMBER_ROOTS = frozenset({"math", "cmath", "statistics", "fractions", "decimal"})
# str/bytes methods that no container has (`count`, `index` would be a list's just as well)
_STRING_METHODS = frozenset(n for n in (set(dir(str)) | set(dir(bytes))) - set(dir(list))
                            - set(dir(tuple)) - set(dir(dict)) if not n.startswith("_"))
_MISSING_ATTRIBUTE = re.compile(r"object has no attribute '(\w+)'")


def _refusing_api(extracted) -> str | None:
    """The category of the Python API at the blamed user line that refused the symbolic
    tensor, when every such call there is of one kind; else None."""
    from ._source import dotted_parts, import_bindings, line_nodes, module_tree, statement_at

    location = next((locs[0] for locs in extracted.locations if locs), None)
    tree = module_tree(location.file) if location is not None else None
    stmt = statement_at(tree, location.line) if tree is not None else None
    if stmt is None:
        return None
    missing = _MISSING_ATTRIBUTE.search(extracted.messages[0][-8192:])
    if missing is not None:  # Python looked up a method on the tensor itself
        return "string-format" if missing.group(1) in _STRING_METHODS else None
    bindings = {name: module for node in ast.walk(tree) for name, module in import_bindings(node).items()}
    kinds = set()
    for node in line_nodes(stmt, location.line):
        if not isinstance(node, ast.Call):
            continue
        parts = dotted_parts(node.func)
        root = bindings.get(parts[0], parts[0] if len(parts) > 1 else "").split(".")[0] \
            if parts else ""
        if root in _TF_ROOTS or (parts == ["len"] and "len" not in bindings
                                 and _tensor_argument(node, extracted, location)):
            # TensorFlow's own APIs take tensors, and `len` of a tensor is TensorFlow's to
            # refuse (Tensor.__len__, in its own words) or AutoGraph's to answer: not the
            # refusing call. `len(obj)` of an object whose __len__ returns a tensor is
            # Python's refusal, of unknown kind.
            continue
        if root in _NUMPY_ROOTS | _NUMBER_ROOTS or (
                parts is not None and len(parts) == 1 and parts[0] in _NUMBER_BUILTINS
                and parts[0] not in bindings):
            kinds.add("numpy-in-graph")
        elif root in _STRING_ROOTS or (parts is not None and len(parts) == 1
                                        and parts[0] in _STRING_BUILTINS
                                        and parts[0] not in bindings):
            kinds.add("string-format")
        else:  # a call of unknown kind (`int(t)`, a method) may be the one that refused
            return None
    return kinds.pop() if len(kinds) == 1 else None


def _tensor_argument(call: ast.Call, extracted, location) -> bool:
    """The call's one argument is a plain name holding a tensor in the user's frame."""
    from ._operands import tensor_like, user_frame

    if len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Name):
        return False
    frame = user_frame(extracted.chain[0], location.file, location.line)
    return frame is not None and tensor_like(frame.f_locals.get(call.args[0].id))


def generic_category(extracted) -> str | None:
    """The category TensorFlow's raise site or the exception class implies, or None."""
    # A tf.data function is always traced: Python code in it sees symbolic tensors.
    if _python_call_on_symbolic_tensor(extracted):
        if "tf.data" in extracted.tags:
            return "data-pipeline"
        refused = _refusing_api(extracted)
        if refused is not None:
            return refused
    static = _unknown_operand(extracted)
    if static is not None:
        return static
    for stretch in _library_stretches(extracted):
        entry = _entry(stretch)
        for module, function in stretch:
            category = _site_category(module, function, entry)
            if category is not None:
                return category
    for names in extracted.class_names[:1]:
        for name in names:
            category = _class_category(name)
            if category is not None:
                return category
    return None


@functools.lru_cache(maxsize=64)
def _class_category(name: str) -> str | None:
    """The category of a non-builtin exception class all of whose recipes agree, else None."""
    if hasattr(builtins, name):
        return None
    categories = {recipe.category for recipe in recipebook.naming_error(name)}
    return categories.pop() if len(categories) == 1 else None


@functools.lru_cache(maxsize=32)
def generic_docs(category: str | None) -> str:
    """Where to read more: the page most recipes of ``category`` cite, else the tf.function guide."""
    if category not in recipebook.CATEGORIES:
        return _DEFAULT_DOCS
    counts = collections.Counter(r.docs for r in recipebook.by_category(category) if r.docs)
    return counts.most_common(1)[0][0] if counts else _DEFAULT_DOCS


__all__ = ["generic_category", "generic_docs"]
