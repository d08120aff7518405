"""What TF and Keras names give: which calls return a tensor, of which dtype family.

Names are canonical dotted paths after imports (``tensorflow.reduce_sum``, ``keras.ops.sum``).
"""
from __future__ import annotations

import ast
import re

_TF_NOT_TENSOR = {  # top-level tf names whose result is not a (single) tensor
    "function", "print", "config", "is_tensor", "executing_eagerly", "get_static_value",
    "cond", "while_loop", "switch_case", "case", "nest", "unstack", "split", "meshgrid",
    "dynamic_partition", "unique", "unique_with_counts", "name_scope", "device",
    "control_dependencies", "init_scope", "group", "no_op", "tuple", "custom_gradient",
    "recompute_grad", "vectorized_map", "map_fn", "scan", "foldl", "foldr", "gradients",
    "register_tensor_conversion_function", "py_func", "numpy_function", "py_function",
    "make_ndarray", "make_tensor_proto", "import_graph_def", "get_logger", "type_spec_from_value",
    "Assert", "assert_equal", "assert_rank", "assert_greater", "assert_less", "ensure_shape",
    "timestamp", "keras", "data", "io", "saved_model", "summary", "train", "distribute",
    "autograph", "debugging", "experimental", "compat", "lookup", "sysconfig", "test",
    "sparse", "ragged", "estimator", "feature_column", "tpu", "xla", "lite", "types",
    "dtypes", "errors", "graph_util", "queue", "raw_ops", "audio", "version", "mlir",
}


_TF_NOT_TENSOR -= {"ensure_shape"}  # ensure_shape returns its tensor


_TF_TENSOR_MODULES = {"math", "linalg", "nn", "random", "strings", "signal", "image",
                      "bitwise", "dtypes"}


_TF_RANDOM_NOT_TENSOR = {"set_seed", "Generator", "get_global_generator",
                         "set_global_generator", "create_rng_state", "experimental"}


_KERAS_OPS_NOT_TENSOR = {"shape", "is_tensor", "dtype", "convert_to_numpy", "unstack", "split",
                         "cond", "while_loop", "fori_loop", "scan", "map", "vectorized_map",
                         "custom_gradient", "switch", "associative_scan", "core", "nn",
                         "numpy", "math", "linalg", "image", "standardize_dtype", "ndim",
                         "is_int_dtype", "is_float_dtype", "result_type", "unique"}


# ops that return several tensors (a tuple/list), so unpacking their result is fine
_MULTI_OUTPUT = {"moments", "weighted_moments", "top_k", "eigh", "eig", "qr", "svd", "slogdet",
                 "lu", "lu_factor", "unique", "unique_with_counts", "meshgrid", "split",
                 "unstack", "histogram", "lstsq", "normalize_moments", "fused_batch_norm",
                 "sufficient_statistics", "ctc_beam_search_decoder", "ctc_greedy_decoder",
                 "nonzero", "fft", "fft2", "fftn", "rfft", "irfft", "stft", "istft",
                 "broadcast_arrays", "broadcast_gradient_args", "dynamic_partition",
                 "batch_normalization_with_global", "ctc_decode", "max_pool_with_argmax",
                 "in_top_k", "fractional_max_pool", "fractional_avg_pool", "tridiagonal_solve",
                 "eigvals", "combined_non_max_suppression", "non_max_suppression_padded",
                 "unicode_decode_with_offsets", "sample_distorted_bounding_box", "while_loop",
                 "cond", "map_fn", "scan", "switch_case", "case", "custom_gradient", "divmod",
                 "frexp", "modf", "sort_with_indices", "polar", "cholesky_inverse", "normalize",
                 "non_max_suppression_with_scores", "ctc_unique_labels", "decode_wav",
                 "fixed_unigram_candidate_sampler", "uniform_candidate_sampler",
                 "log_uniform_candidate_sampler", "learned_unigram_candidate_sampler",
                 "all_candidate_sampler", "shape_n", "unicode_split_with_offsets",
                 "approx_max_k", "approx_min_k"}


_KERAS_OPS_MODULES = {"numpy", "nn", "math", "linalg", "image"}


_DTYPE_NAMES = {
    "bool": "bool", "string": "string",
    **{f"float{n}": "float" for n in (16, 32, 64)}, "bfloat16": "float", "half": "float",
    "double": "float",
    **{f"int{n}": "int" for n in (8, 16, 32, 64)}, **{f"uint{n}": "int" for n in (8, 16, 32, 64)},
}


_BOOL_RESULT = {"reduce_any", "reduce_all", "equal", "not_equal", "less", "greater",
                "less_equal", "greater_equal", "logical_and", "logical_or", "logical_not",
                "logical_xor", "is_finite", "is_nan", "is_inf", "isfinite", "isnan", "isinf",
                "in_top_k", "is_non_decreasing", "is_strictly_increasing"}


_INT_RESULT = {"shape", "size", "rank", "argmax", "argmin", "range", "where", "shape_n",
               "count_nonzero", "searchsorted", "bincount", "histogram_fixed_width"}


_SAME_DTYPE = {"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
               "abs", "square", "identity", "transpose", "reshape", "concat", "stack",
               "squeeze", "expand_dims", "tile", "gather", "cumsum", "reverse", "clip_by_value",
               "maximum", "minimum", "negative", "stop_gradient", "sort", "roll", "pad"}


_FLOAT_RESULT = {"ones", "zeros", "normal", "uniform", "truncated_normal", "eye", "sqrt",
                 "exp", "log", "sigmoid", "tanh", "softmax", "matmul", "one_hot", "linspace",
                 "reduce_logsumexp", "reduce_std", "reduce_variance", "sin", "cos"}


_DATASET_SOURCES = {"Dataset", "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset",
                    "experimental", "Options"}


_DATASET_FN_METHODS = {"map", "filter", "flat_map", "interleave", "parallel_interleave"}


_GRAPH_LOOP_SHAPE_OPS = {"concat", "stack", "pad", "tile", "repeat", "append"}


_KERAS_MODEL_CTORS = {"Sequential", "Model", "Functional"}


_KERAS_BASES = {"Layer", "Model", "Sequential", "Functional"}


# `%d`, `%5.2f`, `%x`: %-conversions that need a concrete number (a tensor makes them fail).
_NUMERIC_PERCENT = re.compile(r"%[-+ #0]*(\d+|\*)?(\.\d+)?[diouxXeEfFgGc]")


_NAMED_SHAPE_CTORS = {"range", "zeros", "ones", "fill", "normal", "uniform", "truncated_normal",
                      "eye"}


_LOGGING_CALLEES = {"debug", "info", "warning", "warn", "error", "exception", "critical",
                    "log"}


def _canonical(dotted: str) -> str:
    """Fold the spellings of one API together: tf.keras/tf_keras/keras.src -> keras."""
    for old, new in (("tensorflow.compat.v2.", "tensorflow."), ("tensorflow.compat.v1.", "tensorflow."),
                     ("tensorflow.keras.", "keras."), ("tensorflow.python.keras.", "keras."),
                     ("tf_keras.", "keras."), ("keras.src.", "keras.")):
        if dotted.startswith(old):
            return new + dotted[len(old):]
    if dotted in ("tensorflow.keras", "tf_keras", "keras.src"):
        return "keras"
    return dotted


def _tensor_api(name: str) -> bool:
    """Does calling the canonical ``name`` return a single symbolic tensor (in graph code)?"""
    parts = name.split(".")
    if parts[-1] in _MULTI_OUTPUT:
        return False
    if parts[0] == "tensorflow":
        if len(parts) == 2:
            leaf = parts[1]
            return leaf not in _TF_NOT_TENSOR and not leaf[:1].isupper() and not leaf.startswith("assert_")
        if len(parts) == 3 and parts[1] in _TF_TENSOR_MODULES:
            leaf = parts[2]
            if parts[1] == "random" and leaf in _TF_RANDOM_NOT_TENSOR:
                return False
            if parts[1] == "dtypes":
                return leaf in ("cast", "saturate_cast", "complex")
            return not leaf[:1].isupper() and leaf not in ("unstack", "split", "unique")
        if len(parts) == 3 and parts[1] == "io":
            return parts[2] in ("read_file", "decode_raw", "decode_image", "decode_jpeg",
                                "decode_png", "parse_tensor", "serialize_tensor", "decode_csv")
        return False
    if parts[:2] == ["keras", "ops"] and (len(parts) == 3 or (
            len(parts) == 4 and parts[2] in _KERAS_OPS_MODULES)):
        return parts[-1] not in _KERAS_OPS_NOT_TENSOR and not parts[-1][:1].isupper()
    return False


def _dtype_of_api(name: str, call: ast.Call, arg_dtype) -> str | None:
    leaf = name.rsplit(".", 1)[-1]
    for kw in call.keywords:
        if kw.arg == "dtype":
            return _dtype_literal(kw.value)
    if leaf == "cast" and len(call.args) > 1:
        return _dtype_literal(call.args[1])
    if leaf in ("constant", "convert_to_tensor") and call.args:
        return _literal_dtype(call.args[0]) or arg_dtype
    if leaf in _BOOL_RESULT:
        return "bool"
    if leaf == "range":  # int32 only when every bound is an int; float bounds give floats
        if call.args and all(_literal_dtype(a) == "int" for a in call.args):
            return "int"
        return arg_dtype if len(call.args) == 1 else None
    if leaf in _INT_RESULT:
        return "int"
    if leaf in _FLOAT_RESULT:
        return "float"
    if leaf in _SAME_DTYPE:
        return arg_dtype
    return None


def _dtype_literal(node) -> str | None:
    if isinstance(node, ast.Attribute):
        return _DTYPE_NAMES.get(node.attr)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _DTYPE_NAMES.get(node.value)
    return None


def _literal_dtype(node) -> str | None:
    """The dtype TF infers from a Python literal (or a nested list of them)."""
    while isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        node = node.elts[0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            return "bool"
        if isinstance(value, int):
            return "int"
        if isinstance(value, float):
            return "float"
        if isinstance(value, (str, bytes)):
            return "string"
    return None
