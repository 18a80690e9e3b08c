"""`python -m dinotable`."""

import sys

from .cli import main

sys.exit(main())
