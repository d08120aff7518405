"""What tfdebug knows of Python, TensorFlow and Keras APIs: data only, shared by the linter,
the side-effect guard and the explainer (one table per fact, so they cannot drift apart)."""
import re


# Keras' own loops: they iterate, convert to NumPy and branch in Python, so they cannot run
# inside a tf.function (diagnose blames them, lint flags them).
KERAS_LOOPS = frozenset({"fit", "evaluate", "predict", "predict_on_batch", "train_on_batch",
                         "test_on_batch"})

# Methods that mutate a container in place, and the subset that only lists, dicts and
# deques have (safe to report even when the object cannot be looked at).
MUTATORS = frozenset({
    "append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update",
    "setdefault", "popitem", "add", "discard", "difference_update", "intersection_update",
    "symmetric_difference_update", "appendleft", "extendleft", "popleft", "rotate",
})
UNAMBIGUOUS_MUTATORS = frozenset({"append", "extend", "insert", "appendleft", "extendleft",
                                  "setdefault"})

# Calls that read a clock: the value is taken once, when the function is traced.
CLOCK_READS = ("time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns",
               "time.monotonic", "time.monotonic_ns", "time.process_time",
               "time.process_time_ns", "datetime.datetime.now", "datetime.datetime.utcnow",
               "datetime.datetime.today", "datetime.date.today")
# Other time calls whose effect belongs to the trace (sleeping, formatting the current time).
CLOCK_OTHERS = ("time.sleep", "time.localtime", "time.gmtime", "time.ctime", "time.strftime",
                "time.asctime")

# Methods of Keras models / layers that Keras runs inside its own traced functions
# (Keras 3 calls compute_loss from the traced train_step).
KERAS_TRACED_METHODS = ("train_step", "test_step", "predict_step", "compute_loss", "call")

# tf.* functions whose Python function argument runs eagerly, outside the graph; their
# outputs have an unknown static shape.
PY_FUNCTIONS = ("tensorflow.py_function", "tensorflow.numpy_function", "tensorflow.py_func")

# Layers whose behaviour depends on ``training`` (Keras 3 names).
TRAINING_LAYERS = ("Dropout", "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D",
                   "GaussianDropout", "GaussianNoise", "AlphaDropout", "BatchNormalization",
                   "ActivityRegularization")

# The same functions by their last name, as the explainer reads them in a traceback's source.
PY_FUNCTION_LEAVES = ("py_function", "numpy_function", "py_func")

# A dotted call name that constructs a Keras layer, optimizer or model (the explainer's
# test, on names as written: ``keras.layers.Dense``, ``layers.Dense``, ``Sequential``).
KERAS_CONSTRUCTOR_NAME = re.compile(
    r"(^|\.)(layers|optimizers|models)\.[A-Z]\w*$|(^|\.)(Sequential|Model)$")

# Modules whose capitalised names construct Keras objects that own variables.
KERAS_CONSTRUCTOR_MODULES = ("keras.layers.", "keras.optimizers.")

# TensorArray methods that return the updated array: eagerly they also change it in place,
# in a graph only the returned array holds the update.
TENSOR_ARRAY_UPDATES = frozenset({"write", "scatter", "unstack", "split"})

# A counter whose name says it counts traces (``trace_count += 1``, ``self._num_retraces +=
# 1``) is updated at trace time on purpose: it is how users count traces.
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_TRACE_WORDS = frozenset({"trace", "traces", "traced", "tracing", "retrace", "retraces", "retraced",
                          "retracing"})


def counts_traces(name: str) -> bool:
    """``name`` (a variable or attribute) has a word saying it is about tracing."""
    return any(word.lower() in _TRACE_WORDS for word in _NAME_WORDS.findall(name))
