"""The autosave's journal: the moves made since the autosave was last written in full, one
short line each, appended as they are made.

A save written whole after every move costs more the longer the game (3,000 moves of
Danger! Danger! Dinosaur are some 120 KB). So the autosave is two files:

- the base, `autosave.yaml`: a save in the format every reader knows, written in full (a
  synced temporary file renamed over the slot, the two before it kept) at a session's first
  save, after a move is taken back, when the game is closed, and whenever the journal has
  grown as large as the base and past JOURNAL_MIN_BYTES (so the full writes come ever
  further apart, and a move costs the same on average at move 3,000 as at move 30);
- the journal, `autosave.journal` beside it: one line appended per move. The line is in the
  kernel's hands when the move's autosave returns (a killed process loses nothing), and a
  thread beside the game syncs it to disk a moment later (a power cut may cost the last
  moves, never the base).

Opening the autosave reads the base and plays the journal's complete lines on top of it.
Each line starts with a checksum of itself and ends in a newline: a line cut short by a
kill, or garbage a power cut left at the end, is not read, nor anything after it, so the
save opens to the game as of the last line written whole. The journal's first line names
the base it belongs to (a digest of the base's bytes): a journal left beside another base
(a kill between the base's rename and the new journal's) is never read onto it. A reader
that knows no journals (an older dinotable) opens the base alone: the game as of the last
full write.

A line is `CRC32 JSON`: the header `{"journal": 1, "base": DIGEST}`, then one
`[MOVES_BEFORE, [seat, action, [[argument, value], ...]], RANDOM]` a move, where RANDOM
is null when the bots' random source is as the line before left it, `[POSITION, GAUSS]`
when only its position moved, or `[VERSION, [625 words], GAUSS]` in full.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import bounded
from ..ruleset import LoadError, Problem
from ..ruleset.problems import Reporter
from .checking import MAX_MOVES, _check_log, _check_random
from .game import SavedGame

JOURNAL_FORMAT = 1
JOURNAL_MIN_BYTES = 64 * 1024  # below this the base is not rewritten (~1,000 moves)
MAX_JOURNAL_BYTES = 2 * 1024 * 1024  # the base is rewritten long before (at most 512 KB)
MAX_LINE_BYTES = 64 * 1024  # a move is ~50 bytes; the random source in full ~7 KB

Move = tuple[int, str, tuple[tuple[str, Any], ...]]


def journal_path(path: Path) -> Path:
    """The journal beside a save: autosave.yaml -> autosave.journal."""
    return path.with_suffix(".journal")


def journal_tmp(path: Path) -> Path:
    """Where a new journal is written before it is renamed into place."""
    return path.with_name(f"{path.stem}.journal.tmp")


def digest(raw: bytes) -> str:
    """What names a base in its journal's first line."""
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def _line(value: Any) -> bytes:
    body = json.dumps(value, separators=(",", ":")).encode("utf-8")
    return b"%08x " % zlib.crc32(body) + body + b"\n"


def _move_value(move: Move) -> list[Any]:
    player, action, args = move
    # A subset argument (a tuple of ids) is written as a list, as in the base.
    return [player, action, [[k, list(v) if isinstance(v, tuple) else v] for k, v in args]]


# --- reading -----------------------------------------------------------------------------


def _body(line: bytes) -> bytes | None:
    """A line's JSON when its checksum holds; None for a torn or garbled one."""
    crc, _, body = line.partition(b" ")
    if len(crc) != 8 or len(line) > MAX_LINE_BYTES:
        return None
    try:
        return body if int(crc, 16) == zlib.crc32(body) else None
    except ValueError:
        return None


def apply_journal(game: SavedGame, base_text: str, path: Path) -> SavedGame:
    """The game with its journal's moves played on (the game itself when there is no
    journal for this base). LoadError, naming the journal's line, for a line whose checksum
    holds but which is not a move this game can take next."""
    where = journal_path(path)
    try:
        if not where.is_file() or where.is_symlink():
            return game
    except OSError:
        return game
    try:
        raw = bounded.read_bytes(where, MAX_JOURNAL_BYTES, "an autosave's journal")
    except bounded.Refused as exc:
        raise LoadError([Problem(str(where), 1, 1, "(file)", exc.message)]) from None
    lines = raw.split(b"\n")[:-1]  # what follows the last newline was cut short
    header = _body(lines[0]) if lines else None
    try:
        head = json.loads(header) if header is not None else None
    except (ValueError, RecursionError):
        head = None
    if (not isinstance(head, dict) or head.get("journal") != JOURNAL_FORMAT
            or head.get("base") != digest(base_text.encode("utf-8"))):
        return game  # another base's journal, or a newer dinotable's: the base alone
    entries: list[Any] = []
    randoms: list[tuple[int, Any]] = []
    marks: dict[tuple[Any, ...], tuple[int, int]] = {}
    for number, line in enumerate(lines[1:], start=2):
        body = _body(line)
        if body is None:
            break  # a kill or a power cut ended the journal here
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):  # a number too long, lists nested too deep
            value = None
        if (not isinstance(value, list) or len(value) != 3
                or value[0] != len(game.log) + len(entries)
                or isinstance(value[0], bool)):
            raise LoadError([Problem(str(where), number, 1, "(journal)", (
                f"expected [{len(game.log) + len(entries)}, [seat, action, [[argument, "
                f"value], ...]], random source]"))])
        marks[("log", len(entries))] = (number, 1)
        entries.append(value[1])
        if value[2] is not None:
            randoms.append((number, value[2]))
    if not entries:
        return game
    if len(game.log) + len(entries) > MAX_MOVES:
        raise LoadError([Problem(str(where), len(lines), 1, "(journal)",
                                 f"more than {MAX_MOVES} moves; a save holds at most "
                                 f"{MAX_MOVES}")])
    report = Reporter(str(where), marks)
    moves = _check_log(entries, len(game.seats), report)
    report.raise_if_any()
    game.log = list(game.log) + moves
    for number, value in randoms:
        game.bots_random = _random(game.bots_random, value, Reporter(str(where), {
            ("bots_random",): (number, 1)}))
    with contextlib.suppress(OSError):
        game.saved_at = time.strftime("%Y-%m-%d %H:%M:%S",
                                      time.localtime(where.stat().st_mtime))
    return game


def _random(before: tuple[Any, ...] | None, value: Any, report: Reporter
            ) -> tuple[Any, ...] | None:
    """The bots' random source after a line's RANDOM (see the module's docstring)."""
    if isinstance(value, list) and len(value) == 2 and before is not None:
        words = list(before[1])
        words[-1] = value[0]
        raw: Any = {"version": before[0], "state": words, "gauss": value[1]}
    elif isinstance(value, list) and len(value) == 3:
        raw = {"version": value[0], "state": value[1], "gauss": value[2]}
    else:
        raw = None
    state = _check_random(raw, report) if raw is not None else None
    if raw is None:
        report(("bots_random",), "expected the bots' random source: null, [position, "
                                 "gauss] or [version, [625 words], gauss]")
    report.raise_if_any()
    return state


# --- writing -----------------------------------------------------------------------------


@dataclass
class _Written:
    """The autosave as this process last wrote it: a move appended needs nothing more."""

    path: Path
    base_key: tuple[int, int, int]
    journal_key: tuple[int, int]
    base_bytes: int
    journal_bytes: int
    game: SavedGame  # its head (seats, options...) and its bots' random source
    log: list[Move] = field(default_factory=list)


_written: _Written | None = None


def _key(path: Path) -> tuple[int, int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


def forget() -> None:
    """The next autosave is written in full."""
    global _written
    _written = None


def started(path: Path, raw: bytes, game: SavedGame) -> None:
    """The base was just written in full (`raw`, the whole game): start its journal."""
    global _written
    _written = None
    target, tmp = journal_path(path), journal_tmp(path)
    try:
        header = _line({"journal": JOURNAL_FORMAT, "base": digest(raw)})
        with open(tmp, "wb") as f:
            f.write(header)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except OSError:
        # The base holds the whole game; the journal left beside it names another base and
        # is not read. The next move is written in full again.
        with contextlib.suppress(OSError):
            tmp.unlink()
        return
    base_key, journal_key = _key(path), _key(target)
    if base_key is None or journal_key is None:
        return
    _written = _Written(path, base_key, journal_key[:2], len(raw), len(header),
                        _head_copy(game), list(game.log))


def _head_copy(game: SavedGame) -> SavedGame:
    return SavedGame(game.ruleset, game.version, list(game.seats), dict(game.options),
                     game.seed, [], game.bots_random, name=game.name)


def _same_head(a: SavedGame, b: SavedGame) -> bool:
    return (a.ruleset == b.ruleset and a.version == b.version and a.seats == b.seats
            and a.options == b.options and a.seed == b.seed and a.name == b.name
            and (a.bots_random is None) == (b.bots_random is None))


def try_append(game: SavedGame, path: Path) -> bool:
    """Append the moves made since the last autosave to its journal, synced; True when
    done (or nothing was new). False when the autosave must be written in full: none
    written yet by this process, a move taken back, another game, the files changed by
    anything else, or a journal grown as large as its base."""
    global _written
    w = _written
    if w is None or w.path != path or not _same_head(game, w.game):
        return False
    done = len(w.log)
    if len(game.log) < done:
        return False  # moves taken back: written in full
    if w.journal_bytes >= max(JOURNAL_MIN_BYTES, w.base_bytes):
        return False
    where = journal_path(path)
    journal_key = _key(where)
    if (_key(path) != w.base_key or journal_key is None
            or journal_key[:2] != w.journal_key):
        return False  # moved aside, archived, discarded or written by someone else
    new = game.log[done:]
    # The log must go on from the moves written (a move taken back and another played
    # changes one): compared whole, with the new moves added to those written first, so
    # that no copy of the log is made and moves held by both are matched by identity.
    w.log.extend(new)
    if game.log != w.log:
        _written = None
        return False
    rng = _random_value(w.game.bots_random, game.bots_random)
    if not new:
        if rng is not None:
            _written = None  # a random source moved alone: written in full
        return rng is None
    # The random source as it stands after the last move, on that move's line.
    lines = [_line([done + i, _move_value(m), rng if i == len(new) - 1 else None])
             for i, m in enumerate(new)]
    data = b"".join(lines)
    try:
        fd = os.open(where, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
        try:
            # One write: a kill leaves the lines before it whole and at most one cut short.
            # Once written, the kernel holds it: a killed process loses nothing.
            os.write(fd, data)
        finally:
            os.close(fd)
    except OSError:
        _written = None  # a line may be half written: the next autosave starts afresh
        return False
    _syncing.request(where)
    w.journal_bytes += len(data)
    w.journal_key = (w.journal_key[0], w.journal_bytes)
    w.game.bots_random = game.bots_random
    return True


class _Syncer:
    """Syncs the journal to disk beside the game, so that a move costs the table no wait
    on the disk (a sync takes milliseconds, more on a busy or slow disk). Requests made
    while a sync runs are met by one more: a power cut costs at most the moves of the
    last sync or two, and never what the base holds."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.asked = 0  # syncs asked for, and the last of them done
        self.done = 0
        self.path: Path | None = None
        self.thread: threading.Thread | None = None

    def request(self, path: Path) -> None:
        with self.changed:
            self.asked += 1
            self.path = path
            if self.thread is None or not self.thread.is_alive():
                # A daemon: a sync under way never holds up closing the app.
                self.thread = threading.Thread(target=self._run, name="autosave-sync",
                                               daemon=True)
                self.thread.start()
            self.changed.notify_all()

    def wait(self, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.done == self.asked, timeout)

    def _run(self) -> None:
        while True:
            with self.changed:
                self.changed.wait_for(lambda: self.done != self.asked)
                target, path = self.asked, self.path
            if path is not None:
                with contextlib.suppress(OSError):
                    # Opened to write (Windows syncs only such), never written through.
                    fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
                    try:
                        os.fsync(fd)
                    finally:
                        os.close(fd)
            with self.changed:
                self.done = target
                self.changed.notify_all()


_syncing = _Syncer()


def _after_fork() -> None:
    # A forked process has no sync thread, and its lock may have been held when forked.
    global _syncing
    _syncing = _Syncer()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def synced(timeout: float = 5.0) -> bool:
    """Wait until every move appended to the journal is on disk (True), or `timeout`."""
    return _syncing.wait(timeout)


def _random_value(before: tuple[Any, ...] | None, now: tuple[Any, ...] | None) -> Any:
    """RANDOM for a line (see the module's docstring): null when unchanged."""
    if now is None or now == before:
        return None
    version, words, gauss = now
    if before is not None and before[0] == version and before[1][:-1] == words[:-1]:
        return [words[-1], gauss]
    return [version, list(words), gauss]
