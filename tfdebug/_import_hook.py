"""Call a function right after a module is first imported (an import hook, no polling).

``tfdebug run`` starts its TensorFlow checks when the script first imports ``tensorflow``
(directly or through Keras), so a script that never does runs without loading it.

Example::

    from tfdebug._import_hook import when_imported

    when_imported("tensorflow", lambda module: print("TF is here", module.__version__))
"""
from __future__ import annotations

import contextlib
import sys
import threading

from ._log import log



def when_imported(name: str, callback) -> None:
    """Call ``callback(module)`` once ``name`` is imported: now, if it already is; else
    right after its own code has run (before the importer's next line). A callback that
    fails is logged; the import itself always succeeds or fails as it would have."""
    module = sys.modules.get(name)
    if module is not None:
        callback(module)
        return
    sys.meta_path.insert(0, _Watch(name, callback))


class _Watch:
    """A finder (``sys.meta_path``'s protocol; not importlib.abc's classes, which import
    typing) that finds nothing itself: it asks the finders after it, then wraps the loader
    so the callback runs once the module has executed."""

    def __init__(self, name: str, callback):
        self.name, self.callback = name, callback
        self.finding = threading.local()

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name or getattr(self.finding, "busy", False):
            return None
        self.finding.busy = True
        try:
            spec = None
            for finder in list(sys.meta_path):
                find = getattr(finder, "find_spec", None)
                if finder is self or find is None:
                    continue
                spec = find(fullname, path, target)
                if spec is not None:
                    break
        finally:
            self.finding.busy = False
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec  # nothing we can wrap: the import goes on unchanged
        spec.loader = _Loader(spec.loader, self)
        return spec

    def imported(self, module) -> None:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        try:
            self.callback(module)
        except Exception:  # noqa: BLE001 - never break the user's import
            log.debug("tfdebug: the hook after importing %s failed", self.name, exc_info=True)


class _Loader:
    """The real loader, and the watch's callback once the module's code has run. The module
    sees its real loader (``__loader__``, ``__spec__.loader``)."""

    def __init__(self, loader, watch: _Watch):
        self.loader, self.watch = loader, watch

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        spec = getattr(module, "__spec__", None)
        if spec is not None and spec.loader is self:
            spec.loader = self.loader
        if getattr(module, "__loader__", None) is self:
            module.__loader__ = self.loader
        self.loader.exec_module(module)
        self.watch.imported(module)

    def __getattr__(self, name):
        return getattr(self.loader, name)
