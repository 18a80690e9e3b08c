"""The window, the scene stack and the frame loop."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import time
from collections.abc import Iterable, Mapping
from types import FrameType
from typing import TYPE_CHECKING, Any

import pygame

from . import stop
from .render import forget_caches
from .scenes.base import Scene, SceneStack

if TYPE_CHECKING:
    from .audio import Sounds
    from .settings import Settings

CANVAS = (1280, 720)  # the canvas of the scenes drawn at a fixed size, scaled to the window
MIN_SIZE = (1024, 700)  # a smaller window shows a re-flowing scene scaled down to it
LARGE = (1600, 900)  # a larger window shows a re-flowing scene scaled up, to read from afar
IDLE_FPS = 12  # frames a second while nothing moves and nobody touches anything
TITLE = "dinotable"
STUCK_S = 0.5  # a frame running this long when asked to close is cut short


class _Stopped(BaseException):
    """SIGTERM or SIGINT arrived while a frame was stuck: leave it at once.

    A BaseException, so that no scene's `except Exception` can swallow it.
    """


def _icon() -> pygame.Surface:
    """The window icon: a green die showing a dinosaur, drawn like the table's dice."""
    from .render.dice import die_body

    return die_body((63, 158, 77), "dino", 32)


def logical_size(window: tuple[int, int]) -> tuple[int, int]:
    """The canvas a re-flowing scene lays itself out on in a window of this size: the
    window's own pixels, except that a small window shows a canvas of at least MIN_SIZE
    scaled down (type stays readable) and a large one a canvas scaled up past LARGE."""
    ww, wh = max(1, window[0]), max(1, window[1])
    scale = min(1.0, ww / MIN_SIZE[0], wh / MIN_SIZE[1])
    scale = max(scale, min(ww / LARGE[0], wh / LARGE[1]))
    return max(1, round(ww / scale)), max(1, round(wh / scale))


class App(SceneStack):
    """Owns the window; draws the top scenes on a canvas: a re-flowing scene's is the
    window's logical size (`logical_size`), the others' a 1280x720 canvas scaled to fit."""

    def __init__(self, size: tuple[int, int] = CANVAS, settings: Settings | None = None,
                 fps: int = 60) -> None:
        os.environ.setdefault("SDL_VIDEO_CENTERED", "1")
        # Only what the first frame needs; the mixer opens later (see Sounds.prepare).
        pygame.display.init()
        pygame.font.init()
        forget_caches()
        pygame.key.set_repeat(400, 40)
        self._settings = settings  # read when first wanted (see the property)
        self._sounds: Sounds | None = None
        self.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(TITLE)
        self.fixed = self.window  # for scenes drawn at a fixed size (see fit_canvas)
        self.canvas = self.window  # for re-flowing scenes: the window's logical size
        self.in_place = True  # the window itself is the fixed canvas
        self.overlay: pygame.Surface | None = None  # fixed-size modals over a re-flowed one
        self.fit_canvas()
        self.clock = pygame.time.Clock()
        self.fps = fps
        self.stack: list[Scene] = []
        self.running = True
        self.fullscreen = False
        self.frames = 0
        self.drawn = 0  # frames actually drawn: an unchanged screen is left as it is
        self.lazy = True  # False: draw every frame (the bench times the drawing)
        self.shown_stack: list[Scene] = []  # the scenes of the last frame drawn
        # Something was moving in the last frame drawn: the frame in which it stops (dice
        # settle, buttons come alive) must be drawn too, though nothing moves any more.
        self.shown_moving = False
        self.redraw = True  # the window was resized or uncovered: draw it whatever scenes say
        self.stepping_since: float | None = None
        self.stopped_by: int | None = None
        self.crash_streak = 0  # frames in a row that crashed (see scenes/crash.py)
        # Slow reading (the title's games) happens in a thread while frames go on; only the
        # running loop sets this: frames stepped one by one (tests) read in the next frame.
        self.read_aside = False
        # The phones' server of the game on the table (hands on phones), stopped with it.
        self.phone_link: Any = None
        pygame.key.start_text_input()

    @property
    def settings(self) -> Settings:
        """The player's settings, read from their file when first wanted: the title's
        first frame needs none of them (nor the JSON reader)."""
        if self._settings is None:
            from .settings import Settings

            self._settings = Settings.load()
        return self._settings

    @settings.setter
    def settings(self, value: Settings) -> None:
        self._settings = value

    @property
    def sounds(self) -> Sounds:
        """The table's sounds at the player's volume, made when first wanted (the mixer
        opens after the first frame, see `run`)."""
        if self._sounds is None:
            from .audio import Sounds

            self._sounds = Sounds(self.settings.volume)
            if self.settings.muted:
                self._sounds.toggle_mute()
        return self._sounds

    # --- the stack (push, pop, replace, reset, top: SceneStack) ---------------

    def to_title(self, lazy: bool = False) -> None:
        """Close every scene and show the list of games (the way out of any game); `lazy`
        finds the games in the title's first update instead of now."""
        from .scenes.title import TitleScene

        self.hold_phones(None)  # the game is left: its phones' server stops
        self.reset(TitleScene(self, lazy=lazy))

    def hold_phones(self, link: Any) -> None:
        """The phones' server of the game on the table now (None: none); the one before
        it is stopped, so only one game is ever served."""
        old, self.phone_link = self.phone_link, link
        if old is not None and old is not link:
            old.stop()

    # --- the window ------------------------------------------------------

    def blank(self, size: tuple[int, int]) -> pygame.Surface:
        """An opaque surface the window shows fast: made in the window's own pixel format
        when that has no alpha, which spares the first frame converting a copy."""
        if self.window.get_masks()[3] == 0:
            return pygame.Surface(size, 0, self.window)
        return pygame.Surface(size).convert()

    def fit_canvas(self) -> None:
        """Give re-flowing scenes a canvas of the window's logical size. A window of the
        fixed canvas's size is drawn on in place: no canvas of its own to fill and copy
        each frame (nor to make before the first)."""
        in_place = self.window.get_size() == CANVAS
        if in_place:
            self.fixed = self.window
        elif self.in_place:
            self.fixed = self.blank(CANVAS)
        self.in_place = in_place
        size = logical_size(self.window.get_size())
        if size == CANVAS:
            self.canvas = self.fixed
        elif self.canvas.get_size() != size or self.canvas is self.window:
            self.canvas = self.blank(size)
        self.redraw = True

    def flowing(self) -> bool:
        """Whether the top scene lays itself out on the window's logical canvas."""
        return bool(self.stack) and self.top.flows

    def viewport(self) -> pygame.Rect:
        """Where the fixed canvas sits in the window: as large as fits, aspect kept,
        centred."""
        ww, wh = self.window.get_size()
        scale = min(ww / CANVAS[0], wh / CANVAS[1])
        w, h = max(1, int(CANVAS[0] * scale)), max(1, int(CANVAS[1] * scale))
        return pygame.Rect((ww - w) // 2, (wh - h) // 2, w, h)

    def view_and_size(self) -> tuple[pygame.Rect, tuple[int, int]]:
        """Where the top scene's canvas sits in the window, and its size."""
        if self.flowing():
            return self.window.get_rect(), self.canvas.get_size()
        return self.viewport(), CANVAS

    def to_canvas(self, pos: tuple[int, int]) -> tuple[int, int]:
        """Window coordinates to the top scene's canvas coordinates."""
        view, size = self.view_and_size()
        x = (pos[0] - view.x) * size[0] / max(1, view.w)
        y = (pos[1] - view.y) * size[1] / max(1, view.h)
        return int(x), int(y)

    def to_window(self, pos: tuple[int, int]) -> tuple[int, int]:
        """The top scene's canvas coordinates to the window pixel that `to_canvas` maps
        back onto them (the inverse, for something that points at what it sees)."""
        view, size = self.view_and_size()
        x = view.x + int((pos[0] + 0.5) * view.w / max(1, size[0]))
        y = view.y + int((pos[1] + 0.5) * view.h / max(1, size[1]))
        return x, y

    def toggle_fullscreen(self) -> None:
        """F11: fullscreen at the desktop size, or back to a 1280x720 window."""
        self.fullscreen = not self.fullscreen
        if self.fullscreen:
            self.window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            self.window = pygame.display.set_mode(CANVAS, pygame.RESIZABLE)
        self.fit_canvas()

    # --- the loop --------------------------------------------------------

    def _translate(self, event: pygame.event.Event) -> pygame.event.Event:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            data = dict(event.dict)
            data["pos"] = self.to_canvas(event.pos)
            if "rel" in data:
                view, size = self.view_and_size()
                data["rel"] = (event.rel[0] * size[0] / max(1, view.w),
                               event.rel[1] * size[1] / max(1, view.h))
            return pygame.event.Event(event.type, data)
        return event

    def dispatch(self, event: pygame.event.Event) -> None:
        """Give one window event to the app and the top scene."""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWEXPOSED, pygame.WINDOWRESIZED,
                          pygame.WINDOWSIZECHANGED, pygame.WINDOWRESTORED):
            self.redraw = True
        if event.type == pygame.VIDEORESIZE and not self.fullscreen:
            self.window = pygame.display.set_mode((max(320, event.w), max(180, event.h)),
                                                  pygame.RESIZABLE)
            self.fit_canvas()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_m and not getattr(
                self.top, "typing", False):
            self.sounds.toggle_mute()
            self.settings.muted = self.sounds.muted
            self.settings.save()
            return
        if self.stack:
            top = self.top
            try:
                top.handle(self._translate(event))
            except Exception as exc:
                self.crashed(exc, "handle", top, event)

    def crashed(self, exc: Exception, phase: str, scene: Scene,
                event: pygame.event.Event | None = None) -> None:
        """A scene raised: keep the game, log it, and show the crash screen (never raises)."""
        from .scenes.crash import handle_crash

        handle_crash(self, exc, phase, scene, event)

    def _draw_scenes(self) -> bool:
        """Draw the visible scenes: a re-flowing one on the logical canvas, the fixed-size
        ones on the fixed canvas, or over a re-flowing one on a see-through overlay. True
        when the overlay was drawn on. A scene that raises is reported."""
        visible = self._visible()
        flowing = visible[0].flows
        overlaid = False
        for scene in visible:
            if flowing and (overlaid or not scene.flows):
                if not overlaid:
                    if self.overlay is None:
                        self.overlay = pygame.Surface(CANVAS, pygame.SRCALPHA)
                    self.overlay.fill((0, 0, 0, 0))
                    overlaid = True
                surface = self.overlay
            else:
                surface = self.canvas if flowing else self.fixed
            try:
                scene.draw(surface)  # type: ignore[arg-type]
            except Exception as exc:
                self.crashed(exc, "draw", scene)
                return overlaid
        return overlaid

    def present(self, flowing: bool, overlaid: bool) -> None:
        """Put the canvases drawn this frame on the window."""
        if flowing:
            self.show(self.canvas, self.window.get_rect())
        else:
            if not self.in_place:
                self.window.fill((0, 0, 0))  # the bars beside a canvas scaled to fit
            self.show(self.fixed, self.viewport())
        if overlaid and self.overlay is not None:
            view = self.viewport()
            veil = self.overlay.get_at((0, 0))
            if veil.a:  # the modal dims what is under it: the bars beside it too
                bars = pygame.Surface(self.window.get_size(), pygame.SRCALPHA)
                bars.fill(veil)
                bars.fill((0, 0, 0, 0), view)
                self.window.blit(bars, (0, 0))
            self.show(self.overlay, view)

    def show(self, canvas: pygame.Surface, view: pygame.Rect) -> None:
        """One canvas on the window at `view`, scaled when the sizes differ."""
        if canvas is self.window:
            return  # drawn in place
        if view.size == canvas.get_size():
            self.window.blit(canvas, view.topleft)
        elif canvas.get_flags() & pygame.SRCALPHA:
            self.window.blit(pygame.transform.smoothscale(canvas, view.size), view.topleft)
        else:
            pygame.transform.smoothscale(canvas, view.size, self.window.subsurface(view))

    def redraw_due(self) -> bool:
        """Whether this frame must be drawn: a scene says it changed, a scene came or went,
        the window needs it, or drawing is not lazy."""
        if (not self.lazy or self.redraw or self.frames == 0 or self.shown_moving
                or self.stack != self.shown_stack):
            return True
        return any(scene.needs_redraw() for scene in self._visible())

    def _visible(self) -> list[Scene]:
        """The scenes drawn: the top opaque one and the modals over it."""
        first = len(self.stack) - 1
        while first > 0 and not self.stack[first].opaque:
            first -= 1
        return self.stack[first:]

    def draw(self) -> None:
        """Draw the visible scenes and present the frame."""
        self.redraw = False
        self.shown_stack = list(self.stack)
        self.shown_moving = any(scene.animating for scene in self._visible())
        self.drawn += 1
        streak = self.crash_streak
        if not self.stack:
            return
        overlaid = self._draw_scenes()
        if self.crash_streak != streak and self.stack:
            overlaid = self._draw_scenes()  # what replaced the broken scene, in this frame
        if not self.stack:
            return
        first = len(self.stack) - 1
        while first > 0 and not self.stack[first].opaque:
            first -= 1
        self.present(self.stack[first].flows, overlaid)
        pygame.display.flip()
        self.frames += 1
        if self.frames == 1 and os.environ.get("DINOTABLE_REPORT_FIRST_FRAME"):
            print("first frame drawn", flush=True)  # read by `dinotable bench`

    def step(self, events: Iterable[pygame.event.Event] = (), dt: float = 1 / 60) -> None:
        """One frame: events, update, draw. Tests call this with synthetic events."""
        for event in events:
            self.dispatch(event)
            if not self.running or not self.stack:
                return
        if self.stack:
            streak = self.crash_streak
            top = self.top
            try:
                top.update(dt)
            except Exception as exc:
                self.crashed(exc, "update", top)
            if self.stack:
                if self.redraw_due():
                    self.draw()
                else:
                    self.frames += 1  # the window keeps showing the last frame drawn
            if self.crash_streak == streak:
                self.crash_streak = 0  # a whole frame went by without a crash

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        """SIGTERM / SIGINT: close after this frame, or now if the frame is stuck."""
        self.running = False
        self.stopped_by = signum
        since = self.stepping_since
        if since is not None and time.perf_counter() - since > STUCK_S:
            raise _Stopped

    def _catch_signals(self) -> dict[int, Any]:
        """Our handlers instead of SDL's, which only post a quit event a stuck loop never
        reads. Only the main thread may install them (tests may run the loop elsewhere)."""
        previous: dict[int, Any] = {}
        for signum in stop.stop_signals():
            with contextlib.suppress(ValueError, OSError):
                previous[signum] = signal.signal(signum, self._on_signal)
        return previous

    def run(self, frames: int | None = None) -> int:
        """The frame loop; with `frames`, stop after that many (smoke tests, timing)."""
        last = time.perf_counter()
        last_input = last
        previous = self._catch_signals()
        early = stop.asked()
        if early is not None:  # asked while the window opened: close before the first frame
            self.running = False
            self.stopped_by = early
        interrupted = False
        self.read_aside = True
        try:
            while self.running and self.stack and (frames is None or self.frames < frames):
                now = time.perf_counter()
                dt = min(0.1, now - last)  # a stall (a dragged window) must not fling dice
                last = now
                events = pygame.event.get()
                if events:
                    last_input = now
                self.stepping_since = now
                self.step(events, dt)
                self.stepping_since = None
                if self.frames == 1:
                    # After the first frame: the window comes first.
                    pygame.display.set_icon(_icon())
                    self.sounds.prepare()
                    gc.enable()  # see cli: no collections while the window opens
                if frames is None and self.stack:
                    # A table nobody touches and where nothing moves needs few frames: spare
                    # the laptop's battery, and be back at full speed at the first input.
                    resting = not self.top.animating and now - last_input > 1.0
                    self.clock.tick(IDLE_FPS if resting else self.fps)
        except _Stopped:
            interrupted = True
        finally:
            self.stepping_since = None
            for signum, handler in previous.items():
                with contextlib.suppress(ValueError, OSError, TypeError):
                    signal.signal(signum, handler)
        self.close(save_scenes=not interrupted)
        return 0

    def close(self, save_scenes: bool = True) -> None:
        """Keep what must survive, then close the window.

        A frame cut short may have stopped half-way through a move, so its scenes are not
        asked to save: the save written after the last whole move stands.
        """
        if save_scenes:
            for scene in self.stack:
                scene.closing()
        self.hold_phones(None)
        self.settings.save()
        pygame.quit()

    def watch_replay(self, game: Any, path: Any = None) -> bool:
        """Open the replay viewer on a saved game (for modals, which never import it)."""
        from .scenes.replay import open_replay

        return open_replay(self, game, path)

    def learn(self, rules: Any, replace: bool = False) -> bool:
        """Open a game's lesson on the table (for the table, which the lesson's scene is
        built on and so never imports it); False when the game has none."""
        from .scenes.lesson import open_lesson

        return open_lesson(self, rules, replace)


NO_DISPLAY_EXIT = 2


def display_problem(env: Mapping[str, str] | None = None, platform: str | None = None
                    ) -> str | None:
    """Why no window can open here, in one line, or None.

    On Linux a window needs an X11 or Wayland display; without one SDL falls back to a
    driver that draws nowhere, and the app would run unseen. A video driver chosen on
    purpose (SDL_VIDEODRIVER=dummy for tests, kmsdrm on a console) is trusted.
    """
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return None
    driver = env.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver and driver not in ("x11", "wayland"):
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return ("dinotable needs a display: no DISPLAY or WAYLAND_DISPLAY is set, so no window "
            f"can open; run `dinotable terminal RULESET` to play in the terminal "
            f"(RULESET: {_ruleset_ids()})")


def _ruleset_ids() -> str:
    """The installed games' ids, for the no-display hint."""
    try:
        from .ruleset import installed_rulesets

        return ", ".join(folder.name for folder in installed_rulesets()) or "a game's id"
    except Exception:  # the hint must never be what fails
        return "a game's id"


def start(frames: int | None = None, scene: str = "title", **kwargs: object) -> int:
    """Open the window on the title scene (or straight onto a table) and run.

    With no display to open a window on, say so in one line and return 2.
    """
    from .scenes.title import TitleScene

    problem = display_problem()
    if problem is not None:
        print(problem, file=sys.stderr, flush=True)
        return NO_DISPLAY_EXIT
    app = App()
    app.push(TitleScene(app, lazy=scene in ("title", "demo")))
    if scene == "demo":
        from .scenes.demo import DemoScene

        app.push(DemoScene(app))  # over the title, where a key or click leads
    if scene == "table":
        from .scenes.setup import start_table

        start_table(app, **kwargs)  # type: ignore[arg-type]
    return app.run(frames)
