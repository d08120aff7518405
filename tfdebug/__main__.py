"""``python -m tfdebug`` is the ``tfdebug`` command."""
import sys

from .cli import main

sys.exit(main())
