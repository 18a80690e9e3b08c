"""The table's buttons and keys: the action bar for what can be done now (greyed, with the
reason, while someone else plays), Undo at its right end, Menu and Odds at the side; and
which action or choice a letter key stands for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from ..engine import Action, applies
from ..scenes.base import Control, Menu
from .bar import bar_controls
from .choice import Choice, Target
from .focus import FocusRing
from .host import PartHost

if TYPE_CHECKING:
    from ..app import App

UNDO_W = 186  # the Undo button, at the action bar's right end
OWN = ("pause", "odds", "undo")  # the table's own buttons, never a game's choice


class Controlled(PartHost, Protocol):
    """The table as its buttons and keys work it, beyond what its parts see: the menu of
    buttons and its page, the keyboard's focus, and what a button or key does."""

    app: App  # F1 opens the rules over the table
    menu: Menu
    page: int  # the action bar's page, when its choices do not fit
    focus: FocusRing
    hurry: bool  # H: bots hurry
    holder: int | None  # who holds the laptop (a greyed button says to pass it)

    def wait_words(self) -> str: ...

    def undo_choice(self) -> Choice: ...

    def undo(self) -> None: ...

    def pause(self) -> None: ...

    def toggle_odds(self) -> None: ...

    def choose(self, choice: Choice) -> None: ...

    def turn_page(self, step: int) -> None: ...

    def scroll_log(self, lines: int) -> None: ...

    def ring_targets(self) -> list[tuple[pygame.Rect, Target]]: ...

    def click_target(self, target: Target) -> bool: ...


def refresh(table: Controlled) -> None:
    """The action bar and the menu buttons for what can be done now."""
    seat = table.deciding
    human_turn = table.my_turn
    state = table.state
    choices = table.chooser.choices() if human_turn else []
    if not human_turn and not state.game_over and not table.chooser.building:
        # Greyed, so everyone sees what the game is about, with why on hover: the one
        # reason that holds now.
        reason = (table.wait_words() if not table.idle else
                  f"It is {table.name(seat)}'s turn" if table.is_bot(seat) or (
                      table.holder == seat) else f"Pass the laptop to {table.name(seat)}")
        choices = [Choice(adef.label, f"action:{adef.id}", enabled=False, reason=reason,
                          key=adef.key.upper())
                   for adef in table.rules.actions.values()
                   if adef.by == "current" and not state.pending
                   and applies(adef.applies_when, state.options)]
    undo = None if state.game_over else table.undo_choice()
    controls = action_bar(table, choices, room=UNDO_W + 12 if undo is not None else 0)
    if undo is not None:
        # At the bar's right end, on every page, so a misclick is always one press away.
        bar = table.area["bar"]
        controls.append(Control(pygame.Rect(bar.right - UNDO_W, bar.y, UNDO_W, bar.h),
                                "Undo", table.undo, key="Ctrl+Z", enabled=undo.enabled,
                                why_disabled=undo.reason, tag="undo"))
    menu = table.area["menu"]
    controls.append(Control(pygame.Rect(menu.x, menu.y, menu.w, 56), "Menu", table.pause,
                            key="Esc", tag="pause"))
    if table.layout.odds is not None:
        controls.append(Control(pygame.Rect(menu.x, menu.y + 62, menu.w, 50), "Odds",
                                table.toggle_odds, key="O", tag="odds"))
    table.menu.set(controls)
    table.menu.show_focus = human_turn  # no ring to chase while a bot or the dice move
    focused = table.menu.focused
    if human_turn and (table.chooser.ready is not None or not (
            focused.enabled and focused.tag not in OWN)
            or (focused.tag.startswith("page:") and not table.focus.keyed)):
        # A card chosen on the table: its confirm button takes the focus, so Enter plays it.
        # The player's first choice gets the keyboard focus: Enter does the obvious thing.
        # A page arrow the pointer once passed over keeps no ring once the buttons change
        # (one the keys moved to in this decision keeps it: Tab reaches the next page).
        for i, c in enumerate(controls):
            if c.enabled and c.tag not in OWN and not c.tag.startswith("page:"):
                table.menu.focus = i
                break


def action_bar(table: Controlled, choices: list[Choice], room: int = 0) -> list[Control]:
    """The choices as the action bar's buttons, a page at a time when they do not fit
    (`room`: what is kept free at the bar's right end, for Undo)."""
    bar = table.area["bar"]
    if room:
        bar = pygame.Rect(bar.x, bar.y, bar.w - room, bar.h)
    controls, table.page = bar_controls(bar, choices, table.page, table.choose,
                                        table.turn_page)
    return controls


def action_for_key(table: PartHost, key: int) -> Action | None:
    """The legal action a key stands for, if any."""
    if not table.my_turn:
        return None
    chooser = table.chooser
    toss = table.layout.toss_action
    if key == pygame.K_SPACE and toss and chooser.available(toss) and (
            chooser.building is None):
        return chooser.for_key(table.rules.actions[toss].key) or next(
            (c.action for c in chooser.choices()
             if c.tag == f"action:{toss}" and c.enabled), None)
    for choice in chooser.choices():
        if choice.key and len(choice.key) == 1 and choice.enabled and (
                choice.action is not None) and choice.step is None and (
                key == pygame.key.key_code(choice.key.lower())):
            return choice.action
    return None


def choice_for_key(table: PartHost, key: int) -> Choice | None:
    """The enabled choice whose button shows this letter, on the holder's turn: an
    action, or the first step of one (Hunt: then click what to hunt)."""
    if not table.my_turn or key == pygame.K_SPACE:
        return None
    for choice in table.chooser.choices():
        if choice.key and len(choice.key) == 1 and choice.enabled and (
                key == pygame.key.key_code(choice.key.lower())):
            return choice
    return None


def key(table: Controlled, event: pygame.event.Event) -> bool:
    """A key the table itself answers (True: used; else the parts and menu may)."""
    pressed = event.key
    if pressed == pygame.K_z and event.mod & pygame.KMOD_CTRL:
        table.undo()
    elif pressed == pygame.K_ESCAPE:
        table.pause()
    elif pressed == pygame.K_F1:
        from ..scenes.rules import RulesScene

        table.app.push(RulesScene(table.app, table.rules))
    elif (keyed := choice_for_key(table, pressed)) is not None:
        # A game's own action key comes before the table's letters (H for Hunt, not
        # "hurry", while it is your turn to hunt).
        table.choose(keyed)
    elif pressed == pygame.K_o:
        table.toggle_odds()
    elif pressed == pygame.K_h:
        table.hurry = not table.hurry
        table.hint("Bots hurry" if table.hurry else "Bots take their time")
    elif pressed in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
        table.scroll_log(3 if pressed == pygame.K_PAGEUP else -3)
    elif table.focus.key(event, table.ring_targets, table.menu, table.click_target):
        pass
    elif (action := action_for_key(table, pressed)) is not None:
        table.take(action)
        table.refresh_buttons()
    elif pressed in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER) and not (
            table.idle and not table.state.game_over and not table.is_bot(table.deciding)):
        pass  # an impatient Space while the dice roll must not press a focused button
    else:
        return False
    return True
