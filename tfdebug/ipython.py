"""``%load_ext tfdebug``: diagnoses, eager switches, the trace table and an eager re-run in
IPython and Jupyter.

Loading the extension installs the error explainer's IPython hook (failing cells get
tfdebug's diagnosis), starts a trace logger for the session and registers::

    %tfdebug eager on|off      # every tf.function runs eagerly from now on / not any more
    %%tfdebug_eager            # this one cell runs eagerly
    %tfdebug traces            # the table of every trace since the extension was loaded
    %tfdebug rerun [-c CMD]... # re-run the last failing cell eagerly, pdb at the user line

``-c`` gives pdb commands to run at the stop (``-c "p x.shape" -c q``), for notebooks
that run unattended. ``%unload_ext tfdebug`` puts everything back.

In a frontend that renders HTML (Jupyter), a failing cell also gets the diagnosis rendered
below its traceback, a ``Diagnosis`` shows rendered, and ``%tfdebug traces`` shows the
trace log as a table and a timeline. The traceback keeps its plain-text note, so terminals,
``%xmode`` and ``NO_COLOR`` see what they always saw.
"""
from __future__ import annotations

import builtins
import logging
import shlex

log = logging.getLogger("tfdebug")

USAGE = ("usage: %tfdebug eager on|off  |  %tfdebug traces  |  "
         "%tfdebug rerun [-c PDB_COMMAND]...")

_extensions: dict[int, "_Extension"] = {}   # id(shell) -> the loaded extension


def load_ipython_extension(ipython) -> None:
    """Called by ``%load_ext tfdebug``; loading twice is a no-op.

    Example (in a notebook cell)::

        %load_ext tfdebug
        %tfdebug eager on
    """
    if id(ipython) in _extensions:
        return
    extension = _Extension(ipython)
    extension.load()
    _extensions[id(ipython)] = extension


def unload_ipython_extension(ipython) -> None:
    """Called by ``%unload_ext tfdebug``: hooks, magics, eager switch and logger removed."""
    extension = _extensions.pop(id(ipython), None)
    if extension is not None:
        extension.unload()


class _Extension:
    """What one shell's ``%load_ext tfdebug`` changed, so that unload can put it back."""

    def __init__(self, shell):
        self.shell = shell
        self.eager_scope = None          # the scope of `%tfdebug eager on`
        self.logger = None               # the session's trace_logger()
        self.explainer = False           # whether the explainer's hook was installed
        self.last_failure = None         # (raw cell, exception) of the last failing cell

    # -- load / unload ----------------------------------------------------------------

    def load(self) -> None:
        try:
            from .explainer import install  # the module: tfdebug.explainer
            install(shell=self.shell)
            self.explainer = True
        except Exception:  # noqa: BLE001 - the magics work without diagnoses
            log.debug("tfdebug: could not install the IPython error hook", exc_info=True)
        try:
            from .trace_log import trace_logger
            logger = trace_logger()
            logger.__enter__()
            self.logger = logger
        except Exception:  # noqa: BLE001
            log.debug("tfdebug: could not start the session's trace logger", exc_info=True)
        self.shell.register_magics(_magics_class()(self.shell, self))
        self.shell.events.register("post_run_cell", self._post_run_cell)

    def unload(self) -> None:
        try:
            self.shell.events.unregister("post_run_cell", self._post_run_cell)
        except ValueError:
            pass
        magics = self.shell.magics_manager.magics
        magics["line"].pop("tfdebug", None)
        magics["cell"].pop("tfdebug_eager", None)
        if self.eager_scope is not None:
            self.eager_scope.__exit__(None, None, None)
            self.eager_scope = None
        if self.logger is not None:
            self.logger.__exit__(None, None, None)
            self.logger = None
        if self.explainer:
            from .explainer import uninstall
            uninstall()
            self.explainer = False
        self.last_failure = None

    def _post_run_cell(self, result) -> None:
        error = getattr(result, "error_in_exec", None)
        raw = getattr(getattr(result, "info", None), "raw_cell", None)
        if error is None or not raw or not isinstance(error, Exception):
            return
        if raw.lstrip().startswith("%tfdebug rerun"):
            return
        self.last_failure = (raw, error)
        if self.explainer and _renders_html(self.shell):
            _show_diagnosis(error)

    # -- the magics -------------------------------------------------------------------

    def line_magic(self, line: str):
        from IPython.core.error import UsageError

        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise UsageError(f"%tfdebug: {exc}. {USAGE}") from None
        command, rest = (words[0], words[1:]) if words else ("", [])
        if command == "eager" and len(rest) == 1 and rest[0] in ("on", "off"):
            return self.eager(rest[0] == "on")
        if command == "traces" and not rest:
            return self.traces()
        if command == "rerun":
            return self.rerun(_pdb_commands(rest))
        raise UsageError(f"%tfdebug: unknown arguments {line.strip()!r}. {USAGE}")

    def eager(self, on: bool) -> None:
        from .modes import eager

        if on and self.eager_scope is None:
            self.eager_scope = eager()
            self.eager_scope.__enter__()
        elif not on and self.eager_scope is not None:
            self.eager_scope.__exit__(None, None, None)
            self.eager_scope = None
        state = "eagerly (pdb, print and .numpy() work)" if on else "as graphs again"
        print(f"tfdebug: tf.functions run {state}")

    def eager_cell(self, line: str, cell: str):
        from IPython.core.error import UsageError

        from .modes import eager

        if line.strip():
            raise UsageError(f"%%tfdebug_eager takes no arguments, got {line.strip()!r}")
        with eager():
            self.shell.run_cell(cell)

    def traces(self) -> None:
        if self.logger is None:
            print("tfdebug: the trace logger is not available in this session")
            return
        if not _renders_html(self.shell):
            print(self.logger.table())
            return
        from IPython.display import display

        display({"text/plain": self.logger.table(), "text/html": self.logger._repr_html_()},
                raw=True)

    def rerun(self, commands: list[str]) -> None:
        if self.last_failure is None:
            print("tfdebug: no cell has failed since `%load_ext tfdebug`; nothing to re-run")
            return
        raw, original = self.last_failure
        source = self.shell.transform_cell(raw)
        filename = self.shell.compile.cache(source)
        code = compile(source, filename, "exec", dont_inherit=True)
        namespace = self.shell.user_ns

        def last_failing_cell():
            exec(code, namespace)  # noqa: S102 - the user's own cell, run again

        import bdb

        from . import debugger

        # The debugger's eager re-run: post-mortem at the innermost user frame when the
        # cell fails eagerly too, else a stop at the user line the graph error names.
        with _scripted_input(commands):
            try:
                debugger.rerun_eagerly(last_failing_cell, (), {}, original)
            except bdb.BdbQuit:
                pass


def _renders_html(shell) -> bool:
    """True in a Jupyter kernel (its frontend renders text/html); False in a terminal."""
    return getattr(shell, "kernel", None) is not None and "text/html" in getattr(
        shell.display_formatter, "active_types", ())


def _show_diagnosis(error: BaseException) -> None:
    """The failing cell's diagnosis, rendered, below its (unchanged) traceback."""
    try:
        from IPython.display import display

        from .explainer import annotate
        from .html_report import diagnosis_html

        _, diagnosis = annotate(error)   # the note is there already: this only reads it
        if diagnosis is None:
            return
        plain = diagnosis.note().splitlines()[0]
        display({"text/plain": plain, "text/html": diagnosis_html(diagnosis)}, raw=True)
    except Exception:  # noqa: BLE001 - the traceback already carries the plain diagnosis
        log.debug("tfdebug: could not show the HTML diagnosis", exc_info=True)


def _pdb_commands(words: list[str]) -> list[str]:
    from IPython.core.error import UsageError

    commands = []
    while words:
        flag, words = words[0], words[1:]
        if flag != "-c" or not words:
            raise UsageError(f"%tfdebug rerun takes `-c PDB_COMMAND` pairs. {USAGE}")
        commands.append(words[0])
        words = words[1:]
    return commands


class _scripted_input:
    """While active, ``input()`` (which pdb reads) returns ``commands``, then EOF (quit).

    With no commands nothing changes: pdb asks the notebook frontend as usual.
    """

    def __init__(self, commands: list[str]):
        self.commands = list(commands)
        self.saved = None

    def _input(self, prompt: str = "") -> str:
        if not self.commands:
            raise EOFError
        command = self.commands.pop(0)
        print(f"{prompt}{command}")
        return command

    def __enter__(self):
        if self.commands:
            self.saved = builtins.input
            builtins.input = self._input
        return self

    def __exit__(self, *exc) -> bool:
        if self.saved is not None:
            builtins.input = self.saved
        return False


def _magics_class():
    """The IPython ``Magics`` class, built on first use (IPython is imported lazily)."""
    from IPython.core.magic import Magics, cell_magic, line_magic, magics_class

    @magics_class
    class TfdebugMagics(Magics):
        def __init__(self, shell, extension: _Extension):
            super().__init__(shell)
            self._extension = extension

        @line_magic("tfdebug")
        def tfdebug(self, line):
            """%tfdebug eager on|off | traces | rerun [-c PDB_COMMAND]..."""
            return self._extension.line_magic(line)

        @cell_magic("tfdebug_eager")
        def tfdebug_eager(self, line, cell):
            """%%tfdebug_eager: run this cell with every tf.function executing eagerly."""
            return self._extension.eager_cell(line, cell)

    return TfdebugMagics
