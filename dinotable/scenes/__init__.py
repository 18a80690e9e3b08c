"""The scene stack: title, setup, table, hand-off, pause, rules reference and results."""
