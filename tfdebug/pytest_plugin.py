"""tfdebug's pytest plugin (``pytest11`` entry point). Inert unless asked.

Options (each with an ini key of the same name, dashes as underscores)::

    pytest --tfdebug-eager            # every tf.function runs eagerly: pdb, print work
    pytest --tfdebug-explain          # failing tests' reports carry tfdebug's diagnosis
    pytest --tfdebug-max-traces=3     # a function traced more often fails its test

Per test::

    @pytest.mark.tfdebug(eager=True, max_traces=1, explain=True)
    def test_step(trace_log):             # trace_log: the test's trace_logger()
        step(tf.constant(1.0)); step(tf.constant(2.0))
        assert trace_log.count(step) == 1

    def test_debuggable(tf_eager):        # tf_eager: eager() for this test
        ...

Without options, ini keys, the marker or the fixtures, no hook changes anything. Scopes are
entered before the test's fixtures are set up and left after they are torn down, so
fixtures that trace functions are covered too.
"""
from __future__ import annotations

import dataclasses
import logging

import pytest

log = logging.getLogger("tfdebug")

MARKER = "tfdebug"
MARKER_KEYS = ("eager", "explain", "max_traces")


@dataclasses.dataclass(frozen=True)
class Settings:
    """What tfdebug does for a test: from the command line / ini, then the marker."""

    eager: bool = False
    explain: bool = False
    max_traces: int | None = None

    @property
    def active(self) -> bool:
        return self.eager or self.explain or self.max_traces is not None

    def describe(self) -> str:
        parts = [name for name in ("eager", "explain") if getattr(self, name)]
        if self.max_traces is not None:
            parts.append(f"max-traces={self.max_traces}")
        return ", ".join(parts)


@dataclasses.dataclass
class _TestState:
    settings: Settings
    scopes: list = dataclasses.field(default_factory=list)   # entered, in order
    logger: object = None
    findings: list = dataclasses.field(default_factory=list)


_SETTINGS = pytest.StashKey[Settings]()
_STATE = pytest.StashKey[_TestState]()


# -- options --------------------------------------------------------------------------

def pytest_addoption(parser):
    group = parser.getgroup("tfdebug", "tfdebug: debug tf.function / AutoGraph code")
    group.addoption("--tfdebug-eager", action="store_true", default=None,
                    help="run every tf.function eagerly (tfdebug.eager()) in each test")
    group.addoption("--tfdebug-explain", action="store_true", default=None,
                    help="add tfdebug's diagnosis to the report of each failing test")
    group.addoption("--tfdebug-max-traces", metavar="N", default=None,
                    help="fail a test in which one function is traced more than N times")
    parser.addini("tfdebug_eager", type="bool", default=False,
                  help="like --tfdebug-eager")
    parser.addini("tfdebug_explain", type="bool", default=False,
                  help="like --tfdebug-explain")
    parser.addini("tfdebug_max_traces", default="",
                  help="like --tfdebug-max-traces=N")


def _max_traces(value, where: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"{where} takes a whole number >= 1, got {value!r}")
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 0
    if number < 1 or (isinstance(value, float) and not value.is_integer()):
        raise ValueError(f"{where} takes a whole number >= 1, got {value!r}")
    return number


def _config_settings(config) -> Settings:
    def flag(name: str) -> bool:
        value = config.getoption(f"tfdebug_{name}")
        return bool(config.getini(f"tfdebug_{name}")) if value is None else bool(value)

    option = config.getoption("tfdebug_max_traces")
    try:
        if option is not None:
            max_traces = _max_traces(option, "--tfdebug-max-traces")
        else:
            max_traces = _max_traces(config.getini("tfdebug_max_traces").strip(),
                                     "the ini key tfdebug_max_traces")
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    return Settings(eager=flag("eager"), explain=flag("explain"), max_traces=max_traces)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "tfdebug(eager=False, explain=False, max_traces=None): tfdebug settings for this "
        "test (eager: run tf.functions eagerly; explain: diagnose a failure; max_traces: "
        "fail when a function is traced more often)")
    config.stash[_SETTINGS] = _config_settings(config)


def pytest_report_header(config):
    settings = config.stash.get(_SETTINGS, None)
    if settings is None or not settings.active:
        return None
    import tensorflow as tf

    from ._version import __version__
    return f"tfdebug {__version__} (TensorFlow {tf.__version__}): {settings.describe()}"


def _test_settings(item) -> Settings:
    """The config's settings, overridden by the test's closest ``tfdebug`` marker."""
    settings = item.config.stash.get(_SETTINGS, Settings())
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return settings
    where = f"@pytest.mark.tfdebug on {item.nodeid}"
    if marker.args:
        raise ValueError(f"{where} takes keyword arguments only "
                         f"({', '.join(MARKER_KEYS)}), got {marker.args!r}")
    unknown = sorted(set(marker.kwargs) - set(MARKER_KEYS))
    if unknown:
        raise ValueError(f"{where}: unknown argument(s) {', '.join(unknown)}; "
                         f"it takes {', '.join(MARKER_KEYS)}")
    changes = {}
    for name in ("eager", "explain"):
        if name in marker.kwargs:
            if not isinstance(marker.kwargs[name], bool):
                raise ValueError(f"{where}: {name}= takes True or False, "
                                 f"got {marker.kwargs[name]!r}")
            changes[name] = marker.kwargs[name]
    if "max_traces" in marker.kwargs:
        changes["max_traces"] = _max_traces(marker.kwargs["max_traces"], f"{where}: max_traces=") \
            if marker.kwargs["max_traces"] is not None else None
    return dataclasses.replace(settings, **changes)


# -- per test: scopes around setup, call and teardown ---------------------------------

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    try:
        settings = _test_settings(item)
    except ValueError as exc:
        pytest.fail(str(exc), pytrace=False)
    if settings.active:
        item.stash[_STATE] = _start(settings)


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    state = item.stash.get(_STATE, None)
    if state is not None:
        del item.stash[_STATE]
        _finish(state)


def _start(settings: Settings) -> _TestState:
    from . import report

    state = _TestState(settings)
    try:
        collector = report.collecting()
        state.findings = collector.__enter__()
        state.scopes.append(collector)
        if settings.max_traces is not None:
            from .trace_log import trace_logger
            state.logger = trace_logger(max_traces=settings.max_traces)
            state.scopes.append(state.logger)
            state.logger.__enter__()
        if settings.eager:
            from .modes import eager
            scope = eager()
            scope.__enter__()
            state.scopes.append(scope)
        if settings.explain:  # the Python function of each graph (a leaked input names its graph)
            from .tracing import graphs_remembered
            scope = graphs_remembered()
            scope.__enter__()
            state.scopes.append(scope)
    except BaseException:
        _finish(state)
        raise
    return state


def _finish(state: _TestState) -> None:
    while state.scopes:
        state.scopes.pop().__exit__(None, None, None)


# -- fixtures -------------------------------------------------------------------------

@pytest.fixture
def tf_eager():
    """Run every tf.function eagerly for this test; yields the ``tfdebug.eager()`` scope.

    Example::

        def test_step(tf_eager):
            assert step(tf.constant(1.0)).numpy() == 2.0   # breakpoint() in step works
    """
    from .modes import eager

    with eager() as scope:
        yield scope


@pytest.fixture
def trace_log(request):
    """The test's ``tfdebug.trace_logger()``: every trace made during the test.

    With ``--tfdebug-max-traces`` or the marker's ``max_traces`` it is the logger that
    enforces the limit. Example::

        def test_no_retrace(trace_log):
            step(tf.constant(1.0)); step(tf.constant(2.0))
            assert trace_log.count(step) == 1
    """
    state = request.node.stash.get(_STATE, None)
    if state is not None and state.logger is not None:
        yield state.logger
        return
    from .trace_log import trace_logger

    with trace_logger() as logger:
        yield logger


# -- reports --------------------------------------------------------------------------

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    state = item.stash.get(_STATE, None)
    explain = (state is not None and state.settings.explain and call.excinfo is not None
               and not call.excinfo.errisinstance((pytest.skip.Exception, pytest.xfail.Exception)))
    extra = ""
    if explain:
        # Annotated before the report is built, the diagnosis shows in the failure's own
        # "E" lines (pytest prints PEP 678 notes), right under the error it explains.
        try:
            extra = _annotate(call.excinfo.value, state.findings)
        except Exception:  # noqa: BLE001 - a tfdebug bug must not hide the test's failure
            log.debug("tfdebug: could not diagnose the failure of %s", item.nodeid, exc_info=True)
    outcome = yield
    report = outcome.get_result()
    if explain and report.failed:
        try:
            _fold_report_stacks(report.longrepr)
        except Exception:  # noqa: BLE001 - pytest's own text then
            log.debug("tfdebug: could not fold the stacks of %s", item.nodeid, exc_info=True)
    if extra and report.failed:
        report.sections.append((f"tfdebug ({call.when})", extra))


def _fold_report_stacks(longrepr) -> None:
    """Fold the machinery's frames (pytest, pluggy, tfdebug) in the stacks TensorFlow wrote
    into the error's message, as pytest shows it (its "E" lines); the exception is untouched."""
    from ._traceback import fold_message_stacks

    for reprtraceback, _crash, _description in getattr(longrepr, "chain", None) or ():
        for entry in getattr(reprtraceback, "reprentries", None) or ():
            lines = getattr(entry, "lines", None)
            if not lines or not any(line.startswith("E") and 'File "' in line for line in lines):
                continue
            out, block = [], []
            for line in [*lines, None]:
                if line is not None and line.startswith("E"):
                    block.append(" " + line[1:])
                    continue
                if block:
                    out += ["E" + folded[1:] for folded in fold_message_stacks("\n".join(block)).split("\n")]
                    block = []
                if line is not None:
                    out.append(line)
            entry.lines = out


def _annotate(exc: BaseException, findings: list) -> str:
    """Note the diagnosis on ``exc``; return what did not fit there (warnings, or the
    diagnosis of the user's own exception where AutoGraph replaced it)."""
    from .explainer import annotate

    parts = []
    target, diagnosis = annotate(exc)
    if target is not exc and diagnosis is not None:
        parts.append(diagnosis.note())
    for finding in findings:
        where = f"{finding.file}:{finding.line}" if finding.file else "?"
        parts.append(f"tfdebug {finding.recipe or ''} {finding.severity}: {finding.message}\n"
                     f"  --> {where}" + (f" in {finding.function}" if finding.function else ""))
    return "\n".join(parts)
