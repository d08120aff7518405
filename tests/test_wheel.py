"""The wheel ships the recipes; without TensorFlow, `import tfdebug` says what to install."""
import os
import subprocess
import sys
import sysconfig
import venv


def _fresh_venv(folder, wheel, with_tensorflow):
    venv.EnvBuilder(with_pip=False).create(folder)
    python = os.path.join(folder, "bin", "python")
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # Install the wheel by unpacking it (what pip does for a pure wheel), without deps.
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", site,
                    str(wheel)], check=True, capture_output=True, text=True)
    if with_tensorflow:
        # Reuse this environment's TensorFlow; .pth paths come after the venv's own packages.
        with open(os.path.join(site, "tensorflow_from_test.pth"), "w") as fh:
            fh.write(sysconfig.get_paths()["purelib"] + "\n")
    return python


def test_wheel_contains_recipes_and_reads_them_when_installed(wheel, tmp_path):
    import zipfile
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("tfdebug/recipes/TFD") and n.endswith(".toml") for n in names)
    assert "tfdebug/recipes/_index.json" in names  # the prebuilt index a diagnosis reads
    python = _fresh_venv(str(tmp_path / "venv"), wheel, with_tensorflow=True)
    code = ("import tfdebug, tfdebug.recipebook as r; "
            "print(type(r._book()).__name__); "
            "print(tfdebug.__file__); print(r.get('TFD101').category, len(r.load()))")
    proc = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=str(tmp_path),
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"), timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    book, first, second = proc.stdout.splitlines()[-3:]
    assert book == "_Index"                                  # the installed index describes its folder
    assert first.startswith(str(tmp_path / "venv"))          # the wheel, not the checkout
    category, count = second.split()
    assert category == "tensor-as-bool"
    shipped = len([n for n in names if n.startswith("tfdebug/recipes/TFD")])
    assert int(count) == shipped


def test_import_without_tensorflow_is_one_clear_sentence(wheel, tmp_path):
    python = _fresh_venv(str(tmp_path / "venv"), wheel, with_tensorflow=False)
    # `import tfdebug` is lazy (the static commands need no TensorFlow): the first runtime
    # feature used says what to install
    proc = subprocess.run([python, "-c", "import tfdebug; tfdebug.eager"], capture_output=True,
                          text=True, cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: tfdebug.eager needs TensorFlow")
    assert "tfdebug[" not in last and "`pip install 'tensorflow-cpu" in last  # on no index
