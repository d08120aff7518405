"""A plain install without TensorFlow: `tfdebug lint`, `recipes` and `explain` work; the
runtime features say what to install."""
import os
import subprocess

import pytest

from test_wheel import _fresh_venv

BAD = ("import tensorflow as tf\n\n@tf.function\ndef step(x):\n    if x > 0:\n"
       "        x = x - 1\n    return x.numpy()\n")


@pytest.fixture(scope="module")
def bare_python(wheel, tmp_path_factory):
    """A venv holding the wheel and its table dependency, and no TensorFlow or NumPy."""
    import tabulate

    python = _fresh_venv(str(tmp_path_factory.mktemp("bare") / "venv"), wheel,
                         with_tensorflow=False)
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip()
    source = tabulate.__file__
    if os.path.basename(source) == "__init__.py":
        source = os.path.dirname(source)
    subprocess.run(["cp", "-r", source, site], check=True)
    names = [n for n in os.listdir(site)]
    assert "tfdebug" in names and not any(n.startswith(("tensorflow", "numpy")) for n in names)
    return python


def _run(python, *args, cwd):
    return subprocess.run([python, "-m", "tfdebug", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def test_lint_works_without_tensorflow(bare_python, tmp_path):
    (tmp_path / "train.py").write_text(BAD)
    check = subprocess.run([bare_python, "-c", "import tensorflow"], capture_output=True,
                           text=True, cwd=str(tmp_path))
    assert check.returncode == 1 and "ModuleNotFoundError" in check.stderr
    proc = _run(bare_python, "lint", "train.py", cwd=str(tmp_path))
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines() == [
        "train.py:7:12: TFD140 `.numpy()` inside traced code: tensors are symbolic there; "
        "return the tensor and call .numpy() outside"]
    sarif = _run(bare_python, "lint", "--format", "sarif", "train.py", cwd=str(tmp_path))
    assert sarif.returncode == 1 and '"ruleId": "TFD140"' in sarif.stdout
    assert "tfdebug/lint/walker.py" in subprocess.run(
        [bare_python, "-c", "import tfdebug.lint.walker as w; print(w.__file__)"],
        capture_output=True, text=True, check=True).stdout.replace(os.sep, "/")


def test_recipes_and_explain_work_without_tensorflow(bare_python, tmp_path):
    listed = _run(bare_python, "recipes", "--category", "tensor-as-bool", cwd=str(tmp_path))
    assert listed.returncode == 0 and "TFD101" in listed.stdout, listed.stderr
    by_id = _run(bare_python, "explain", "TFD140", cwd=str(tmp_path))
    assert by_id.returncode == 0 and "TFD140" in by_id.stdout, by_id.stderr
    by_text = _run(bare_python, "explain", "TypeError: Tensor is unhashable", cwd=str(tmp_path))
    assert by_text.returncode == 0 and "TFD1" in by_text.stdout, by_text.stderr


def _advice():
    """The sentence a tfdebug installed from a wheel gives: TensorFlow's own packages, in the
    range tfdebug's extras require (read from this environment's metadata of tfdebug)."""
    from importlib.metadata import requires

    specs = {}
    for line in requires("tfdebug"):
        spec, _, marker = line.partition(";")
        for extra in ("cpu", "tf"):
            if f'extra == "{extra}"' in marker:
                specs[extra] = spec.strip().replace(" ", "")
    return (f"needs TensorFlow: install it with `pip install '{specs['cpu']}'` "
            f"(or '{specs['tf']}' for the GPU build).")


def test_runtime_features_say_what_to_install_in_one_sentence(bare_python, tmp_path):
    """tfdebug is on no package index: the advice names TensorFlow's package, never an
    extra of a `tfdebug` pip cannot find."""
    proc = subprocess.run([bare_python, "-c", "import tfdebug; print(tfdebug.__version__); "
                           "tfdebug.eager"], capture_output=True, text=True, cwd=str(tmp_path))
    assert proc.returncode == 1 and proc.stdout.strip() == "0.1.0"
    last = proc.stderr.strip().splitlines()[-1]
    advice = _advice()
    assert last == "ImportError: tfdebug.eager " + advice
    assert "tfdebug[" not in proc.stderr and "'tensorflow-cpu<" in advice
    doctor = _run(bare_python, "doctor", cwd=str(tmp_path))
    assert doctor.returncode == 2
    assert doctor.stderr.strip() == "tfdebug: error: `tfdebug doctor` " + advice


def test_from_a_checkout_the_advice_names_its_extras(tmp_path):
    """Installed with `pip install -e CHECKOUT` (PEP 610's direct_url.json says so), the
    advice is that checkout's `[cpu]` extra, wherever the command runs."""
    import json
    import sys
    from importlib.metadata import distributions

    from conftest import ROOT

    direct = next((json.loads(t) for t in (d.read_text("direct_url.json")
                                           for d in distributions(name="tfdebug")) if t), None)
    if not (isinstance(direct, dict) and (direct.get("dir_info") or {}).get("editable")):
        pytest.skip("tfdebug is not installed here with pip install -e from this checkout")
    hide = "import sys; sys.modules['tensorflow'] = None; "   # as if it were not installed
    expected = (f"needs TensorFlow: install it with `pip install -e '{ROOT}[cpu]'` (the checkout "
                f"tfdebug was installed from; [tf] instead of [cpu] for the GPU build).")
    proc = subprocess.run([sys.executable, "-c", hide + "import tfdebug; tfdebug.eager"],
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=120)
    assert proc.stderr.strip().splitlines()[-1] == "ImportError: tfdebug.eager " + expected
    proc = subprocess.run([sys.executable, "-c", hide + "from tfdebug.cli import main; "
                           "sys.exit(main(['doctor']))"],
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "tfdebug: error: `tfdebug doctor` " + expected


FIRST_IMPORTS = ["tfdebug.modes", "tfdebug.explainer", "tfdebug._tf", "tfdebug.trace_log",
                 "tfdebug.diagnosis"]

# One process with ImportWarning as an error imports TensorFlow (tfdebug stays unimported),
# then forks a child per first import: each child imports tfdebug from scratch in its order.
_FACES = """
import json, os, sys, traceback
import tensorflow
for first in sys.argv[1:]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            __import__(first)
            import tfdebug
            result = {"face": [type(tfdebug.eager).__name__, tfdebug.diagnose.__module__,
                               tfdebug.trace_logger.__module__, tfdebug.compare.__module__]}
        except BaseException:
            result = {"error": traceback.format_exc()}
        with os.fdopen(write, "w") as fh:
            json.dump(result, fh)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as fh:
        data = fh.read()
    os.waitpid(pid, 0)
    print("FACE", first, data or json.dumps({"error": "the child died"}))
"""


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    """first import -> what the face of tfdebug is after it (or the error it raised)."""
    import json
    import sys

    proc = subprocess.run([sys.executable, "-W", "error::ImportWarning", "-c", _FACES,
                           *FIRST_IMPORTS], capture_output=True, text=True, timeout=300,
                          cwd=str(tmp_path_factory.mktemp("faces")),
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {line.split()[1]: json.loads(line.split(None, 2)[2])
            for line in proc.stdout.splitlines() if line.startswith("FACE ")}


@pytest.mark.parametrize("first", FIRST_IMPORTS)
def test_with_tensorflow_the_face_is_whole_after_any_runtime_import(first, faces):
    """Importing a runtime module first leaves every public name the public object (no module
    shadows a function); no import error is swallowed on the way (ImportWarning is an error)."""
    assert "error" not in faces[first], faces[first]["error"][-2000:]
    assert faces[first]["face"] == ["type", "tfdebug.diagnosis", "tfdebug.trace_log",
                                    "tfdebug.comparison"]
