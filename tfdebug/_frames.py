"""Which frames and files are the user's: never TensorFlow, Keras, tfdebug or AutoGraph's.

Every diagnosis points at a *user* line. The error explainer, the trace logger (call sites)
and the side-effect guard all ask this module, so they agree on what "user code" means.
"""
from __future__ import annotations

import linecache
import os
import sys
import sysconfig
import types

_TFDEBUG_DIR = os.path.dirname(os.path.abspath(__file__))
# Packages whose frames are never the user's fault.
LIBRARY_PACKAGES = ("tensorflow", "keras", "tf_keras", "tensorflow_estimator", "absl",
                    "numpy", "icecream", "executing", "tabulate", "IPython", "ipykernel",
                    "pytest", "_pytest", "pluggy", "tfdebug")
_GENERATED_MARKERS = ("__autograph_generated_file", "<frozen ")
_STDLIB = {os.path.normcase(p) for p in {sysconfig.get_paths().get("stdlib", ""),
                                          sysconfig.get_paths().get("platstdlib", "")} if p}


_library_cache: list = [None, ()]  # [the packages' modules, their folders]


def _library_dirs() -> tuple[str, ...]:
    """The library packages' folders, recomputed only when one of them is (re)imported
    (asked for every frame a trace looks at)."""
    modules = tuple(map(sys.modules.get, LIBRARY_PACKAGES))
    key, dirs = _library_cache
    if modules == key:  # modules compare by identity: one C loop, no Python call per item
        return dirs
    found = []
    for module in modules:
        path = getattr(module, "__file__", None) if module else None
        if path:
            found.append(os.path.normcase(os.path.dirname(os.path.abspath(path))) + os.sep)
    found.append(os.path.normcase(_TFDEBUG_DIR) + os.sep)
    _library_cache[:] = [modules, tuple(found)]
    _user_files.clear()  # answers given against the old folders
    return _library_cache[1]


# is_user_file's answers for absolute paths and ``<...>`` names, which depend on nothing
# but the library folders (a relative path also depends on the working directory)
_user_files: dict[str, bool] = {}


def is_user_file(filename: str | None) -> bool:
    """True for the user's source files; False for libraries, the stdlib, generated code.

    Notebook cells (``<ipython-input-...>``) and files with no folder count as user code.
    """
    if not filename:
        return False
    dirs = _library_dirs()
    known = _user_files.get(filename)
    return _answer(filename, dirs) if known is None else known


def user_file_test():
    """``is_user_file`` for many files in a row (a walk up the stack): the library folders
    are checked once, when this is called, instead of once per file. The test is made once
    per set of library folders and reused (asked at every trace: no closure each time);
    its ``known`` is the dict of answers already given, for walks that look up first."""
    dirs = _library_dirs()
    cached = _test_cache
    if cached[0] is dirs:
        return cached[1]
    known = _user_files

    def is_user(filename: str | None) -> bool:
        if not filename:
            return False
        answer = known.get(filename)
        return _answer(filename, dirs) if answer is None else answer
    is_user.folders = dirs  # answers kept across walks are valid while this is the same
    is_user.known = known
    _test_cache[:] = [dirs, is_user]
    return is_user


_test_cache: list = [None, None]  # [the library folders, user_file_test's test for them]


def _answer(filename: str, dirs: tuple[str, ...]) -> bool:
    known = _is_user_file(filename, dirs)
    if filename.startswith("<") or os.path.isabs(filename):
        if len(_user_files) >= 4096:
            _user_files.clear()
        _user_files[filename] = known
    return known


def _is_user_file(filename: str, library_dirs: tuple[str, ...]) -> bool:
    if any(marker in filename for marker in _GENERATED_MARKERS):
        return False
    if filename.startswith("<"):
        return filename.startswith(("<ipython-input", "<string>", "<stdin>")) or "ipykernel" in filename
    path = os.path.normcase(os.path.abspath(filename))
    if path.startswith(library_dirs):
        return False
    if os.sep + "site-packages" + os.sep in path or os.sep + "dist-packages" + os.sep in path:
        return False  # installed packages are libraries, never the line to blame
    return not any(path.startswith(d + os.sep) for d in _STDLIB)


# The machinery that runs the user's code: tfdebug itself, ``python -m`` (runpy), notebooks
# (IPython, ipykernel) and test runners (pytest, pluggy). Their frames are folded in every
# stack tfdebug shows (module names as they sit in site-packages).
_MACHINERY = {"tfdebug": "tfdebug", "runpy": "runpy", "IPython": "IPython",
              "ipykernel": "ipykernel", "ipykernel_launcher": "ipykernel", "pytest": "pytest",
              "_pytest": "pytest", "pluggy": "pluggy"}
_SCRIPTS = os.path.normcase(sysconfig.get_paths().get("scripts", "") or "\0")


def package_of(filename: str | None) -> str:
    """The top-level module a file belongs to (``asyncio``, ``_pytest``), else ""."""
    if not filename or filename.startswith("<"):
        return filename.strip("<>").split()[-1] if filename and filename.startswith("<frozen ") else ""
    path = os.path.normcase(os.path.abspath(filename))
    if path.startswith(os.path.normcase(_TFDEBUG_DIR) + os.sep):
        return "tfdebug"
    parts = path.split(os.sep)
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] in ("site-packages", "dist-packages"):
            return os.path.splitext(parts[index + 1])[0]
    for folder in _STDLIB:
        if path.startswith(folder + os.sep):
            return os.path.splitext(path[len(folder) + 1:].split(os.sep)[0])[0]
    return ""


def machinery(filename: str | None) -> str:
    """Which machinery around the user's code ``filename`` belongs to ("tfdebug", "runpy",
    "IPython", "ipykernel", "pytest", "pluggy", or a console script's name), else "".

    Example: ``machinery(runpy.__file__) == "runpy"``; a user's script gives "".
    """
    if not filename:
        return ""
    name = _MACHINERY.get(package_of(filename), "")
    if name or filename.startswith("<"):
        return name
    if os.path.dirname(os.path.normcase(os.path.abspath(filename))) == _SCRIPTS:
        return os.path.basename(filename)  # a console script (bin/tfdebug, bin/pytest)
    return ""


def is_user_frame(frame: types.FrameType | None) -> bool:
    return frame is not None and is_user_file(frame.f_code.co_filename)


def user_caller(frame: types.FrameType | None = None, skip: int = 1) -> types.FrameType | None:
    """The innermost user frame at or above ``frame`` (default: the caller's caller)."""
    if frame is None:
        frame = sys._getframe(skip + 1)
    while frame is not None and not is_user_frame(frame):
        frame = frame.f_back
    return frame


def source_line(filename: str | None, lineno: int | None) -> str:
    """The stripped source line, or "" when it cannot be read (never raises)."""
    if not filename or not lineno:
        return ""
    try:
        return linecache.getline(filename, int(lineno)).strip()
    except Exception:  # noqa: BLE001 - odd files (binary, vanished) give no context
        return ""


def source_context(filename: str | None, lineno: int | None, around: int = 1) -> list[tuple[int, str]]:
    """[(line number, text)] for ``around`` lines each side of ``lineno`` (never raises)."""
    if not filename or not lineno:
        return []
    try:
        lines = linecache.getlines(filename)
    except Exception:  # noqa: BLE001
        return []
    lineno = int(lineno)
    first, last = max(1, lineno - around), min(len(lines), lineno + around)
    return [(n, lines[n - 1].rstrip("\n")) for n in range(first, last + 1)]
