"""Shared fixtures. Every test must leave TensorFlow's global switches as it found them."""
import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402

import importlib  # noqa: E402

from tfdebug import _tf, tracing  # noqa: E402

eager_module = importlib.import_module("tfdebug.modes")  # the module of tfdebug.eager

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "tests", "cases")  # verbatim copies of the shared reproducers

# Third-party code kept as lint input (some of it is named *_test.py): linted, never collected.
collect_ignore_glob = ["lint_realworld/*"]


@pytest.fixture(autouse=True)
def switches_restored():
    """Fail a test that leaves the eager flag, tf.data debug mode or the trace hook changed;
    clear the global random seed a test's user code set."""
    before = (_tf.functions_run_eagerly(), _tf.data_debug_mode())
    yield
    # a user's script run in this process (a recipe's snippet, an example) may set a global
    # seed; the next test's unseeded random ops in a tf.data map would then replay (TFD324)
    tf.random.set_seed(None)
    after = (_tf.functions_run_eagerly(), _tf.data_debug_mode())
    problems = []
    if after != before:
        problems.append(f"eager/tf.data flags {before} -> {after}")
    if eager_module.active_entries():
        problems.append(f"{eager_module.active_entries()} eager()/graph() entries left open")
    if tracing.active() or _tf.trace_hook_installed():
        problems.append("trace hook still installed")
    if _tf.tensor_format_hooked():
        problems.append("graph-tensor formatting still hooked")
    if _tf.trace_caches_redirected():
        problems.append("trace caches still redirected")
    if _tf.layer_call_hooked():
        problems.append("Keras layer-call hook still installed")
    if problems:
        tf.config.run_functions_eagerly(before[0])
        pytest.fail("switches not restored: " + "; ".join(problems))


@pytest.fixture(scope="session")
def wheel(tmp_path_factory):
    """The checkout built as a wheel, once per session (test_wheel, test_lint_no_tf)."""
    import subprocess

    import shutil

    out = tmp_path_factory.mktemp("dist")
    # built from a copy: a build writes build/ and the egg-info into its tree, which the other
    # pytest-xdist worker reads (the editable install) and may be building from at that time
    tree = tmp_path_factory.mktemp("checkout") / "tfdebug"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", "lint_realworld"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(out), str(tree)], check=True, capture_output=True, text=True)
    (path,) = out.glob("tfdebug-*.whl")
    return path


EXAMPLE_NOTEBOOK = os.path.join(ROOT, "examples", "notebook.ipynb")


@pytest.fixture(scope="session")
def notebook_kernel(tmp_path_factory):
    """One real kernel running *this* interpreter, started in the example notebook's folder
    (a kernelspec of its own, so a fresh venv (CI) runs the notebooks with the tfdebug and
    TensorFlow installed here, whatever kernels the machine has): the notebooks of
    test_ipython and test_html_report run in it in turn (one pytest-xdist work unit)."""
    import json

    from jupyter_client.manager import AsyncKernelManager
    from nbclient.util import run_sync

    name, folder = "tfdebug-test", tmp_path_factory.mktemp("jupyter")
    spec = folder / "jupyter" / "kernels" / name
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"Python ({sys.executable})", "language": "python",
        "env": {"TF_CPP_MIN_LOG_LEVEL": "3", "NO_COLOR": "1"},
    }))
    km = AsyncKernelManager(kernel_name=name)
    with pytest.MonkeyPatch.context() as patch:  # read when the kernel starts
        patch.setenv("JUPYTER_PATH", str(folder / "jupyter"))
        patch.setenv("JUPYTER_DATA_DIR", str(folder / "data"))
        patch.setenv("JUPYTER_RUNTIME_DIR", str(folder / "runtime"))
        run_sync(km.start_kernel)(cwd=os.path.dirname(EXAMPLE_NOTEBOOK))
    try:
        yield km
    finally:
        run_sync(km.shutdown_kernel)(now=True)


def run_notebook(nb, km, **options):
    """Execute ``nb`` in the kernel ``km`` (nbclient, as Jupyter runs it); return ``nb``."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, km=km, timeout=240, startup_timeout=120, **options)
    try:
        client.execute()
    finally:
        if client.kc is not None:
            client.kc.stop_channels()
    return nb


@pytest.fixture(scope="session")
def example_notebook(notebook_kernel):
    """examples/notebook.ipynb executed once in :func:`notebook_kernel` (its outputs are
    read by test_ipython as text and by test_html_report as HTML)."""
    import nbformat

    nb = nbformat.read(EXAMPLE_NOTEBOOK, as_version=4)
    return run_notebook(nb, notebook_kernel,
                        resources={"metadata": {"path": os.path.dirname(EXAMPLE_NOTEBOOK)}})


def marked_line(path: str, marker: str) -> int:
    """The one line of ``path`` that ends with the comment ``# <marker>``."""
    with open(path, encoding="utf-8") as fh:
        hits = [n for n, text in enumerate(fh, 1) if text.rstrip().endswith(f"# {marker}")]
    assert len(hits) == 1, marker
    return hits[0]


def run_tfdebug(*args, cwd=None, input=None, timeout=300, env=None):
    """Run ``python -m tfdebug ARGS`` in a real subprocess; return CompletedProcess."""
    import subprocess

    full_env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONUNBUFFERED="1")
    full_env.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "tfdebug", *args], cwd=cwd, input=input,
                          capture_output=True, text=True, timeout=timeout, env=full_env)
    proc.stderr = without_native_log(proc.stderr)
    return proc


# TensorFlow's C++ start-up lines (absl's preamble, "I0000 00:00:... port.cc:153] oneDNN ...").
# On some CPUs TF 2.21 prints them whatever TF_CPP_MIN_LOG_LEVEL says; they are TensorFlow's
# noise, not the program's output, so output comparisons leave them out.
_NATIVE_LOG = re.compile(r"^(WARNING: All log messages before absl::InitializeLog\(\) is called"
                         r"|[IWEF]\d{4} [\d:.]+ +\d+ [\w.]+:\d+\] ).*\n?", re.M)


def without_native_log(text):
    """``text`` without TensorFlow's C++ log lines."""
    return _NATIVE_LOG.sub("", text) if text else text


def raised_by(fn, *args):
    """The exception ``fn(*args)`` raises (an AssertionError when it raises none)."""
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001
        return exc
    raise AssertionError(f"{fn!r} raised nothing")


def line_of(path: str, text: str) -> int:
    """The number of the first line of ``path`` containing ``text`` (not this call's line)."""
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if text in line and "_line_of(" not in line:
                return number
    raise AssertionError(f"{text!r} not in {path}")


# -- the reproducer cases (tests/cases, and the held-out tests/cases_extra) -----------------

CASES_EXTRA = os.path.join(ROOT, "tests", "cases_extra")
CASES_CATALOG = os.path.join(ROOT, "tests", "cases_catalog")  # written from tools/tf_errors.json


def case_header(path):
    """(categories, expect, acceptable lines) from a case file's ``# key: value`` header."""
    import re

    fields = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("#"):
                break
            match = re.match(r"#\s*(\w+):\s*(.*)", line)
            if match:
                fields.setdefault(match.group(1), match.group(2).strip())
    lines = {int(n) for n in [fields.get("line", "-"), *fields.get("also", "-").split(",")]
             if n.strip().isdigit()}
    return set(fields["category"].split("|")), fields["expect"], lines


def case_files(*expects):
    """Every case of the three folders whose ``expect`` is one of ``expects``, by file name."""
    return sorted((os.path.join(folder, f) for folder in (CASES, CASES_EXTRA, CASES_CATALOG)
                   for f in os.listdir(folder)
                   if f.endswith(".py") and case_header(os.path.join(folder, f))[1] in expects),
                  key=os.path.basename)


# -- running the cases -----------------------------------------------------------------------
# Each case is one test that takes the ``case_run`` fixture: (CompletedProcess, report dict)
# of `python -m tfdebug run --report R CASE`. All selected cases are queued once collection is
# done and run case_jobs() at a time in a case server (tests/case_worker.py): a fork, per case,
# of one process that has imported TensorFlow and tfdebug already, which then is
# `python -m tfdebug` (same code path, a process of its own per case, TensorFlow's import paid
# once). The case tests run last, so the rest of the suite runs meanwhile and every case test
# reports as soon as its own case is done. A module's END_TO_END_CASES, and every case that
# sets up the process before TensorFlow starts (case_worker.needs_fresh_process), run as real
# `python -m tfdebug` subprocesses; TFDEBUG_CASES=subprocess runs them all that way.
END_TO_END = 1  # real subprocesses per (folder, kind) group of cases (11 in all)
_CASE_RUNS = pytest.StashKey()


def case_jobs(alone: bool) -> int:
    """How many cases run at once: TFDEBUG_CASE_JOBS, else one per core, less the core the
    rest of the suite runs on when it runs alongside (``alone``: only case tests run); under
    pytest-xdist, each worker's server gets its share of the cores."""
    cores = os.cpu_count() or 1
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    if workers > 1:
        return int(os.environ.get("TFDEBUG_CASE_JOBS") or max(1, cores // workers))
    return int(os.environ.get("TFDEBUG_CASE_JOBS") or (cores if alone else max(1, cores - 1)))


def end_to_end_cases(cases, kind=lambda case: case_header(case)[1]):
    """The first END_TO_END cases of each (folder, ``kind``) group, by file name."""
    chosen, seen = set(), {}
    for case in sorted(cases, key=os.path.basename):
        group = (os.path.dirname(case), kind(case))
        if seen.get(group, 0) < END_TO_END:
            seen[group] = seen.get(group, 0) + 1
            chosen.add(case)
    return chosen


class CaseRuns:
    """The session's case runs: queued by test item, waited for one at a time."""

    def __init__(self):
        self.server = None
        self.folder = None
        self.queued = {}  # nodeid -> (case, stem of its output files)
        self.pending = []  # items this pytest-xdist worker will run, queued on first use
        self.early = {}  # key -> (stem of its output files, command, timeout): runs_early

    def _start(self, jobs: int) -> None:
        import tempfile

        import case_worker

        if self.server is None:
            env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONUNBUFFERED="1")
            self.folder = tempfile.mkdtemp(prefix="tfdebug-cases-")
            self.server = case_worker.CaseServer(jobs, env, self.folder)

    def queue(self, items, jobs: int = 1) -> None:
        import case_worker

        self._start(jobs)
        everything = os.environ.get("TFDEBUG_CASES") == "subprocess"
        for item in items:
            if item.nodeid in self.queued:
                continue
            case = item.callspec.params["case"]
            folder = os.path.join(self.folder, item.module.__name__)
            os.makedirs(folder, exist_ok=True)
            stem = os.path.join(folder, os.path.basename(case))
            fresh = (everything or case in getattr(item.module, "END_TO_END_CASES", ())
                     or case_worker.needs_fresh_process(case))
            self.server.submit(item.nodeid, ["run", "--report", stem + ".json", case],
                               cwd=folder, stdout=stem + ".out", stderr=stem + ".err",
                               timeout=300, subprocess=fresh)
            self.queued[item.nodeid] = case, stem

    def result(self, item):
        import json
        import subprocess

        if item.nodeid not in self.queued:  # not queued at collection (pytest-xdist)
            # the case tests come last in their module: by then this worker only waits for
            # them; with --dist loadfile the worker runs its module's cases, queued together
            self.queue([item, *(other for other in self.pending if other.module is item.module)],
                       case_jobs(alone=True))
        case, stem = self.queued[item.nodeid]
        returncode = self.server.result(item.nodeid, timeout=400)
        with open(stem + ".out", encoding="utf-8", errors="replace") as fh:
            stdout = fh.read()
        with open(stem + ".err", encoding="utf-8", errors="replace") as fh:
            stderr = without_native_log(fh.read())
        args = [sys.executable, "-m", "tfdebug", "run", "--report", stem + ".json", case]
        with open(stem + ".json", encoding="utf-8") as fh:
            return subprocess.CompletedProcess(args, returncode, stdout, stderr), json.load(fh)

    def run_now(self, key, argv, cwd, script=None, input=None, env=None, timeout=240):
        """``python SCRIPT ARGV`` (or ``python -m tfdebug ARGV``) in a fork of the server,
        started at once (this process waits: its core is free), ``input`` on its stdin: its
        CompletedProcess."""
        self.start_early(key, argv, cwd, script=script, input=input, env=env, timeout=timeout,
                         now=True)
        return self.early_result(key)

    def start_early(self, key, argv, cwd, script=None, input=None, env=None, timeout=240,
                    jobs=None, now=False):
        """Submit ``python SCRIPT ARGV`` ahead of the queued cases (``now``: at once, beyond
        the server's jobs) and return; :meth:`early_result` waits for it."""
        self._start(jobs or case_jobs(alone=True))
        stem = os.path.join(self.folder, "run-" + re.sub(r"\W+", "-", key)[-80:])
        with open(stem + ".in", "w", encoding="utf-8") as fh:
            fh.write(input or "")
        self.server.submit(key, list(argv), cwd=str(cwd), stdout=stem + ".out",
                           stderr=stem + ".err", env=env, timeout=timeout, script=script,
                           stdin=stem + ".in", first=True, now=now)
        command = [sys.executable, *([script] if script else ["-m", "tfdebug"]), *argv]
        self.early[key] = stem, command, timeout

    def early_result(self, key):
        """The CompletedProcess of a run :meth:`start_early` submitted (waits for it)."""
        import subprocess

        stem, command, timeout = self.early.pop(key)
        returncode = self.server.result(key, timeout=timeout + 60)
        with open(stem + ".out", encoding="utf-8", errors="replace") as fh:
            stdout = fh.read()
        with open(stem + ".err", encoding="utf-8", errors="replace") as fh:
            stderr = without_native_log(fh.read())
        return subprocess.CompletedProcess(command, returncode, stdout, stderr)

    def close(self) -> None:
        import shutil

        if self.server is not None:
            self.server.close()
            shutil.rmtree(self.folder, ignore_errors=True)


def _case_items(items):
    return [item for item in items if "case_run" in getattr(item, "fixturenames", ())]


def pytest_itemcollected(item):
    if "case_run" in getattr(item, "fixturenames", ()):  # pytest-xdist --dist loadgroup
        item.add_marker(pytest.mark.xdist_group("tfdebug-cases"))


@pytest.hookimpl(trylast=True)  # after -k/-m have deselected
def pytest_collection_modifyitems(session, config, items):
    cases = _case_items(items)
    early = [item for item in items if item.get_closest_marker("runs_early")]
    if not cases and not early:
        return
    runs = config.stash.setdefault(_CASE_RUNS, CaseRuns())
    jobs = case_jobs(alone=len(cases) == len(items))
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        for item in early:  # a long script starts now, in the case server, and runs
            # while the tests before it do (the test only waits for what is left)
            marker = item.get_closest_marker("runs_early")
            runs.start_early(item.nodeid, [str(a) for a in marker.args[1:]],
                             marker.kwargs.get("cwd", ROOT), script=str(marker.args[0]),
                             timeout=marker.kwargs.get("timeout", 240), jobs=jobs)
    else:  # pytest-xdist: first in its module, so that the worker given it waits for the
        # run while the other worker goes on (and the module first: FIRST_MODULES)
        late = {item.nodeid.split("::")[0] for item in early} - set(FIRST_MODULES)
        if late:
            raise pytest.UsageError(f"runs_early tests in {sorted(late)}: add their modules "
                                    "to FIRST_MODULES in tests/conftest.py")
        firsts = set(map(id, early))
        items[:] = early + [item for item in items if id(item) not in firsts]
    if not cases:
        return
    chosen = set(map(id, cases))
    items[:] = [item for item in items if id(item) not in chosen] + cases
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        runs.queue(cases, jobs)
    else:  # pytest-xdist: a module's cases are queued when the first of them starts
        runs.pending = cases


# Modules with a runs_early test (a minute of CPU in a fork of the case server): under
# pytest-xdist --dist loadfile they are handed out first, so that their worker waits for the
# run while the other worker goes on; by xdist's order (the modules with most tests first) the
# drift test came half-way and could end the run with one worker idle. The controller sees
# node ids only (no markers), hence the names; each worker checks them against the markers.
FIRST_MODULES = ("tests/test_lint_api_table.py",)


# A module of many quick tests and no slow fixture, handed out right after FIRST_MODULES: the
# other worker's first module, whose results show from the first seconds (the biggest module
# by xdist's order, test_recipes, first runs every recipe's snippets: a minute without output).
OPENING_MODULES = ("tests/test_lint_realworld.py",)

# Modules of few tests that take long (a real TensorFlow process or kernel per test, a wheel
# and venvs, ten thousand exceptions): by xdist's order (most tests first) they came last, and
# a worker given one of them at the end ran it while the other had nothing left. They go
# once every worker has its first module.
HEAVY_MODULES = ("tests/test_fuzz_explain.py", "tests/test_html_browser.py",
                 "tests/test_main_example.py", "tests/test_run_like_python.py",
                 "tests/test_run_lazy_tensorflow.py", "tests/test_lint_no_tf.py",
                 "tests/test_wheel.py", "tests/test_ipython.py", "tests/test_terminal_output.py",
                 "tests/test_eager_keras.py", "tests/test_module_size.py")


# Modules that share a session fixture (made once per worker) are one work unit: the wheel
# (test_wheel, test_lint_no_tf), the kernel and the executed example notebook (test_ipython,
# test_html_report).
SAME_WORKER = {"tests/test_wheel.py": "tests/test_lint_no_tf.py",
               "tests/test_html_report.py": "tests/test_ipython.py"}


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class FirstModulesFirst(LoadFileScheduling):
        assigned = 0

        def _split_scope(self, nodeid):
            scope = super()._split_scope(nodeid)
            return SAME_WORKER.get(scope, scope)

        def _assign_work_unit(self, node):
            first = list(FIRST_MODULES)
            # every worker's first module, then the long ones
            first += OPENING_MODULES if self.assigned < len(self.nodes) else HEAVY_MODULES
            for scope in reversed(first):
                if scope in self.workqueue:
                    self.workqueue.move_to_end(scope, last=False)
            self.assigned += 1
            super()._assign_work_unit(node)

    return FirstModulesFirst(config, log)


def pytest_collection_finish(session):
    """What the worker holds once the tests are collected (TensorFlow, Keras, the test
    modules: millions of objects) is kept out of the garbage collector's full collections
    (``gc.freeze``): each of those walked the whole heap, about half a second apiece;
    objects the tests make are collected as before."""
    import gc

    gc.collect()
    gc.freeze()


def pytest_sessionfinish(session):
    runs = session.config.stash.get(_CASE_RUNS, None)
    if runs is not None:
        runs.close()


def run_forked(config, key, script, *args, cwd, input=None, env=None, timeout=240):
    """``python SCRIPT ARGS`` in a fork of the case server (``key`` names the run in this
    session), for a fixture wider than a test; tests take :func:`forked_python`."""
    runs = config.stash.setdefault(_CASE_RUNS, CaseRuns())
    return runs.run_now(key, [str(a) for a in args], cwd, script=str(script), input=input,
                        env=env, timeout=timeout)


@pytest.fixture
def forked_python(request):
    """``run(script, *args, cwd=, input=, env=)``: ``python SCRIPT ARGS`` (``script`` None:
    ``python -m tfdebug ARGS``) in a fork of the case server, its own process that paid no
    TensorFlow import; returns the CompletedProcess. For tests of what a script does under
    TensorFlow, not of how a process starts (those use real subprocesses).
    ``run.start(...)`` (same arguments) starts one without waiting and returns its key, and
    ``run.wait(key)`` its CompletedProcess: processes that must run at the same time."""
    runs = request.config.stash.setdefault(_CASE_RUNS, CaseRuns())
    counter = iter(range(1000))

    def start(script, *args, cwd, input=None, env=None, timeout=240):
        key = f"{request.node.nodeid}#{next(counter)}"
        runs.start_early(key, [str(a) for a in args], cwd,
                         script=str(script) if script else None, input=input, env=env,
                         timeout=timeout, now=True)
        return key

    def run(script, *args, cwd, input=None, env=None, timeout=240):
        return runs.early_result(start(script, *args, cwd=cwd, input=input, env=env,
                                       timeout=timeout))
    run.start, run.wait = start, runs.early_result
    return run


@pytest.fixture
def early_run(request):
    """The CompletedProcess of the test's ``@pytest.mark.runs_early(SCRIPT, *ARGS, cwd=,
    timeout=)``: ``python SCRIPT ARGS`` in a fork of the case server, submitted when
    collection ends so that it runs while the tests before this one do (under pytest-xdist,
    where every worker collects every test, when the test starts)."""
    runs = request.config.stash.setdefault(_CASE_RUNS, CaseRuns())
    if request.node.nodeid in runs.early:
        return runs.early_result(request.node.nodeid)
    marker = request.node.get_closest_marker("runs_early")
    return runs.run_now(request.node.nodeid, [str(a) for a in marker.args[1:]],
                        marker.kwargs.get("cwd", ROOT), script=str(marker.args[0]),
                        timeout=marker.kwargs.get("timeout", 240))


@pytest.fixture
def case_run(request):
    """(CompletedProcess, report dict) of `tfdebug run --report` on this test's ``case``."""
    return request.config.stash.setdefault(_CASE_RUNS, CaseRuns()).result(request.node)
