"""tfdebug's logger ("tfdebug"), imported on its first message: ``logging`` (and what it
imports) costs a script started by ``tfdebug run`` nothing until tfdebug has something to say.

Example::

    from ._log import log
    log.debug("tfdebug: ...")
"""


class _Log:
    def __getattr__(self, name):
        import logging

        return getattr(logging.getLogger("tfdebug"), name)


log = _Log()
