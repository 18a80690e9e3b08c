"""The frozen app's entry point: `python -m dinotable`, plus a console on windowed Windows."""

from __future__ import annotations

import sys


def _borrow_console() -> None:
    """A windowed Windows build starts with no stdout; started from a terminal, it writes there.

    Double-clicked, there is no parent console and nothing changes: the window is all there is.
    """
    if sys.platform != "win32" or sys.stdout is not None:
        return
    import ctypes

    if ctypes.windll.kernel32.AttachConsole(-1):  # ATTACH_PARENT_PROCESS
        sys.stdout = open("CONOUT$", "w", encoding="utf-8", errors="replace")  # noqa: SIM115
        sys.stderr = open("CONOUT$", "w", encoding="utf-8", errors="replace")  # noqa: SIM115


if __name__ == "__main__":
    import multiprocessing

    # A frozen app's `simulate --jobs` worker processes start here too (Windows, macOS).
    multiprocessing.freeze_support()
    from dinotable import stop

    stop.listen()  # Ctrl+C while the app starts is remembered, never lost (see stop.py)
    _borrow_console()
    try:
        from dinotable.cli import main

        status = main()
    except KeyboardInterrupt:  # a command given Python's own Ctrl+C back
        status = 130
    sys.exit(status)
