"""Entry point of the bundled program (PyInstaller needs a plain script)."""

import sys

from ttr_desktop.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
