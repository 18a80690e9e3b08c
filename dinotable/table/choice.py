"""What the seat the game waits on may do, as buttons and as clicks on things.

The only place the table asks the engine for legal actions. A target on the table (an item,
a board space, a seat) or a button maps to an action; an action with several arguments is
chosen a step at a time (click a card, then a space; click a card, then the dice that pay
for it), and a subset of items is built by marking them and confirming. A subset is never
listed: the confirm button asks `why_illegal` about the one the player marked. Dice named
by their faces (a `faces_of` argument) are chosen the same way, by clicking the dice: the
faces of the dice marked are the argument.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..engine import (
    PASS,
    Action,
    ActionDef,
    ArgDef,
    GameState,
    applies,
    arg_values,
    is_subset,
    moves,
    showing_tops,
    why_illegal,
)
from .board_spaces import SPACE as SPACE
from .board_spaces import BoardSpaces
from .board_spaces import Target as Target
from .marking import Building, DiceMarks, by_faces, marked_by_hand
from .wording import SPAN_AT, Wording
from .wording import item_label as item_label


@dataclass
class Choice:
    """One button of the action bar: take an action, or take one step of building one."""

    label: str
    tag: str
    action: Action | None = None  # taken when pressed
    step: Callable[[], Action | None] | None = None  # a step instead (may finish one)
    enabled: bool = True
    reason: str = ""
    key: str = ""
    # A short answer among many (a count, a face): its button is only as wide as its words,
    # so a row of them fits the bar instead of a page each.
    compact: bool = False


class Chooser(Wording, DiceMarks, BoardSpaces):
    """The waiting seat's possible moves now, for buttons and clicks on targets."""

    def __init__(self, state: GameState, names: list[str]) -> None:
        self.state = state
        self.names = names
        self.rules = state.rules
        self.seat: int | None = None
        self.building: Building | None = None
        self.legal: list[Action] = []
        self.partial: list[ActionDef] = []  # actions with a subset argument, open to choose
        self.version = 0  # counts refreshes: what is glowing is kept until the next one
        self.glowing: tuple[Any, set[Target]] | None = None
        # A move a click on a card chose, shown on the bar to confirm: a click on a card is
        # a choice, never the move itself (a player reading a card must not play it).
        self.ready: tuple[Action, Target] | None = None
        self.shown: set[str] | None = None  # zones drawn item by item (worked out once)
        # Cards that may be chosen but were not drawn in the last frame (a full area's "+N
        # more" holds them): they are offered as buttons instead (see display.py).
        self.unseen: frozenset[Target] = frozenset()
        # What a move would do to the dice, worked out once per move (see dice_touched).
        self.previewed: tuple[Action, tuple[str, ...]] | None = None
        self.turning: tuple[int, tuple[str, ...]] | None = None
        self.refresh()

    # --- what is legal --------------------------------------------------------------

    def refresh(self) -> None:
        """Work out the moves again (after an action, or a change of who is waiting): the
        engine's own answer, with actions that take a set of items to build by marking."""
        self.version += 1
        self.building = None
        self.ready = None
        found = moves(self.state)
        self.seat = found.seat
        self.legal = list(found.listed)
        self.partial = [self.rules.actions[aid] for aid in found.built]

    @property
    def anything(self) -> bool:
        """Whether the waiting seat has any move at all."""
        return bool(self.legal or self.partial)

    def available(self, action_id: str) -> bool:
        """Whether some move of this action is open now."""
        return any(a.id == action_id for a in self.legal) or any(
            a.id == action_id for a in self.partial)

    # --- words ------------------------------------------------------------------------

    def prompt(self) -> str:
        """What the player is asked to do next while building a choice."""
        if self.ready is not None:
            action, _ = self.ready
            paid = " to pay with the ticked dice" if self.paying() else ""
            return (f"{self.names[action.player]}: press '{self.ready_label()}'{paid}, or "
                    f"click another.")
        b = self.building
        if b is None:
            return ""
        arg = b.next_arg
        label = b.adef.label
        chosen = [a for a in b.adef.args if a.name in b.bound]
        if chosen and all(a.domain == "choice" for a in chosen):
            # The answers given so far stay in sight: "Bid, count 3: choose the face."
            label += ", " + ", ".join(f"{a.name.replace('_', ' ')} "
                                      f"{self.listed_name(a, b.bound[a.name])}" for a in chosen)
        if arg is None:
            return f"{label}: press the button to confirm."
        if by_faces(arg):
            return (f"{label}: click the {self.pieces(arg)} you choose (again to put one back), "
                    f"then press '{self.confirm_label(b)}'.")
        if is_subset(arg):
            if b.bound and not b.marked and not b.payable:
                return f"{label}: nothing here pays for that. Choose another, or Cancel."
            return (f"{label}: click the dice or cards to mark them, then press "
                    f"'{label}' ({len(b.marked)} marked).")
        if self.clickable(arg):
            return f"{label}: click {self.noun(arg)}."
        return f"{label}: choose {self.noun(arg)}."

    def open_values(self, arg: ArgDef) -> list[Any]:
        """The values an argument being chosen may still take (within a span chosen)."""
        b = self.building
        if b is None:
            return []
        found = list(dict.fromkeys(dict(a.args)[arg.name] for a in self._matching(b)))
        if b.span is not None and arg is b.next_arg:
            low, high = b.span
            found = [v for v in found if isinstance(v, int) and low <= v <= high]
        return found

    # --- buttons ------------------------------------------------------------------------

    def choices(self) -> list[Choice]:
        """The action bar's buttons, in the ruleset's order."""
        if self.seat is None:
            return []
        if self.ready is not None:
            action, _ = self.ready
            # No key caps: the confirm button has the focus (Enter presses it), and the
            # move's name is what must be read in full.
            return [Choice(self.ready_label(), f"confirm:{action.id}", action),
                    Choice("Cancel", "cancel", step=self.cancel)]
        if self.building is not None:
            return self._building_choices(self.building)
        out: list[Choice] = []
        for adef in self.rules.actions.values():
            if not applies(adef.applies_when, self.state.options):
                continue  # not in this game at all (Craft in a party game): not even greyed
            listed = [a for a in self.legal if a.id == adef.id]
            if adef in self.partial:
                out.append(Choice(adef.label, f"start:{adef.id}",
                                  step=partial(self.start, adef), key=adef.key.upper()))
            elif not adef.args:
                if listed:
                    # Phrased, the move says what it does ("Challenge Ben").
                    words = self.move_words(listed[0]) if adef.says is not None else adef.label
                    out.append(Choice(words, f"action:{adef.id}", listed[0],
                                      key=adef.key.upper()))
                elif adef.by == "current" and not self.state.pending:
                    # Shown but greyed, with the reason on hover (Stop before any roll).
                    act = Action(self.seat, adef.id)
                    out.append(Choice(adef.label, f"action:{adef.id}", act, enabled=False,
                                      reason=why_illegal(self.state, act) or "",
                                      key=adef.key.upper()))
            elif listed:
                first = adef.args[0]
                values = list(dict.fromkeys(dict(a.args)[first.name] for a in listed))
                if self.clickable(first, values) or by_faces(first):
                    # One button for the kind of action: pressed (or its key typed), the
                    # things it may be done to glow and a click on one chooses it.
                    out.append(Choice(adef.label, f"start:{adef.id}",
                                      step=partial(self.start, adef), key=adef.key.upper()))
                elif len(adef.args) == 1 and not (first.domain == "choice"
                                                   and len(listed) > SPAN_AT):
                    for a in listed:
                        value = dict(a.args)[first.name]
                        out.append(Choice(self.move_words(a), f"{adef.id}:{value}", a))
                else:
                    # Several answers to give (the first food paid, then the second), or
                    # one among many (a count of up to thirty): one button with its key,
                    # the answers asked in turn. A button per first answer ("Buy a card:
                    # Leaf") would read as the whole price.
                    out.append(Choice(adef.label, f"start:{adef.id}",
                                      step=partial(self.start, adef), key=adef.key.upper()))
        if self.state.pending and self.state.pending[-1].get("kind") == "window":
            # Asked to respond, most people pass: Pass comes first, never a page away.
            out.sort(key=lambda c: c.tag != f"action:{PASS}")
        return out

    def _building_choices(self, b: Building) -> list[Choice]:
        out: list[Choice] = []
        arg = b.next_arg
        if arg is not None and by_faces(arg):
            # One button: the dice are chosen by clicking them (or the keyboard's ring).
            faces = self.faces_marked(b)
            action = self._action(b, {arg.name: faces})
            rest = [a for a in b.adef.args if a.name not in b.bound and a is not arg]
            # Dice that pay for something still to choose (where to put what they buy):
            # the button takes them, and the next choice glows.
            fits = any(dict(a.args).get(arg.name) == faces for a in self._matching(b)) \
                if rest else action in self.legal
            reason = None if fits else (
                f"Click the {self.pieces(arg)} to choose them first." if not b.marked else
                (None if rest else why_illegal(self.state, action)) or
                f"Those {self.pieces(arg)} cannot be chosen together.")
            # Its key is the action's own: E begins choosing the dice and E throws them.
            out.append(Choice(self.confirm_label(b), f"confirm:{b.adef.id}",
                              None if rest else action,
                              step=partial(self.bind, faces) if rest else None,
                              enabled=reason is None, reason=reason or "",
                              key=b.adef.key.upper()))
        elif arg is not None and is_subset(arg):
            for item in self.markable(arg):
                sign = "Unmark" if item in b.marked else "Mark"
                out.append(Choice(f"{sign} {self.value_name(arg, item)}", f"mark:{item}",
                                  step=partial(self.toggle, item)))
            action = self._action(b, {arg.name: tuple(self._ordered(arg, b.marked))})
            reason = why_illegal(self.state, action) if b.marked else "Mark some first."
            out.insert(0, Choice(f"{b.adef.label} ({len(b.marked)})", f"confirm:{b.adef.id}",
                                 action, enabled=reason is None, reason=reason or "",
                                 key="Enter"))
        elif arg is not None and (spans := self.spans(arg)):
            # Many numbers (a count of up to thirty): a span first, its numbers next.
            for low, high in spans:
                out.append(Choice(f"{low}\u2013{high}" if high > low else str(low),
                                  f"{b.adef.id}:span:{low}-{high}",
                                  step=partial(self.narrow, low, high),
                                  compact=True))
        elif arg is not None and not self.clickable(arg, self.open_values(arg)):
            # One button a value: several moves may share it (Leaf, then Fish or Meat).
            for value in self.open_values(arg):
                out.append(Choice(f"{self.value_name(arg, value)}", f"{b.adef.id}:{value}",
                                  step=partial(self.bind, value),
                                  compact=arg.domain == "choice"))
        # Among short buttons, Cancel shows no key cap so that they fit the bar beside it
        # (Backspace still cancels).
        short = any(c.compact for c in out)
        out.append(Choice("Cancel", "cancel", step=self.cancel,
                          key="" if short else "Backspace"))
        return out

    # --- steps -------------------------------------------------------------------------

    def start(self, adef: ActionDef, bound: dict[str, Any] | None = None) -> Action | None:
        """Begin choosing an action a step at a time; an only possible rest is taken."""
        self.building = Building(adef, dict(bound or {}))
        return self._finish_if_one()

    def narrow(self, low: int, high: int) -> Action | None:
        """Choose a span of numbers: its numbers are offered next."""
        if self.building is not None:
            self.building.span = (low, high)
        return None

    def bind(self, value: Any) -> Action | None:
        """Choose the next argument of the action being built."""
        b = self.building
        if b is None or b.next_arg is None:
            return None
        b.bound[b.next_arg.name] = value
        b.span = None
        return self._finish_if_one()

    def toggle(self, item: str) -> Action | None:
        """Mark or unmark an item for the subset being built."""
        b = self.building
        if b is not None:
            if item in b.marked:
                b.marked.remove(item)
            else:
                b.marked.append(item)
        return None

    def cancel(self) -> Action | None:
        """Stop building; back to the first choice."""
        self.building = None
        self.ready = None
        return None

    def _finish_if_one(self) -> Action | None:
        b = self.building
        if b is None:
            return None
        arg = b.next_arg
        if arg is None:
            action = self._action(b, {})
            self.building = None
            return action if why_illegal(self.state, action) is None else None
        if by_faces(arg):
            if b.bound and not b.marked:
                # Dice that pay for what was chosen, marked to confirm or change.
                first = next((dict(a.args)[arg.name] for a in self._matching(b)), ())
                b.marked = self.dice_showing(b, first)
            return None
        if is_subset(arg):
            if b.bound and not b.marked:
                b.marked = self.assign(arg)
                b.payable = bool(b.marked)
            return None
        matching = self._matching(b)
        values = list(dict.fromkeys(dict(a.args)[arg.name] for a in matching))
        if not values:
            self.building = None
        elif len(values) == 1 and b.adef in self.partial:
            # An only value of an argument before a subset: chosen, and the subset (the
            # dice that pay for the only card) is still to build, never left out.
            b.bound[arg.name] = values[0]
            return self._finish_if_one()
        elif len(matching) == 1:
            self.building = None
            return matching[0]
        return None

    def _switches(self, b: Building) -> dict[Target, Any]:
        """While a subset pays for a chosen thing (the card), the other things of that
        first argument a click would choose instead, by their target."""
        first = b.adef.args[0]
        if b.adef not in self.partial or is_subset(first) or first.name not in b.bound:
            return {}
        values = arg_values(self.state, self.seat or 0, b.adef.id)
        return {self._target(first, v): v for v in values if v != b.bound[first.name]}

    def _matching(self, b: Building) -> list[Action]:
        """Listed actions that agree with what has been chosen so far."""
        if b.adef in self.partial:
            # Arguments before the subset: their values now, with the earlier ones bound.
            arg = b.next_arg
            if arg is None:
                return []
            return [Action(self.seat or 0, b.adef.id, tuple(sorted({**b.bound,
                                                                    arg.name: v}.items())))
                    for v in arg_values(self.state, self.seat or 0, b.adef.id, b.bound)]
        return [a for a in self.legal if a.id == b.adef.id and all(
            dict(a.args).get(k) == v for k, v in b.bound.items())]

    # --- clicks on things ----------------------------------------------------------------

    def marked(self) -> list[str]:
        """Items marked so far for a subset being built, or the card a click chose."""
        if self.ready is not None:
            return [str(self.ready[1].value)]
        return list(self.building.marked) if self.building is not None else []

    def answering(self) -> set[str]:
        """The items the response window the game waits on answers, for everyone to see:
        the dinosaur being hunted (on a space where the player whose turn it is stands)."""
        frame = self.state.pending[-1] if self.state.pending else None
        if frame is None or frame.get("kind") != "window":
            return set()
        standing = _plain_values(self.state.player_vars[self.state.current])
        out: set[str] = set()
        for value in dict(frame.get("args") or {}).values():
            if not isinstance(value, str):
                continue
            if value in self.rules.items:  # a kind: its cards on the board, nearest first
                found = [(zone.split(SPACE)[-1] in standing, self.state.items[i].id)
                         for zone, lists in self.state.zones.items() if SPACE in zone
                         for i in lists[0] if self.state.items[i].kind == value]
                near = {i for here, i in found if here}
                out |= near or {i for _, i in found}
            elif value in self.state.item_ids:
                out.add(value)
        return out

    def clickable(self, arg: ArgDef, values: list[Any] | None = None) -> bool:
        """Whether an argument's values are things on the table to click (a player, a
        space, a card in a hand or row), rather than words only a button can offer."""
        if is_subset(arg):
            return False
        if values is None:
            values = self.open_values(arg)
        for value in values:
            found = self._value_targets(arg, value)
            if not found or any(t.kind == "value" or t in self.unseen for t in found):
                return False
        return bool(values)

    def shown_zones(self) -> set[str]:
        """The zones and boards whose items are drawn one by one, each a thing to click (a
        pile shows its top card at most, a count none)."""
        if self.shown is None:
            from .widgets import zone_specs  # the parts import this module

            layout = self.rules.layout
            self.shown = {spec.zone or spec.board for spec in zone_specs(
                self.rules, layout) if spec.show not in ("pile", "count")}
            self.shown |= set(layout.tray) | {a.zone for a in layout.areas} | {
                a.zone for a in layout.player_zones}
        return self.shown

    def targets(self) -> set[Target]:
        """Everything a click would do something with now (drawn with a glow). Asked for
        every frame (drawing, hovering, the keyboard ring): worked out once per refresh and
        step of a choice being built."""
        b = self.building
        key = (self.version, self.ready, None if b is None else (
            b.adef.id, tuple(b.marked), tuple((k, repr(v)) for k, v in b.bound.items())))
        if self.glowing is not None and self.glowing[0] == key:
            return self.glowing[1]
        found = self.with_boards(self._targets())
        self.glowing = (key, found)
        return found

    def _targets(self) -> set[Target]:
        found: set[Target] = set()
        b = self.building
        if b is not None:
            arg = b.next_arg
            if arg is not None and marked_by_hand(arg):
                found |= {Target("item", i) for i in self.markable(arg)}
                found |= set(self._switches(b))
            elif arg is not None:
                for a in self._matching(b):
                    found |= self._value_targets(arg, dict(a.args)[arg.name])
            return found
        for adef in self.partial:
            first = adef.args[0]
            if is_subset(first):
                found |= {Target("item", i) for i in self.markable(first)}
            else:
                found |= {self._target(first, v)
                          for v in arg_values(self.state, self.seat or 0, adef.id)}
        by_dice = {a.id for a in self.legal if a.args and by_faces(
            self.rules.actions[a.id].args[0])}
        for aid in by_dice:  # the dice those choices name, each a thing to click
            found |= {Target("item", i) for i in self.markable(self.rules.actions[aid].args[0])}
        for a in self.legal:
            adef = self.rules.actions[a.id]
            if adef.args and a.id not in by_dice:
                found |= self._value_targets(adef.args[0], dict(a.args)[adef.args[0].name])
        return found

    def _value_targets(self, arg: ArgDef, value: Any) -> set[Target]:
        """Every thing on the table a click may choose a value by: a kind names each card
        of that kind in the seat's own (or a shared) zone, or on the board; of a board's,
        those on a space where the seat stands, when any is (the period one hunts in)."""
        if arg.is_player or arg.domain == "space_of" or not isinstance(value, str):
            return {self._target(arg, value)}
        tops = showing_tops(self.state, self.seat or 0, arg)
        if tops is not None:  # a kind on top of a stack: the card showing there
            return {Target("item", item) for item, kind in tops if kind == value}
        if not (arg.domain.startswith("kind") and value in self.rules.items):
            index = self.state.item_ids.get(value)
            if index is None:
                return {self._target(arg, value)}
            zone = next((z for z, lists in self.state.zones.items()
                         if any(index in content for content in lists)), "")
            return {Target("item", value)} if zone.split(SPACE)[0] in self.shown_zones() \
                else set()
        on_board = arg.domain == "kind_on"
        standing = _plain_values(self.state.player_vars[self.seat or 0])
        shown = self.shown_zones()
        found: list[tuple[bool, Target]] = []
        for zone, lists in self.state.zones.items():
            if (SPACE in zone) != on_board or zone.split(SPACE)[0] not in shown:
                continue
            for owner, content in enumerate(lists):
                if len(lists) > 1 and owner != self.seat:
                    continue
                # The nearest first: a seat's own zone, a space where the seat stands.
                here = zone.split(SPACE)[-1] in standing if on_board else len(lists) > 1
                found += [(here, Target("item", self.state.items[i].id)) for i in content
                          if self.state.items[i].kind == value]
        near = {t for h, t in found if h}
        # None on show (a kind lying in a pile): only a button can name it.
        return near or {t for _, t in found}

    def _target(self, arg: ArgDef, value: Any) -> Target:
        if arg.is_player:
            return Target("seat", int(value))
        if arg.domain == "space_of":
            board = self._board_of(arg, value)
            return Target("space", f"{board}{SPACE}{value}")
        if isinstance(value, str) and value in self.state.item_ids:
            return Target("item", value)
        return Target("value", value)

    def _board_of(self, arg: ArgDef, value: Any) -> str:
        for name, board in self.rules.boards.items():
            if value in board.spaces:
                return name
        return ""

    def click(self, target: Target) -> Action | None:
        """What a click on a target does: an action to take now, or a step (None). A click
        on a card that would finish a move chooses it: the bar asks to confirm; a second
        click on the chosen card lets it go."""
        chosen, self.ready = self.ready, None
        if target.owner is not None:  # a space on a player's board
            if any(t == target for t, _ in self._board_offers()):
                return self.board_click(target)
            target = Target(target.kind, target.value)  # one's own, chosen as before
        if chosen is not None and chosen[1] == target:
            self.glowing = None
            return None
        action = self._click(target)
        if action is not None and target.kind == "item" and self.is_card(str(target.value)):
            self.ready = (action, target)
            self.building = None
            return None
        return action

    def is_card(self, item_id: str) -> bool:
        index = self.state.item_ids.get(item_id)
        if index is None:
            return False
        idef = self.rules.items.get(self.state.items[index].kind)
        return idef is not None and getattr(idef, "type", "") == "card"

    def _click(self, target: Target) -> Action | None:
        b = self.building
        if b is not None:
            arg = b.next_arg
            if arg is not None and marked_by_hand(arg):
                if target.kind == "item" and target.value in self.markable(arg):
                    self.toggle(str(target.value))
                elif target in self._switches(b):
                    # Another card clicked while paying for one: pay for that one instead.
                    return self.start(b.adef, {b.adef.args[0].name: self._switches(b)[target]})
                return None
            if arg is not None:
                for a in self._matching(b):
                    value = dict(a.args)[arg.name]
                    if target in self._value_targets(arg, value):
                        return self.bind(value)
            return None
        for adef in self.rules.actions.values():
            # A die clicked where dice are chosen by their faces: choosing begins with it.
            first = adef.args[0] if adef.args else None
            if first is not None and by_faces(first) and target.kind == "item" and any(
                    a.id == adef.id for a in self.legal) and target.value in self.markable(
                    first):
                self.start(adef)
                self.toggle(str(target.value))
                return None
        for adef in self.partial:
            first = adef.args[0]
            if is_subset(first) and target.kind == "item" and target.value in self.markable(
                    first):
                self.start(adef)
                self.toggle(str(target.value))
                return None
            if not is_subset(first):
                for v in arg_values(self.state, self.seat or 0, adef.id):
                    if self._target(first, v) == target:
                        return self.start(adef, {first.name: v})
        hits = [a for a in self.legal if a.args and target in self._value_targets(
            self.rules.actions[a.id].args[0], dict(a.args)[self.rules.actions[a.id].args[0].name])]
        if not hits:
            return None
        if len(hits) == 1:
            return hits[0]
        adef = self.rules.actions[hits[0].id]
        first = adef.args[0]
        return self.start(adef, {first.name: dict(hits[0].args)[first.name]})

    def for_key(self, key: str) -> Action | None:
        """The move a key stands for (an action's own key), when it needs nothing else."""
        for choice in self.choices():
            if choice.key and choice.key.lower() == key.lower() and choice.enabled and (
                    choice.action is not None):
                return choice.action
        return None


def _plain_values(values: dict[str, Any]) -> set[Any]:
    """A player's variable values that could name a space (an indexed value cannot)."""
    return {v for v in values.values() if not isinstance(v, dict)}
