"""dinotable: a desktop tabletop for dinosaur games, with rules written in YAML."""

import os

__version__ = "0.1.0"

# pygame's greeting would land in every command's output, JSON included.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
