"""Property tests: the explainer survives any exception and gives the same object back.

Hypothesis builds exceptions of random classes (Python's, TensorFlow's, new subclasses),
messages of random bytes and text (most small, a few up to 10 MB), broken ``__str__`` /
``__repr__`` / ``args``, cycles in ``__cause__`` / ``__context__`` and notes that are not
strings. Each goes through ``tfdebug.diagnose`` and ``with tfdebug.explain():``; a crash is
an exception out of either *or* one that tfdebug caught and logged as its own failure.
"""
import itertools
import logging
import random

import pytest
import tensorflow as tf
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import tfdebug

EXAMPLES = 4000     # chains of 1-4 exceptions, every member fed: about 10,700 exceptions
MB = 1 << 20

BASES = [Exception, ValueError, TypeError, KeyError, RuntimeError, AttributeError, IndexError,
         NotImplementedError, OSError, AssertionError, RecursionError, MemoryError, LookupError,
         ArithmeticError, ZeroDivisionError, tf.errors.InvalidArgumentError,
         tf.errors.OperatorNotAllowedInGraphError, KeyboardInterrupt, SystemExit, GeneratorExit]
NAMES = ["ValueError", "OperatorNotAllowedInGraphError", "InaccessibleTensorError",
         "ConversionError", "InvalidArgumentError", "AutoGraphError", "X", "é", "_"]
KNOWN_TEXT = ["using a `tf.Tensor` as a Python `bool` is not allowed", "Tensor is unhashable",
              "iterating over `tf.Tensor` is not allowed", "in user code:\n\n    File \"x.py\", line 0",
              "Exception encountered when calling", "defined at (most recent call last):"]


class _Broken(Exception):
    """What a broken __str__/__repr__/args raises."""


def _raiser(kind):
    def method(self, *args):
        if kind == "raise":
            raise _Broken("broken")
        if kind == "base":
            raise KeyboardInterrupt("from __str__")
        if kind == "recurse":
            return str(self)
        return 42  # not a string
    return method


def _payload(draw_size, seed):
    """Random bytes: ``draw_size`` bytes made from ``seed`` (fast even at 10 MB)."""
    return random.Random(seed).randbytes(draw_size)


BROKEN = [None] * 6 + ["raise", "base", "not-str", "raise", "base", "not-str", "recurse"]
NOTES = [None, None, ["a note"], "not a list", 7, [1, None, b"bytes", "text", ["nested"]]]
KINDS = ["bytes", "latin1", "text", "known", "none", "many"]
_TEXT = st.text(max_size=200)


_SALT = itertools.count()


class _Bits:
    """Reads fields off one drawn integer: few draws per exception keep 10,000 cheap. The
    integer seeds a mix first, so that each field is evenly spread (Hypothesis draws small
    integers far more often: every message would be small), salted with a count because
    Hypothesis repeats integers (a quarter of them distinct in 10,000 draws). A failure is
    then reported as Hypothesis' "flaky" error, with the failing exception in the message."""

    def __init__(self, value: int, salted: bool = True):
        self.value = random.Random(f"{value}:{next(_SALT)}").getrandbits(192) if salted else value

    def take(self, n: int) -> int:
        self.value, field = divmod(self.value, n)
        return field

    def pick(self, items):
        return items[self.take(len(items))]


def _size(bits: _Bits) -> int:
    """Most messages small, 1 in 25 up to 64 KB, 1 in 500 of 1 to 10 MB (bounded cost)."""
    rank, fraction = bits.take(2000), bits.take(1001)
    if 1237 <= rank < 1241:
        return MB + fraction * 9 * MB // 1000
    if rank < 80:
        return 300 + fraction * 64
    return fraction * 300 // 1000


def _message(text: str, bits: _Bits):
    kind = bits.pick(KINDS)
    if kind == "text":
        return text
    if kind == "known":
        return bits.pick(KNOWN_TEXT) + text
    if kind == "none":
        return None
    if kind == "many":
        return (bits.take(10 ** 9) - 5 * 10 ** 8, bits.take(256).to_bytes(1, "big") * bits.take(20), None)
    data = _payload(_size(bits), bits.take(2 ** 32))
    return data if kind == "bytes" else data.decode("latin-1")


_CODE = st.integers(0, 2 ** 160)


@st.composite
def exceptions(draw):
    bits, text = _Bits(draw(_CODE)), draw(_TEXT)  # always both: the same draws every time
    base = bits.pick(BASES)
    namespace = {}
    for dunder in ("__str__", "__repr__"):
        broken = bits.pick(BROKEN)
        if broken:
            namespace[dunder] = _raiser(broken)
    if bits.take(4) == 0:
        namespace["args"] = property(_raiser("raise"))
    name = bits.pick(NAMES) if bits.take(2) else f"Generated{bits.take(10 ** 6)}Error"
    cls = type(name, (base,), namespace)
    message = _message(text, bits)
    if issubclass(base, tf.errors.OpError):
        exc = cls(None, None, message if isinstance(message, str) else repr(message)[:1000])
    elif isinstance(message, tuple):
        exc = cls(*message)
    else:
        exc = cls() if message is None else cls(message)
    notes = bits.pick(NOTES)
    if notes is not None:
        exc.__notes__ = list(notes) if isinstance(notes, list) else notes
    return exc


_EXCEPTION = exceptions()
_CHAIN = st.integers(0, 4 * 8 * 3 - 1)


@st.composite
def chains(draw):
    """1-4 exceptions linked by __cause__/__context__, sometimes in a cycle (head first)."""
    bits = _Bits(draw(_CHAIN), salted=False)  # the shape decides how many draws follow
    items = [draw(_EXCEPTION) for _ in range(1 + bits.take(4))]
    links = bits.take(8)
    for index, (a, b) in enumerate(zip(items, items[1:])):
        if links >> index & 1:
            a.__cause__ = b
        else:
            a.__context__ = b
    shape = bits.pick(["open", "cycle", "self"])
    if shape == "cycle":
        items[-1].__context__ = items[0]
    elif shape == "self":
        items[0].__cause__ = items[0]
    return items


class _Failures(logging.Handler):
    """tfdebug's own failures (logged with a traceback at DEBUG) are crashes here."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        if record.exc_info:
            self.records.append(record)


@pytest.fixture
def failures():
    logger = logging.getLogger("tfdebug")
    handler, level = _Failures(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield handler.records
    logger.removeHandler(handler)
    logger.setLevel(level)


def _raise(exc):
    raise exc


def _state(exc):
    notes = exc.__dict__.get("__notes__")
    return (type(exc), exc.__dict__.get("args", None) if "args" in type(exc).__dict__ else exc.args,
            exc.__cause__, exc.__context__, list(notes) if isinstance(notes, list) else notes)


def _explain_one(exc, failures):
    """``diagnose`` and ``explain()`` on ``exc``: no crash, the same object, only a note added."""
    before = _state(exc)
    diagnosis = tfdebug.diagnose(exc)
    assert diagnosis is None or isinstance(diagnosis.note(), str)
    caught = None
    try:
        with tfdebug.explain():
            _raise(exc)
    except BaseException as got:  # noqa: BLE001 - whatever came out is checked
        caught = got
    assert caught is exc, f"{type(caught).__name__} came out instead of {type(exc).__name__}"
    after = _state(exc)
    assert after[:4] == before[:4]
    if isinstance(before[4], list) or before[4] is None:  # notes are only ever added
        kept = before[4] or []
        assert after[4] is None or (after[4][:len(kept)] == kept and all(
            isinstance(note, str) and note.startswith("tfdebug") for note in after[4][len(kept):]))
    else:
        assert after[4] == before[4]
    exc.__traceback__ = None  # let the frames go
    assert not failures, [r.getMessage() for r in failures]


def test_explainer_survives_ten_thousand_generated_exceptions(failures):
    fed = []

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(chains())
    def check(chain):
        for exc in chain:  # every member: each is the head of a chain of its own
            _explain_one(exc, failures)
        fed.append(len(chain))

    check()
    assert sum(fed) >= 10_000, sum(fed)


@pytest.mark.smoke
@given(st.sampled_from([1, 10]), st.sampled_from([bytes, str]))
@example(10, bytes)
@settings(max_examples=4, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_ten_megabyte_messages(failures, megabytes, kind):
    data = _payload(megabytes * MB, megabytes)
    exc = ValueError(data if kind is bytes else data.decode("latin-1") + "\nTensor is unhashable")
    _explain_one(exc, failures)


@pytest.mark.smoke
def test_staging_error_gives_the_user_s_own_exception_back():
    # The one designed exception to "the same object": AutoGraph's StagingError wrapping the
    # user's own error is replaced by that error (DESIGN 2).
    class StagingError(Exception):
        pass

    original = KeyError("mine")
    staged = StagingError("wrapped")
    staged.__context__ = original
    with pytest.raises(KeyError) as info:
        with tfdebug.explain():
            raise staged
    assert info.value is original
