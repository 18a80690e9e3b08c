"""Drawing components for the table: the theme, face symbols, dice and widgets.

Render code reads what the engine says and draws it; it never changes a rule.
Modules: `theme` (palette, player colours, the shipped Andika font, text helpers),
`symbols` (face symbols drawn in code), `dice` (dice seen from above),
`widgets` (buttons, banners, panels, shadows, tooltips), `plates` (a player's name plate,
shape mark and turn marker), `game_log` (the log).
"""


def forget_caches() -> None:
    """Drop every cached font and surface: they die with pygame.quit(), and a new display
    (a second App in one process, as in tests) must draw with fresh ones."""
    import sys

    from . import theme

    theme.forget_fonts()
    theme.forget_backgrounds()
    # The others are loaded when first drawn (dice and cards not for the title's first
    # frame): a module not loaded yet has nothing cached.
    for name in ("dice", "symbols", "widgets", "plates", "game_log", "cards"):
        module = sys.modules.get(f"{__name__}.{name}")
        if module is not None:
            module.forget()
