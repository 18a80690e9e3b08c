"""What may be clicked in a lesson: the table's chooser, with only the taught move's things
glowing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..table.choice import Chooser, Target
from ..table.marking import Building, by_faces

if TYPE_CHECKING:
    from ..engine import Action, GameState


class LessonChooser(Chooser):
    """The table's chooser, with only the taught move's things glowing: a thing glows when
    a click on it leads to the move the lesson teaches now."""

    def __init__(self, state: GameState, names: list[str],
                 taught: Callable[[], Action | None]) -> None:
        self.taught = taught
        self.kept: tuple[Any, set[Target]] | None = None
        super().__init__(state, names)

    def targets(self) -> set[Target]:
        want = self.taught()
        b = self.building
        key = (self.version, self.ready, want, None if b is None else (
            b.adef.id, tuple(b.marked), tuple((k, repr(v)) for k, v in b.bound.items())))
        if self.kept is not None and self.kept[0] == key:
            return self.kept[1]
        found = super().targets()
        taught = set() if want is None else {
            t for t in found if self.leads(partial(Chooser.click, self, t), want)}
        self.kept = (key, taught)
        return taught

    def leads(self, step: Callable[[], Action | None], want: Action) -> bool:
        """Whether a click or a button's step heads for `want`: tried, then undone."""
        b = self.building
        kept = (None if b is None else Building(b.adef, dict(b.bound), list(b.marked),
                                                b.payable), self.ready, self.glowing)
        try:
            action = step()
            if action is not None:
                return action == want
            if self.ready is not None:
                return self.ready[0] == want
            now = self.building
            if now is None or now.adef.id != want.id:
                return False
            args = dict(want.args)
            arg = now.next_arg
            if arg is not None and by_faces(arg):
                # Dice named by their faces: any dice showing faces the move names will do,
                # one more at a click (a click that puts a die back leads nowhere).
                extra = Counter(self.faces_marked(now)) - Counter(args.get(arg.name, ()))
                more = len(now.marked) > (0 if b is None else len(b.marked))
                return all(args.get(k) == v for k, v in now.bound.items()) and not extra and more
            return all(args.get(k) == v for k, v in now.bound.items()) and all(
                any(item in v for v in args.values() if isinstance(v, tuple))
                for item in now.marked)
        finally:
            self.building, self.ready, self.glowing = kept
