"""Entry point of the bundled program (PyInstaller needs a plain script)."""

import multiprocessing
import sys

from ttr_desktop.__main__ import main

if __name__ == "__main__":
    # The Hard bot thinks in a worker process: a frozen program must let the worker start.
    multiprocessing.freeze_support()
    sys.exit(main())
