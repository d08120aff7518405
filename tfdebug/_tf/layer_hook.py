"""The Keras layer-call hook of shape probes: every ``keras.Layer.__call__`` seen."""
from __future__ import annotations

import threading


_layer_hook_lock = threading.Lock()
_layer_hook = {"count": 0, "original": None, "cls": None}


def install_layer_call_hook(before, after) -> bool:
    """Wrap ``keras.Layer.__call__`` so ``before(layer, args, kwargs)`` and
    ``after(layer, outputs)`` see every layer call; counted, undone by the last uninstall.

    Returns False when Keras 3 is not installed (layers are then not probed).
    """
    with _layer_hook_lock:
        if _layer_hook["count"]:
            _layer_hook["count"] += 1
            return True
        try:
            import keras
            cls = keras.Layer
        except (ImportError, AttributeError):
            return False
        original = cls.__call__

        def __call__(self, *args, **kwargs):
            before(self, args, kwargs)
            outputs = original(self, *args, **kwargs)
            after(self, outputs)
            return outputs

        __call__.__wrapped__ = original
        cls.__call__ = __call__
        _layer_hook.update(count=1, original=original, cls=cls)
        return True


def layer_call_hooked() -> bool:
    return bool(_layer_hook["count"])


def uninstall_layer_call_hook() -> None:
    with _layer_hook_lock:
        if not _layer_hook["count"]:
            return
        _layer_hook["count"] -= 1
        if not _layer_hook["count"]:
            _layer_hook["cls"].__call__ = _layer_hook["original"]
            _layer_hook.update(original=None, cls=None)
