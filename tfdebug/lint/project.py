"""What a file's project declares about TensorFlow: the versions its metadata allows.

``tf.keras`` is Keras 3 from TensorFlow 2.16 on and Keras 2 before, and the two differ in
what runs as a graph (Keras 2 converts a layer's ``call`` with AutoGraph; Keras 3 does not).
A project whose metadata (``setup.py``, ``setup.cfg``, ``pyproject.toml``,
``requirements*.txt``) caps TensorFlow below 2.16 runs on Keras 2, so its ``tf.keras`` code is
judged as Keras 2 code. Anything else (no metadata, no cap, requirements that disagree) says
nothing, and the code is judged for the TensorFlow tfdebug supports.

Example::

    caps_keras3_out("/src/project/pkg/model.py")  # True when /src/project/setup.py has
                                                  # "tensorflow>=2.6,<2.14"
"""
from __future__ import annotations

import glob
import os
import re

KERAS3_FIRST = (2, 16)  # the first TensorFlow whose tf.keras is Keras 3
_METADATA = ("setup.py", "setup.cfg", "pyproject.toml")
_MAX_LEVELS = 8  # folders looked at above a file for its project's metadata
_MAX_BYTES = 1 << 20

# a requirement on TensorFlow itself (not tensorflow-text, tensorflow-io, ...) with a
# version specifier: "tensorflow>=2.6,<2.14", tensorflow-cpu==2.13.*, tensorflow [and-cuda] ~= 2.12.0
_REQUIREMENT = re.compile(
    r"(?<![\w.-])tensorflow(?:-(?:cpu|gpu|macos|intel|aarch64))?(?![\w.-])\s*(?:\[[^\]]*\])?\s*"
    r"((?:(?:===|==|~=|!=|<=|>=|<|>)\s*[0-9][0-9A-Za-z.*+!]*\s*,?\s*)+)")
_CLAUSE = re.compile(r"(===|==|~=|!=|<=|>=|<|>)\s*([0-9][0-9A-Za-z.*+!]*)")

_answers: dict[str, bool] = {}  # project folder -> its answer


def caps_keras3_out(path: str | None) -> bool:
    """Does the project holding ``path`` allow only TensorFlow versions before 2.16?"""
    folder = _project_folder(path)
    if folder is None:
        return False
    if folder not in _answers:
        _answers[folder] = _caps_below(_requirements(folder), KERAS3_FIRST)
    return _answers[folder]


def _project_folder(path: str | None) -> str | None:
    """The nearest folder above ``path`` with packaging metadata, None when there is none."""
    if not path or path.startswith("<") or not os.path.isfile(path):
        return None  # source given as text has no project
    start = os.path.dirname(os.path.abspath(path))
    if start not in _projects:  # asked once per folder, not per file linted
        _projects[start] = _find_project(start)
    return _projects[start]


_projects: dict[str, str | None] = {}  # a linted file's folder -> its project folder


def _find_project(folder: str) -> str | None:
    for _ in range(_MAX_LEVELS):
        if folder in _answers or any(os.path.isfile(os.path.join(folder, name))
                                     for name in _METADATA) or glob.glob(
                os.path.join(glob.escape(folder), "requirements*.txt")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None


def _requirements(folder: str) -> list[str]:
    """The version specifiers of every TensorFlow requirement in ``folder``'s metadata."""
    files = [os.path.join(folder, name) for name in _METADATA]
    files += sorted(glob.glob(os.path.join(glob.escape(folder), "requirements*.txt")))
    found = []
    for name in files:
        try:
            with open(name, encoding="utf-8", errors="replace") as fh:
                text = fh.read(_MAX_BYTES)
        except OSError:
            continue
        found += [m.group(1) for m in _REQUIREMENT.finditer(text)]
    return found


def _caps_below(specifiers: list[str], first: tuple[int, int]) -> bool:
    """True when there is a specifier and every one excludes all versions from ``first``."""
    return bool(specifiers) and all(_excludes_from(spec, first) for spec in specifiers)


def _excludes_from(specifier: str, first: tuple[int, int]) -> bool:
    for op, text in _CLAUSE.findall(specifier):
        release = _release(text)
        if release is None:
            continue
        version = (release + (0, 0, 0))[:3]  # 2.16 and 2.16.0 are one version
        first = (first + (0, 0, 0))[:3]
        if op == "<" and version <= first:
            return True
        if op == "<=" and version < first:
            return True
        if op in ("==", "===") and version < first:
            return True
        if op == "~=" and len(release) >= 3 and release[:2] < first[:2]:
            return True  # ~=2.13.0 allows 2.13.* only
    return False


def _release(text: str) -> tuple[int, ...] | None:
    """(2, 13) of "2.13", "2.13.*" or "2.13.0rc1"; None for text that is no version."""
    parts = []
    for piece in text.split("."):
        digits = re.match(r"\d+", piece)
        if digits is None:
            break
        parts.append(int(digits.group()))
        if digits.group() != piece:
            break
    return tuple(parts) if parts else None
