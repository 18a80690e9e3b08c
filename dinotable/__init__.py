"""dinotable: a desktop tabletop for dinosaur games, with rules written in YAML."""

__version__ = "0.1.0"
