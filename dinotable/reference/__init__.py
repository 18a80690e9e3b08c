"""Plain hand-written reference implementations.

They are used to cross-check the engine and to benchmark it.
"""
