"""tfdebug with Keras 3 and tf.distribute: fit/evaluate/predict and a custom train_step
under eager(), the trace logger and explain(); MirroredStrategy over two logical CPUs and
MultiWorkerMirroredStrategy with two worker processes on loopback ports (each in a process of
its own: devices and clusters are fixed when TensorFlow starts; each in a fork of the case
server, whose TensorFlow has not started); the distribute
recipes' reproducers."""
import json
import os
import socket
import textwrap

import keras
import numpy as np
import pytest
import tensorflow as tf

import tfdebug
from tfdebug import recipebook

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "distributed.py")


class Recorder(keras.Model):
    """A model whose custom train_step records whether it ran eagerly."""

    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.eager_steps = []

    def call(self, x, training=False):
        return self.dense(x)

    def train_step(self, data):
        self.eager_steps.append(tf.executing_eagerly())
        return super().train_step(data)


def _data():
    x = np.linspace(0.0, 1.0, 16, dtype="float32").reshape(8, 2)
    return x, x.sum(axis=1, keepdims=True)


@pytest.mark.smoke
def test_keras_fit_evaluate_predict_under_eager():
    x, y = _data()
    model = Recorder()
    model.compile(optimizer="sgd", loss="mse")
    with tfdebug.eager():
        model.fit(x, y, batch_size=4, epochs=1, verbose=0)
        predicted_eagerly = model.predict(x, batch_size=4, verbose=0)
        model.evaluate(x, y, batch_size=4, verbose=0)
    assert model.eager_steps == [True, True]            # the user's step ran as Python
    model.eager_steps.clear()
    model.fit(x, y, batch_size=4, epochs=1, verbose=0)
    assert model.eager_steps == [False]                  # outside: traced once, as a graph
    np.testing.assert_allclose(model.predict(x, batch_size=4, verbose=0).shape,
                               predicted_eagerly.shape)


def test_trace_logger_and_explain_with_keras():
    x, y = _data()
    baseline = Recorder()
    baseline.compile(optimizer="sgd", loss="mse")
    baseline.fit(x, y, batch_size=4, epochs=2, verbose=0)
    model = Recorder()
    model.compile(optimizer="sgd", loss="mse")
    with tfdebug.trace_logger() as log:
        model.fit(x, y, batch_size=4, epochs=2, verbose=0)
    # The trace, then TF's second trace for the optimizer's new variables: as without it.
    assert model.eager_steps == baseline.eager_steps == [False, False]
    steps = [e.kind for e in log.events if e.function.startswith("one_step_on_data")]
    assert steps == ["first", "variable-creation"], log.events

    @tf.function(autograph=False)
    def clipped_step(batch):
        loss = tf.reduce_mean(model(batch))
        return loss if loss > 0 else -loss              # a tensor as a Python bool

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as info:
        with tfdebug.explain():
            clipped_step(x)
    note = "\n".join(info.value.__notes__)
    assert "tfdebug TFD101 tensor-as-bool" in note and "in clipped_step" in note


@pytest.mark.smoke
def test_mirrored_strategy_two_logical_cpus(forked_python, tmp_path):
    # a fork of the case server: TensorFlow imported, its devices not yet set up
    assert "TF_CONFIG" not in os.environ, "a cluster spec would make the example multi-worker"
    report = tmp_path / "mirrored.json"
    proc = forked_python(EXAMPLE, "--report", report, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    result = json.loads(report.read_text())
    _check_worker(result, "MirroredStrategy", replicas=2, stderr=proc.stderr)


def _check_worker(result: dict, strategy: str, replicas: int, stderr: str,
                  keras: bool = True) -> None:
    assert result["strategy"] == strategy and result["replicas"] == replicas
    # eager(): the user's step functions ran as Python (per replica, so several entries)
    assert result["loop_eager"] and all(result["loop_eager"]), result
    if keras:
        assert result["fit_eager"] and all(result["fit_eager"]), result
        assert result["fit_graph"] and not any(result["fit_graph"]), result
        assert result["evaluate_loss_finite"] and result["predict_shape"] == [16, 1]
    assert result["train_step_traces"] == 1, result      # attributed to the user's step
    assert result["traced_names"] == ["loop_part.train_step"], result
    assert result["error"] == "RuntimeError"
    note = "\n".join(result["notes"])
    assert "tfdebug TFD601 distribute" in note and "in replica_fn" in note, note
    assert "tfdebug TFD601" in stderr


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def test_multi_worker_mirrored_strategy_two_workers(tmp_path, forked_python):
    # both workers at once, each in a fork of the case server: TensorFlow imported, its
    # runtime (and so the cluster, from TF_CONFIG) not started
    ports = _free_ports(2)
    cluster = {"worker": [f"localhost:{port}" for port in ports]}
    workers = []
    for index in range(2):
        config = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": index}})
        report = tmp_path / f"worker{index}.json"
        key = forked_python.start(EXAMPLE, "--multi-worker", "--report", report, cwd=ROOT,
                                  env={"TF_CONFIG": config}, timeout=400)
        workers.append((key, report))
    for index, (key, report) in enumerate(workers):
        proc = forked_python.wait(key)
        output = proc.stdout + proc.stderr
        assert proc.returncode == 0, f"worker {index}:\n{output[-4000:]}"
        result = json.loads(report.read_text())
        assert result["worker"] == index
        # Keras 3 cannot fit under MultiWorkerMirroredStrategy at all (its symbolic build
        # reduces a PerReplica batch eagerly); the example's custom loop covers it.
        _check_worker(result, "CollectiveAllReduceStrategy", replicas=2, stderr=proc.stderr,
                      keras=False)


# -- the distribute recipes: before raises (and is diagnosed), after runs -----------------

# Each snippet configures devices, so each needs a TensorFlow runtime of its own: the runner
# (a fork of the case server: TensorFlow imported, its runtime unstarted) forks a fresh child
# per snippet (a second each).
_RUNNER = textwrap.dedent('''
    import json, os, runpy, signal, sys
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
    from tfdebug import recipebook
    from tfdebug.diagnosis import diagnose
    folder, out = sys.argv[1], {}
    for recipe in recipebook.by_category("distribute"):
        for kind in ("before", "after"):
            path = os.path.join(folder, f"{recipe.id}_{kind}.py")
            with open(path, "w") as fh:
                fh.write(getattr(recipe, kind))
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read)
                signal.alarm(120)
                result = {"raised": None}
                try:
                    runpy.run_path(path, run_name="__main__")
                except Exception as exc:
                    d = diagnose(exc)
                    result = {"raised": [c.__name__ for c in type(exc).__mro__],
                              "message": str(exc)[-3000:],
                              "diagnosis": d.recipe.id if d else None,
                              "file": d.file if d else None}
                with os.fdopen(write, "w") as fh:
                    json.dump(result, fh)
                os._exit(0)
            os.close(write)
            with os.fdopen(read) as fh:
                data = fh.read()
            os.waitpid(pid, 0)
            out[f"{recipe.id} {kind}"] = json.loads(data) if data else {"crashed": True}
    print("RESULT" + json.dumps(out))
''')


@pytest.fixture
def distribute_snippets(request, tmp_path_factory):
    """The distribute recipes' snippets run once per session: {"ID before|after": result}."""
    cached = request.config.stash.get(_SNIPPETS, None)
    if cached is None:
        cached = _run_snippets(request.getfixturevalue("forked_python"),
                               tmp_path_factory.mktemp("distribute"))
        request.config.stash[_SNIPPETS] = cached
    return cached


_SNIPPETS = pytest.StashKey()


def _run_snippets(forked_python, folder):
    assert "TF_CONFIG" not in os.environ, "a cluster spec would make the snippets multi-worker"
    runner = folder / "runner.py"
    runner.write_text(_RUNNER)
    proc = forked_python(runner, folder, cwd=ROOT, timeout=600)
    line = next((line for line in proc.stdout.splitlines() if line.startswith("RESULT")), None)
    assert line, proc.stderr[-3000:]
    return json.loads(line[len("RESULT"):])


# the explainer's distribute recipes (TFD321, a warning of the side-effect guard, has its own test)
DISTRIBUTE = [r for r in recipebook.by_category("distribute") if r.errors]


def test_there_are_distribute_recipes():
    assert len(DISTRIBUTE) >= 6
    assert all(r.id.startswith("TFD6") for r in DISTRIBUTE)


@pytest.mark.smoke
@pytest.mark.parametrize("recipe", DISTRIBUTE, ids=lambda r: r.id)
def test_distribute_recipe_reproduces_and_is_diagnosed(recipe, distribute_snippets):
    after = distribute_snippets[f"{recipe.id} after"]
    assert after == {"raised": None}, f"{recipe.id} after: {after}"
    before = distribute_snippets[f"{recipe.id} before"]
    assert before.get("raised"), f"{recipe.id} before ran clean"
    assert set(recipe.errors) & set(before["raised"]), before
    assert not recipe.patterns or recipe.matches_message(before["message"]), before["message"]
    assert before["diagnosis"] == recipe.id, before
    assert before["file"].endswith(f"{recipe.id}_before.py"), before


# The held-out case: a step called directly in the strategy's scope (its last line); the near
# miss reads the same per-replica handle eagerly on that line instead.
REPLICA_CASE = os.path.join(ROOT, "tests", "cases_extra", "x625_train_step_outside_strategy_run.py")
DIRECT = "    print(train_step(tf.ones((4, 3)), tf.ones((4, 1))))"
EAGER = "    model.trainable_variables[0].value.handle  # <- eager read"


@pytest.mark.parametrize("how, blamed", [("direct", DIRECT), ("eager", EAGER)])
def test_a_step_called_without_strategy_run_is_blamed_at_the_call(how, blamed, tmp_path, forked_python):
    # the variables' per-replica handles are read in cross-replica context: called directly,
    # the step was meant to run through strategy.run (near miss: the same read made eagerly)
    with open(REPLICA_CASE) as fh:
        source = fh.read()
    assert DIRECT in source
    source = source.replace(DIRECT, blamed)
    script = tmp_path / "replica_call.py"
    script.write_text(source)
    report = tmp_path / "r.json"
    proc = forked_python(None, "run", "--report", report, script, cwd=tmp_path, timeout=300)
    assert proc.returncode != 0, proc.stderr[-2000:]
    first = json.loads(report.read_text())["diagnostics"][0]
    line = next(n for n, text in enumerate(source.splitlines(), 1) if text == blamed)
    assert (first["recipe"], first["category"], first["line"]) == ("TFD607", "distribute", line), first
