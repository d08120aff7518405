"""What to install for the runtime features, said so it works: tfdebug is on no package index,
so the advice names TensorFlow's own package (the range tfdebug supports, read from its
installed metadata), or the extras of the checkout tfdebug was installed from when its
``direct_url.json`` (PEP 610) names one.

Example::

    needs_tensorflow("`tfdebug doctor`")
    # "`tfdebug doctor` needs TensorFlow: install it with `pip install
    #  'tensorflow-cpu<2.22,>=2.16'` (or 'tensorflow<2.22,>=2.16' for the GPU build)."
"""
from __future__ import annotations

import os

_DISTRIBUTION = "tfdebug"


def needs_tensorflow(what: str) -> str:
    """One sentence: ``what`` needs TensorFlow, and the command that installs it."""
    import shlex

    folder = checkout()
    if folder is not None:
        editable, path = folder
        command = "pip install " + ("-e " if editable else "") + shlex.quote(path + "[cpu]")
        return (f"{what} needs TensorFlow: install it with `{command}` (the checkout tfdebug "
                f"was installed from; [tf] instead of [cpu] for the GPU build).")
    cpu, gpu = requirement("cpu", "tensorflow-cpu"), requirement("tf", "tensorflow")
    return (f"{what} needs TensorFlow: install it with `pip install {shlex.quote(cpu)}` "
            f"(or {shlex.quote(gpu)} for the GPU build).")


def requirement(extra: str, fallback: str) -> str:
    """The requirement tfdebug's ``extra`` adds (``tensorflow-cpu<2.22,>=2.16``), from the
    installed distribution's metadata; ``fallback`` when it cannot be read."""
    try:
        from importlib.metadata import requires

        for line in requires(_DISTRIBUTION) or ():
            spec, _, marker = line.partition(";")
            if marker.replace("'", '"').split() == ["extra", "==", f'"{extra}"']:
                return spec.strip().replace(" ", "")
    except Exception:  # noqa: BLE001 - not installed (run from a source tree), odd metadata
        pass
    return fallback


def checkout() -> tuple[bool, str] | None:
    """``(editable, folder)`` of the local source tree tfdebug was installed from, or None
    (installed from a wheel, an archive or a VCS URL, or the folder is gone)."""
    try:
        import json
        from importlib.metadata import distributions
        from urllib.parse import unquote, urlparse

        # a source tree on sys.path may hold its own tfdebug.egg-info: the installed
        # distribution is the one with a direct_url.json
        text = next((t for t in (d.read_text("direct_url.json")
                                 for d in distributions(name=_DISTRIBUTION)) if t), None)
        data = json.loads(text) if text else None
        if not isinstance(data, dict) or not isinstance(data.get("dir_info"), dict):
            return None
        url = urlparse(str(data.get("url", "")))
        if url.scheme != "file":
            return None
        folder = os.path.abspath(unquote(url.path))
        if not any(os.path.isfile(os.path.join(folder, name))
                   for name in ("pyproject.toml", "setup.py")):
            return None
        editable = data["dir_info"].get("editable") is True
        if editable and not _inside(os.path.dirname(os.path.abspath(__file__)), folder):
            return None  # this tfdebug is not the one that checkout installed
        return editable, folder
    except Exception:  # noqa: BLE001 - no metadata, no direct_url.json, unreadable
        return None


def _inside(path: str, folder: str) -> bool:
    try:
        return os.path.commonpath([os.path.realpath(path), os.path.realpath(folder)]) \
            == os.path.realpath(folder)
    except ValueError:  # other drives
        return False
