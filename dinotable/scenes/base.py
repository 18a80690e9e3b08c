"""The scene stack's building blocks: a scene, and a keyboard-and-mouse menu of controls."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from ..render import theme
from ..render.widgets import Button, Dwell, draw_tooltip

if TYPE_CHECKING:
    from ..app import App


class Scene:
    """One screen. Scenes draw on a 1280x720 canvas the app scales to the window, or, when
    they re-flow (`flows`), on a canvas of the window's logical size."""

    opaque = True  # False: the scene below is drawn first (a modal over the table)
    flows = False  # True: lays itself out for the canvas it is given (the table)

    def __init__(self, app: App) -> None:
        self.app = app
        # Who gets this scene's answer when it closes (set by `App.push(scene, callback)`).
        self.on_dismiss: Callable[[Any], None] | None = None

    def dismiss(self, result: Any = None) -> None:
        """Close this scene and hand `result` to whoever pushed it (like Textual's screens).

        The callback runs after the scene has left the stack, so it sees the scene below on
        top and may push, replace or reset freely.
        """
        stack = self.app.stack
        if stack and stack[-1] is self:
            stack.pop()
        elif self in stack:
            stack.remove(self)
        callback, self.on_dismiss = self.on_dismiss, None
        if callback is not None:
            callback(result)

    @property
    def animating(self) -> bool:
        """Whether something on screen is moving (the app then draws at full speed)."""
        return False

    def needs_redraw(self) -> bool:
        """Whether the scene looks different from its last frame (input, animation, a timer).
        Scenes that do not say are drawn every frame."""
        return True

    def handle(self, event: pygame.event.Event) -> None:
        """React to one input event (already in canvas coordinates)."""

    def update(self, dt: float) -> None:
        """Advance animations and timers by dt seconds."""

    def draw(self, canvas: pygame.Surface) -> None:
        """Draw the scene."""

    def closing(self) -> None:
        """The window is closing: keep whatever must survive (a game in progress)."""


def shortcut(event: pygame.event.Event, keys: dict[int, Callable[[], None]]) -> bool:
    """Run the action bound to a pressed key (Esc, F1, ...); True when one ran."""
    if event.type == pygame.KEYDOWN and event.key in keys:
        keys[event.key]()
        return True
    return False


def shade(canvas: pygame.Surface) -> None:
    """Dim whatever is below a modal, so the modal is plainly what to answer."""
    veil = pygame.Surface(canvas.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 150))
    canvas.blit(veil, (0, 0))


@dataclass
class Control:
    """A focusable thing on a menu: a button, a toggle, a text field, a stepper."""

    rect: pygame.Rect
    label: str
    on_activate: Callable[[], None] | None = None
    on_left: Callable[[], None] | None = None
    on_right: Callable[[], None] | None = None
    key: str = ""  # the key hint shown on the button
    enabled: bool = True
    why_disabled: str = ""
    kind: str = "button"  # button | field | stepper | toggle
    value: str = ""  # shown for field/stepper/toggle
    max_length: int = 14
    on_text: Callable[[str], None] | None = None
    colour: tuple[int, int, int] | None = None
    tag: str = ""  # lets tests and callers find a control
    extra: dict[str, object] = field(default_factory=dict)


class Menu:
    """Controls navigated with Tab/arrows/Enter or the mouse, with one focused at a time."""

    def __init__(self) -> None:
        self.controls: list[Control] = []
        self.focus = 0
        self.hover: int | None = None
        self.show_focus = True
        self.dwell = Dwell()  # when a disabled control's tooltip shows
        self.pointer: tuple[int, int] = (-1, -1)
        self.keyed = False  # the keys were used last: the focused control's tip may show

    def set(self, controls: list[Control], keep_focus: bool = True) -> None:
        """Replace the controls, keeping focus on the same tag when possible."""
        old = self.focused.tag if keep_focus and self.controls else None
        self.controls = controls
        self.focus = 0
        if old is not None:
            for i, c in enumerate(controls):
                if c.tag == old:
                    self.focus = i
                    break
        if self.controls and not self.controls[self.focus].enabled:
            self.move(1)

    @property
    def focused(self) -> Control:
        """The control with the keyboard focus."""
        return self.controls[min(self.focus, len(self.controls) - 1)]

    def find(self, tag: str) -> Control:
        """The control with a tag (KeyError when absent)."""
        for c in self.controls:
            if c.tag == tag:
                return c
        raise KeyError(tag)

    def move(self, step: int) -> None:
        """Move the focus to the next enabled control."""
        n = len(self.controls)
        for _ in range(n):
            self.focus = (self.focus + step) % n
            if self.controls[self.focus].enabled:
                return

    def handle(self, event: pygame.event.Event) -> bool:
        """Handle navigation and activation; True when the event was used."""
        if not self.controls:
            return False
        if event.type == pygame.KEYDOWN:
            self.keyed = True
            c = self.focused
            if event.key == pygame.K_TAB:
                self.move(-1 if event.mod & pygame.KMOD_SHIFT else 1)
                return True
            if event.key == pygame.K_DOWN:
                self.move(1)
                return True
            if event.key == pygame.K_UP:
                self.move(-1)
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) or (
                    event.key == pygame.K_SPACE and c.kind != "field"):
                self.activate(c)
                return True
            if event.key == pygame.K_LEFT and c.on_left:
                c.on_left()
                return True
            if event.key == pygame.K_RIGHT and c.on_right:
                c.on_right()
                return True
            if event.key == pygame.K_BACKSPACE and c.kind == "field" and c.on_text:
                c.on_text("\b")
                return True
            return False
        if event.type == pygame.TEXTINPUT and self.controls and self.focused.kind == "field":
            c = self.focused
            if c.on_text:
                c.on_text(event.text)
            return True
        if event.type == pygame.MOUSEMOTION:
            self.pointer, self.keyed = event.pos, False
            self.hover = self.at(event.pos)
            self.dwell.at(self.tip_subject(), event.pos)  # the pointer moved: now, not drawn
            if self.hover is not None and self.controls[self.hover].enabled:
                self.focus = self.hover
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            i = self.at(event.pos)
            if i is None:
                return False
            c = self.controls[i]
            if not c.enabled:
                return True
            self.focus = i
            if c.kind == "stepper":
                # Clicking left of the shown value's centre (the "<" side) steps it down,
                # right of it (the ">" side) up: the split follows what is drawn.
                if event.pos[0] < stepper_geometry(c).split and c.on_left:
                    c.on_left()
                elif c.on_right:
                    c.on_right()
                return True
            self.activate(c)
            return True
        return False

    def activate(self, c: Control) -> None:
        """Press a control."""
        if not c.enabled:
            return
        if c.on_activate:
            self.app_sound()
            c.on_activate()
        elif c.kind == "toggle" and c.on_right:
            c.on_right()

    def app_sound(self) -> None:
        """A hook for a click sound (set by scenes that have an app)."""

    def at(self, pos: tuple[int, int]) -> int | None:
        """Index of the control under a point."""
        for i, c in enumerate(self.controls):
            if c.rect.collidepoint(pos):
                return i
        return None

    def draw(self, canvas: pygame.Surface) -> None:
        """Draw every control, then the tooltip of a disabled one under the pointer/focus."""
        for i, c in enumerate(self.controls):
            focused = i == self.focus and self.show_focus
            if c.kind == "button":
                # Its tip is the menu's to show (below), when the pointer rests on it.
                Button(c.rect, c.label, c.key, c.enabled, c.why_disabled, focused).draw(
                    canvas, tooltip=False)
            else:
                draw_field(canvas, c, focused)
        # Shown a moment after the pointer (or the focus) comes to it, gone a few seconds
        # after it last moved: never left over the table.
        subject = self.tip_subject()
        if self.dwell.at(subject, self.pointer) and subject is not None:
            c = self.controls[subject[0]]
            draw_tooltip(canvas, (c.rect.centerx, c.rect.top - 8), subject[1])

    def tip_subject(self) -> tuple[int, str] | None:
        """The control whose tooltip may show (the one pointed at, else the focused one) and
        its words, when it has one: why it is disabled."""
        index = self.hover if self.hover is not None else self.focus if self.keyed else -1
        if not self.controls or not 0 <= index < len(self.controls):
            return None
        c = self.controls[index]
        return (index, c.why_disabled) if not c.enabled and c.why_disabled else None

    def tip_showing(self) -> bool:
        """Whether a tooltip is due on screen now (a scene drawn only on change asks)."""
        return self.dwell.showing()


def draw_field(canvas: pygame.Surface, c: Control, focused: bool) -> None:
    """A text field, stepper (< value >) or toggle, with its label to the left inside."""
    rect = c.rect
    pygame.draw.rect(canvas, theme.PARCHMENT, rect, border_radius=12)
    pygame.draw.rect(canvas, theme.FOCUS if focused else theme.WOOD_DARK, rect,
                     width=4 if focused else 2, border_radius=12)
    if c.colour is not None:
        swatch = pygame.Rect(rect.x + 10, rect.y + 10, 14, rect.h - 20)
        pygame.draw.rect(canvas, c.colour, swatch, border_radius=6)
    text_x = rect.x + (34 if c.colour is not None else 14)
    lines, size, label_w = field_label(c)
    if len(lines) == 1:
        theme.text(canvas, lines[0], (text_x, rect.centery), size, theme.INK_SOFT,
                   anchor="midleft")
    for n, line in enumerate(lines if len(lines) > 1 else []):
        # Two lines close together, in the middle of the field, by their letters.
        theme.text(canvas, line, (text_x, rect.centery + (2 * n - 1) * (size + 2) // 2),
                   size, theme.INK_SOFT, anchor="midleft", tight=True)
    value = c.value
    if c.kind == "field" and focused and (pygame.time.get_ticks() // 500) % 2 == 0:
        value += "|"
    if c.kind == "stepper":
        # "<  value  >" on the right, sized to the value so nothing overlaps.
        g = stepper_geometry(c)
        theme.text(canvas, "<", (g.left, rect.centery), theme.BODY, theme.INK_SOFT, bold=True,
                   anchor="midleft", tight=True)
        theme.text(canvas, value, (g.split, rect.centery), g.size,
                   theme.INK, bold=True, anchor="center", tight=True)
        theme.text(canvas, ">", (g.right, rect.centery), theme.BODY, theme.INK_SOFT, bold=True,
                   anchor="midright", tight=True)
    else:
        theme.text(canvas, value, (text_x + label_w, rect.centery), theme.BODY, theme.INK,
                   bold=True, anchor="midleft")


@dataclass(frozen=True)
class StepperGeometry:
    """Where a stepper's "<", value and ">" are drawn (canvas x), and its text size."""

    left: int  # the "<" starts here
    split: int  # the value's centre: clicks left of it step down, right of it up
    right: int  # the ">" ends here
    size: int


def field_label(c: Control) -> tuple[list[str], int, int]:
    """A field's label as drawn (its lines), its size and the room it takes: a narrow
    stepper (a small window) gives its value the room first, its label smaller type, then
    two lines; only a label too long for those is cut."""
    if not c.label:
        return [], theme.SMALL, 0
    room = c.rect.w - (34 if c.colour is not None else 14) - 14
    if c.kind == "stepper":
        # The label keeps at least its smaller type's width, up to 40% of the field (the
        # value then takes smaller type too).
        whole = theme.font(theme.TINY).size(c.label)[0]
        room = max(room - theme.font(theme.SMALL, True).size(c.value)[0] - 86,
                   min(whole, c.rect.w * 2 // 5))
    room = max(40, room)
    size = theme.fit_size(c.label, room, theme.SMALL, floor=theme.TINY)
    font = theme.font(size)
    if font.size(c.label)[0] > room and c.rect.h >= 2 * (theme.TINY + 2) + 4:
        lines = two_lines(c.label, room)
        if lines is not None:
            font = theme.font(theme.TINY)
            return lines, theme.TINY, max(font.size(line)[0] for line in lines) + 14
    label = theme.ellipsize(c.label, font, room)
    return [label], size, font.size(label)[0] + 14


def two_lines(words: str, room: int) -> list[str] | None:
    """`words` on two lines no wider than `room` at the smallest type, broken at a space:
    before a bracket if there is one, else where the lines come out most alike (None:
    they do not fit)."""
    font = theme.font(theme.TINY)
    parts = words.split()
    splits = [(" ".join(parts[:k]), " ".join(parts[k:])) for k in range(1, len(parts))]
    fitting = [(first, rest) for first, rest in splits
               if max(font.size(first)[0], font.size(rest)[0]) <= room]
    if not fitting:
        return None
    first, rest = min(fitting, key=lambda pair: (not pair[1].startswith("("), abs(
        font.size(pair[0])[0] - font.size(pair[1])[0])))
    return [first, rest]


def stepper_geometry(c: Control) -> StepperGeometry:
    """The stepper's layout, shared by drawing and clicking so they cannot disagree."""
    rect = c.rect
    text_x = rect.x + (34 if c.colour is not None else 14)
    label_w = field_label(c)[2]
    room = rect.right - (text_x + label_w) - 12
    size = theme.fit_size(c.value, max(40, room - 64), theme.BODY, bold=True, floor=theme.TINY)
    value_w = theme.font(size, True).size(c.value)[0]
    right = rect.right - 18
    left = max(text_x + label_w, right - value_w - 56)
    return StepperGeometry(left, (left + 20 + right - 14) // 2, right, size)


class SceneStack:
    """Scenes on top of each other: the top one gets the input. The app is one; a demo's
    stage, which keeps a table's own results inside the demo, is another."""

    stack: list[Scene]

    def push(self, scene: Scene, callback: Callable[[Any], None] | None = None) -> None:
        """Show a scene on top; `callback` receives what it hands back with `dismiss`."""
        if callback is not None:
            scene.on_dismiss = callback
        self.stack.append(scene)

    def pop(self) -> Scene:
        """Close the top scene."""
        return self.stack.pop()

    def replace(self, scene: Scene) -> None:
        """Swap the top scene for another."""
        if self.stack:
            self.stack.pop()
        self.stack.append(scene)

    def reset(self, scene: Scene) -> None:
        """Close every scene and show one."""
        self.stack = [scene]

    @property
    def top(self) -> Scene:
        """The scene receiving input."""
        return self.stack[-1]
