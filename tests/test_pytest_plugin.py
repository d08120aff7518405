"""The pytest plugin, tested in pytest sessions run in this process (``runpytest_inprocess``:
TensorFlow is imported once, the plugin is loaded from its entry point by each inner session,
and this suite's own fixture checks that every inner session left TensorFlow's switches as it
found them): options, ini keys, the marker, the fixtures, the report header and the diagnosis
in failing tests' reports. The inner test files are named ``test_inner_*``: one process has one
``sys.modules``, so they must never share a module name with this suite's own files."""
import pytest

pytest_plugins = ["pytester"]
# An inner session loads the plugin this process imported already, so pytest says it cannot
# rewrite tfdebug's asserts: true and harmless here, noise in the suite's summary.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Module already imported so cannot be rewritten:pytest.PytestAssertRewriteWarning")

# A small module of tf.functions the generated tests share.
STEPS = """
import tensorflow as tf

EAGER_SEEN = []

@tf.function
def step(x):
    EAGER_SEEN.append(tf.executing_eagerly())
    return x * 2.0
"""


@pytest.fixture
def project(pytester):
    pytester.makepyfile(steps=STEPS)
    pytester.syspathinsert()
    return pytester


def _run(pytester, *args):
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", "-rA", *args)


@pytest.mark.smoke
def test_inert_without_options(project):
    project.makepyfile(test_inner_inert="""
        import tensorflow as tf
        from tfdebug import _tf
        from steps import step, EAGER_SEEN

        def test_graph_as_usual():
            step(tf.constant(1.0))
            assert EAGER_SEEN == [False]            # traced once, as a graph
            assert not tf.config.functions_run_eagerly()
            assert not _tf.trace_hook_installed()

        @tf.function(autograph=False)
        def safe_div(a, b):
            return a / b if b != 0 else b

        def test_fails_without_diagnosis():
            safe_div(tf.constant(1.0), tf.constant(2.0))
    """)
    result = _run(project)
    result.assert_outcomes(passed=1, failed=1)
    assert "OperatorNotAllowedInGraphError" in result.stdout.str()
    assert "TFD101" not in result.stdout.str()
    assert not [line for line in result.outlines if line.startswith("tfdebug ")]  # no header


@pytest.mark.smoke
def test_eager_option_marker_and_fixture(project):
    project.makepyfile(test_inner_eager="""
        import pytest
        import tensorflow as tf
        from steps import step, EAGER_SEEN

        def test_option_runs_functions_eagerly():
            EAGER_SEEN.clear()
            step(tf.constant(1.0)); step(tf.constant(2.0))
            assert EAGER_SEEN == [True, True]        # the Python body ran on every call

        @pytest.mark.tfdebug(eager=False)
        def test_marker_overrides_the_option():
            assert not tf.config.functions_run_eagerly()

        @pytest.fixture
        def traced_in_fixture():
            EAGER_SEEN.clear()
            step(tf.constant(3.0))
            return list(EAGER_SEEN)

        def test_fixtures_are_covered(traced_in_fixture):
            assert traced_in_fixture == [True]
    """)
    result = _run(project, "--tfdebug-eager")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["tfdebug 0.1.0 (TensorFlow 2.*): eager"])


@pytest.mark.smoke
def test_fixtures_marker_and_max_traces(project):
    project.makepyfile(test_inner_traces="""
        import pytest
        import tensorflow as tf
        from steps import step

        def test_counts_traces(trace_log):
            step(tf.constant(1.0)); step(tf.constant(2.0))
            assert trace_log.count(step) == 1
            step(tf.constant([1.0, 2.0]))                  # a new shape: a retrace
            assert trace_log.count(step) == 2

        @pytest.mark.tfdebug(max_traces=1)
        def test_retrace_fails_the_test(trace_log):
            step(tf.constant([[1.0]]))
            step(tf.constant([[[1.0]]]))                   # a second trace: over the limit

        @pytest.mark.tfdebug(max_traces=2)
        def test_within_the_limit(trace_log):            # shapes no other test traced
            step(tf.constant([1.0, 2.0, 3.0]))
            step(tf.constant([[1.0, 2.0, 3.0]]))
            assert trace_log.count(step) == 2
    """)
    project.makepyfile(test_inner_fixture="""
        import pytest
        import tensorflow as tf
        from steps import step, EAGER_SEEN

        def test_tf_eager_fixture(tf_eager):
            EAGER_SEEN.clear()
            step(tf.constant(1.0))
            assert EAGER_SEEN == [True]
            assert type(tf_eager).__name__ == "eager"

        @pytest.mark.tfdebug(eager=True)
        def test_marker_alone():
            assert tf.config.functions_run_eagerly()

        def test_flag_restored_after_each_test():
            assert not tf.config.functions_run_eagerly()
    """)
    result = _run(project, "-p", "no:randomly")
    result.assert_outcomes(passed=5, failed=1)
    result.stdout.fnmatch_lines(["FAILED test_inner_traces.py::test_retrace_fails_the_test*"])
    out = result.stdout.str()
    assert "step" in out
    # pytest's failing frame is the user's call: tfdebug's frames in the stack are hidden
    # (__tracebackhide__), not its trace logger's `raise`
    assert ">       step(tf.constant([[[1.0]]]))" in out
    assert "_on_trace" not in out and "trace_log.py" not in out and "tracing.py" not in out, out


def test_ini_keys(project):
    project.makeini("""
        [pytest]
        tfdebug_eager = true
        tfdebug_max_traces = 1
    """)
    project.makepyfile(test_inner_ini="""
        import tensorflow as tf
        from steps import step, EAGER_SEEN

        def test_eager_from_ini():
            assert tf.config.functions_run_eagerly()
    """)
    result = _run(project)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["tfdebug 0.1.0 (TensorFlow 2.*): eager, max-traces=1"])


def test_bad_values_are_named(project):
    project.makepyfile(test_inner_bad="""
        import pytest

        @pytest.mark.tfdebug(eagre=True)
        def test_typo():
            pass

        @pytest.mark.tfdebug(max_traces=0)
        def test_zero():
            pass
    """)
    result = _run(project)
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines([
        "*@pytest.mark.tfdebug on test_inner_bad.py::test_typo: unknown argument(s) eagre; "
        "it takes eager, explain, max_traces*",
        "*max_traces= takes a whole number >= 1, got 0*",
    ])
    result = _run(project, "--tfdebug-max-traces=lots")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--tfdebug-max-traces takes a whole number >= 1, got 'lots'*"])


@pytest.mark.smoke
def test_explain_adds_the_diagnosis(project):
    project.makepyfile(test_inner_explain="""
        import tensorflow as tf

        @tf.function(autograph=False)
        def safe_div(a, b):
            return a / b if b != 0 else b

        def test_fails_in_graph():
            safe_div(tf.constant(1.0), tf.constant(2.0))

        def test_passes():
            assert safe_div.python_function(1.0, 2.0) == 0.5
    """)
    result = _run(project, "--tfdebug-explain")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["E *OperatorNotAllowedInGraphError*",
                                 "E *tfdebug TFD101 tensor-as-bool:*",
                                 "E *--> test_inner_explain.py:5 in safe_div"])


def test_explain_blames_the_store_of_a_leaked_input(project):
    # the test's trace is remembered while it runs: the placeholder of `lengths` leads to
    # `step`, whose store of that parameter is blamed, not the call that traced it
    project.makepyfile(test_inner_leak="""
        import tensorflow as tf

        class Monitor:
            lengths = None

        monitor = Monitor()

        @tf.function
        def step(x, lengths):
            monitor.lengths = lengths
            return x

        def test_reads_the_kept_input():
            step(tf.constant(1.0), tf.constant([2, 3]))
            tf.reduce_sum(monitor.lengths)
    """)
    result = _run(project, "--tfdebug-explain")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["E *tfdebug TFD116 out-of-scope-tensor:*",
                                 "E *--> test_inner_leak.py:10 in step"])


def test_explain_folds_pytest_s_frames_in_tensorflow_s_message_stacks(project):
    # "... was defined here:" runs through pytest and pluggy (~25 frames): one line each run
    project.makepyfile(test_inner_scope="""
        import tensorflow as tf

        @tf.function
        def collect(n):
            values = []
            for i in tf.range(n):
                values.append(tf.cast(i, tf.float32))
            return tf.stack(values)

        def test_collect():
            collect(tf.constant(3))
    """)
    import re

    result = _run(project, "--tfdebug-explain")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    stack = out.split("was defined here:")[1].split("The tensor")[0]
    files = re.findall(r'File "([^"]+)", line \d+', stack)
    parts = [set(f.split("/")) for f in files]
    assert files and not [p for p in parts if p & {"_pytest", "pluggy", "tfdebug", "bin"}], stack
    assert re.search(r"\[\.\.\. \d+ frames of .*pluggy.*pytest.* hidden\]", stack), stack
    assert 'test_inner_scope.py", line 11, in test_collect' in stack
