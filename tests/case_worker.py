"""Run ``python -m tfdebug ARGS`` for many case scripts while paying TensorFlow's import once.

A *case server* is one Python process that imports what ``tfdebug run`` imports before it
runs a script (TensorFlow, Keras, tfdebug), and then, per request, forks a child that *is*
``python -m tfdebug ARGS``: its own cwd, argv, ``sys.path[0]``, stdin from /dev/null, stdout
and stderr to files, ``tfdebug/__main__.py`` run as ``__main__``, and python's own ending
(threads joined, atexit handlers, the exit status of ``SystemExit``, death by a signal).
The server never starts TensorFlow's runtime (no op, no device, no context) before it
forks, so each child configures devices, strategies, Keras globals, ``run_functions_eagerly``,
the trace hook, warnings filters and ``sys.modules`` exactly as a fresh process would, and
nothing it does reaches the next case: every case is its own process.

What a fork cannot give is what a process reads at start-up, before ``import tensorflow``:
environment variables (``TF_CPP_MIN_LOG_LEVEL``, ``TF_ENABLE_ONEDNN_OPTS``, ...). A case
whose source sets environment variables, or starts processes of its own, runs as a real
``tfdebug run`` subprocess instead (:func:`needs_fresh_process`).

The protocol is JSON lines: the server reads ``{"id", "argv", "cwd", "stdout", "stderr",
"env", "timeout", "subprocess", "script", "stdin", "first", "now"}`` on stdin (``subprocess``: a
real ``python -m tfdebug`` process, the end-to-end path; ``script``: ``python SCRIPT ARGV``
instead of ``python -m tfdebug ARGV``; ``stdin``: a file to read as standard input; ``first``:
ahead of the queued runs; ``now``: started at once, beyond ``jobs``: a test waits for it, so
its own process leaves a core free) and writes ``{"id", "returncode", "cpu", "wall"}`` on
stdout when the run has ended (``returncode`` as :mod:`subprocess` gives it: ``-N`` for a
signal; the run's CPU and wall seconds), with at most ``jobs`` runs at once. The client, :class:`CaseServer`, is used by tests/conftest.py.
"""
from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time


# Source that configures the process before TensorFlow is imported, or that makes processes:
# such a case gets a fresh interpreter of its own (a real `tfdebug run` subprocess).
_FRESH_PROCESS = re.compile(r"\bos\.(environ|putenv|unsetenv|fork|exec\w*|spawn\w*)\b"
                            r"|\b(multiprocessing|subprocess)\b")


def needs_fresh_process(case: str) -> bool:
    """Whether ``case`` must run in a new interpreter rather than in a fork of the server."""
    with open(case, encoding="utf-8") as fh:
        return bool(_FRESH_PROCESS.search(fh.read()))


# -- the server ------------------------------------------------------------------------

def _preload() -> None:
    """Import what `tfdebug run` has imported by the time the script starts, and no more of
    TensorFlow than its modules: its runtime (the eager context) stays unstarted."""
    import tensorflow  # noqa: F401
    import keras  # noqa: F401

    import tfdebug.cli  # noqa: F401
    import tfdebug.runner as runner

    for name in ("side_effects", "trace_log", "report", "explainer", "diagnosis", "modes",
                 "debugger", "_traceback"):
        __import__(f"tfdebug.{name}")
    # The checks `tfdebug run` builds import the rest of what they need (without entering them).
    runner._runtime_checks(runner.RunOptions(script="", args=[], eager=True))
    from tensorflow.python.eager import context

    started = getattr(context, "_context", None)
    if started is not None and getattr(started, "_initialized", False):
        raise RuntimeError("TensorFlow's runtime started before the fork: cases would share it")


def _child(request: dict) -> None:
    """In the forked child: become ``python -m tfdebug ARGS`` and end as python would."""
    import atexit
    import random
    import runpy

    code = 1
    try:
        os.chdir(request["cwd"])
        fd = os.open(request.get("stdin") or os.devnull, os.O_RDONLY)
        os.dup2(fd, 0)
        os.close(fd)
        for target, path in ((1, request["stdout"]), (2, request["stderr"])):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, target)
            os.close(fd)
        os.environ.update(request.get("env") or {})
        # A fresh interpreter seeds its generators from the OS, not from its parent.
        random.seed()
        try:
            import numpy as np

            np.random.seed()
        except ImportError:
            pass
        script = request.get("script")
        if script:  # `python SCRIPT ARGS`: the script's folder first on the path
            sys.argv = [script, *request["argv"]]
            sys.path[0] = os.path.dirname(os.path.abspath(script))
        else:  # `python -m tfdebug ARGS`: the current folder first
            sys.argv = [os.path.join(os.path.dirname(_tfdebug_file()), "__main__.py"),
                        *request["argv"]]
            sys.path[0] = os.getcwd()
        try:
            if script:
                runpy.run_path(script, run_name="__main__")
            else:
                runpy.run_module("tfdebug", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exc:
            code = _exit_status(exc.code)
        except KeyboardInterrupt:
            code = -signal.SIGINT
        except BaseException:  # noqa: BLE001 - python prints it and exits 1
            sys.excepthook(*sys.exc_info())
            code = 1
        threading._shutdown()  # python waits for the non-daemon threads, then atexit
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001
                pass
        if code < 0:  # python re-raises SIGINT on itself after cleaning up
            signal.signal(-code, signal.SIG_DFL)
            os.kill(os.getpid(), -code)
    finally:
        os._exit(code & 0xFF if code >= 0 else 1)


def _exit_status(value) -> int:
    """What python does with an uncaught ``SystemExit(value)``."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF if -2 ** 63 <= value < 2 ** 63 else 255
    try:
        print(value, file=sys.stderr)
    except Exception:  # noqa: BLE001
        pass
    return 1


def _spawn(request: dict) -> int:
    """A real ``python -m tfdebug ARGS`` subprocess (the end-to-end path); its pid."""
    command = [request["script"]] if request.get("script") else ["-m", "tfdebug"]
    with open(request.get("stdin") or os.devnull, "rb") as stdin, \
            open(request["stdout"], "wb") as stdout, open(request["stderr"], "wb") as stderr:
        proc = subprocess.Popen([sys.executable, *command, *request["argv"]],
                                cwd=request["cwd"], stdin=stdin, stdout=stdout, stderr=stderr,
                                env=dict(os.environ, **(request.get("env") or {})))
    proc.returncode = 0  # reaped below with os.waitpid: keep Popen from reaping it too
    return proc.pid


def _tfdebug_file() -> str:
    import tfdebug

    return tfdebug.__file__


def serve(jobs: int) -> None:
    """Read requests on stdin, run at most ``jobs`` children at once, answer on stdout."""
    _preload()
    out = sys.stdout
    out.write(json.dumps({"ready": os.getpid()}) + "\n")
    out.flush()
    pending: list[dict] = []
    running: dict[int, tuple[dict, float]] = {}
    buffer, closed = b"", False
    while not (closed and not pending and not running):
        while pending and (len(running) < jobs or pending[0].get("now")):
            request = pending.pop(0)
            sys.stdout.flush()
            sys.stderr.flush()
            if request.get("subprocess"):
                pid = _spawn(request)
            else:
                pid = os.fork()
                if pid == 0:
                    _child(request)
            running[pid] = (request, time.monotonic())
        if not closed:
            ready, _, _ = select.select([0], [], [], 0.02 if running else 1.0)
            if ready:
                chunk = os.read(0, 65536)
                closed = not chunk
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in filter(bytes.strip, lines):
                    request = json.loads(line)
                    # a test waiting on its run goes before the queued cases
                    first = request.get("first") or request.get("now")
                    pending.insert(0 if first else len(pending), request)
        else:
            time.sleep(0.02)
        for pid, (request, started) in list(running.items()):
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if not done:
                if time.monotonic() - started > request.get("timeout", 300):
                    os.kill(pid, signal.SIGKILL)  # answered when it is reaped
                continue
            del running[pid]
            code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
            out.write(json.dumps({"id": request["id"], "returncode": code,
                                  "cpu": round(usage.ru_utime + usage.ru_stime, 3),
                                  "wall": round(time.monotonic() - started, 3)}) + "\n")
            out.flush()


# -- the client ------------------------------------------------------------------------

def launcher(folder: str) -> str:
    """This file compiled as ``<frozen runpy>``, to run as ``python case_server.pyc``.

    In a real ``python -m tfdebug`` the frames below tfdebug's are runpy's, which tfdebug
    leaves out of tracebacks and never blames. The server's frames are below tfdebug's in
    every child: with runpy's file name they are treated exactly the same way.
    """
    import importlib.util
    import marshal

    with open(os.path.abspath(__file__), encoding="utf-8") as fh:
        code = compile(fh.read(), "<frozen runpy>", "exec", dont_inherit=True)
    path = os.path.join(folder, "case_server.pyc")
    with open(path, "wb") as fh:  # a sourceless .pyc: magic, flags, two unused words, code
        fh.write(importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code))
    return path


class CaseServer:
    """The pytest side: start the server once, submit runs, wait for each one's result.

    ``submit()`` queues a run and returns at once; ``result()`` waits for that run only, so a
    test reports as soon as its own case is done while later cases already run.
    """

    def __init__(self, jobs: int, env: dict, folder: str):
        self.proc = subprocess.Popen([sys.executable, launcher(folder), str(jobs)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
        self.results: dict[str, int] = {}
        self.usage: dict[str, tuple[float, float]] = {}  # id -> (CPU, wall) seconds
        self.condition = threading.Condition()
        self.ready = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            message = json.loads(line)
            with self.condition:
                if "ready" in message:
                    self.ready = True
                else:
                    self.results[message["id"]] = message["returncode"]
                    self.usage[message["id"]] = message.get("cpu"), message.get("wall")
                self.condition.notify_all()
        with self.condition:
            self.proc.wait()
            self.condition.notify_all()

    def submit(self, key: str, argv: list[str], cwd: str, stdout: str, stderr: str,
               env: dict | None = None, timeout: float = 300, subprocess: bool = False,
               script: str | None = None, stdin: str | None = None, first: bool = False,
               now: bool = False) -> None:
        """Queue ``python -m tfdebug ARGV`` (or ``python SCRIPT ARGV``) with ``stdin`` from
        that file; ``first`` runs it before the runs queued already, ``now`` at once."""
        request = {"id": key, "argv": argv, "cwd": cwd, "stdout": stdout, "stderr": stderr,
                   "env": env or {}, "timeout": timeout, "subprocess": subprocess,
                   "script": script, "stdin": stdin, "first": first, "now": now}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()

    def result(self, key: str, timeout: float) -> int:
        """The exit status of run ``key`` (as subprocess gives it)."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while key not in self.results:
                if self.proc.poll() is not None and not self.reader.is_alive():
                    raise RuntimeError(f"the case server ended (exit {self.proc.returncode}) "
                                       f"before {key} finished")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{key}: no result after {timeout} s")
                self.condition.wait(min(left, 1.0))
            return self.results.pop(key)

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)
        except Exception:  # noqa: BLE001
            self.proc.kill()
            self.proc.wait()


if __name__ == "__main__":
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
