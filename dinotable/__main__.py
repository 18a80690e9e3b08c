"""`python -m dinotable`."""

import sys

from . import stop

stop.listen()  # before anything slow: see stop.py

try:
    from .cli import main

    status = main()
except KeyboardInterrupt:  # only before listen() or in a command given Python's own back
    status = 130
sys.exit(status)
