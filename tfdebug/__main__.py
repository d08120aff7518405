"""``python -m tfdebug`` is the ``tfdebug`` command."""
import os
import sys

# `python -m` puts the current folder first on sys.path. The static commands read the user's
# files and never import them: drop that entry so a checked tree's own tensorflow.py,
# numpy.py or stdlib look-alike can never run.
if sys.argv[1:2] and sys.argv[1] in ("lint", "recipes", "explain") and sys.path and \
        sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from tfdebug.cli import main  # noqa: E402  (absolute: this file may run as a plain script)

sys.exit(main())
