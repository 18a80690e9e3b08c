"""Drawing components for the table: the theme, face symbols, dice and widgets.

Render code reads what the engine says and draws it; it never changes a rule.
Modules: `theme` (palette, player colours, the shipped Andika font, text helpers),
`symbols` (face symbols drawn in code), `dice` (dice seen from above),
`widgets` (buttons, banners, panels, name plates, the log, tooltips).
"""


def forget_caches() -> None:
    """Drop every cached font and surface: they die with pygame.quit(), and a new display
    (a second App in one process, as in tests) must draw with fresh ones."""
    import sys

    from . import dice, symbols, theme, widgets

    theme._forget_fonts()
    theme._forget_backgrounds()
    dice._forget()
    symbols._forget()
    widgets._forget()
    # Cards are drawn only once a card game or the card list opens: not loaded for the
    # first frame, and nothing of theirs is cached before they are.
    cards = sys.modules.get(f"{__name__}.cards")
    if cards is not None:
        cards._forget()
