"""Danger! Danger! Dinosaur's Game Wheel read at 1280x720 and in an 800x600 window: every
top card's whole name on the card (wrapped, a long word broken with a hyphen where it must
be), and the buttons the header names on the action bar's first page."""

from __future__ import annotations

import pygame
import pytest
from test_wheel_screen import STACKS, pile_parts, wheel_table

from dinotable.app import App, logical_size
from dinotable.render import cards, theme
from dinotable.table.choice import item_label


def squeezed(text: str) -> str:
    """Words as letters only: a name read across lines and hyphens."""
    return "".join(ch for ch in text if ch.isalnum())


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_every_top_card_on_the_wheel_shows_its_whole_name(app: App,
                                                           size: tuple[int, int]) -> None:
    table = wheel_table(app)
    canvas = pygame.Surface(logical_size(size))
    table.resized(canvas.get_size())
    cards.forget()  # every card face painted afresh, so the words on it are seen
    with theme.seeing_text() as seen:
        table.draw(canvas)
    piles = pile_parts(table)
    drawn = squeezed("".join(string for string, _, _ in seen.drawn))
    tops = {zone: kind for zone in STACKS for _, kind in piles[zone].faces}
    assert len(tops) >= 5, tops
    for zone, kind in tops.items():
        name = item_label(table.rules, kind)
        assert squeezed(name) in drawn, (size, zone, name)
        assert not [whole for whole, _ in seen.cut if whole == name], (size, zone, name)
    # Nothing smaller than the names' floor, and no line wider than its card.
    for zone in tops:
        (rect, _), = piles[zone].faces
        assert rect.w >= 60 and rect.h >= 40, (size, zone, rect)


def test_any_card_of_the_game_on_top_of_a_stack_reads_whole_in_a_small_window(app: App
                                                                              ) -> None:
    """Whichever card comes up on a stack (Wise Grandmothers, Master Builders, a Highest
    Colour Score card), its whole name is on it in the narrowest cell, an 800x600 window."""
    table = wheel_table(app)
    canvas = pygame.Surface(logical_size((800, 600)))
    table.resized(canvas.get_size())
    table.draw(canvas)
    piles = pile_parts(table)
    rect = min((face for zone in STACKS for face, _ in piles[zone].faces),
               key=lambda r: r.w * r.h)
    kinds = sorted(table.rules.data["items"])
    assert len(kinds) > 40
    for kind in kinds:
        name = item_label(table.rules, kind)
        cards.forget()
        with theme.seeing_text() as seen:
            cards.draw_card(canvas, rect, kind, name, small=True)
        drawn = squeezed("".join(string for string, _, _ in seen.drawn))
        assert drawn == squeezed(name) and not seen.cut, (rect.size, name, seen.drawn)


def test_a_long_word_breaks_with_a_hyphen_before_a_syllable() -> None:
    font = theme.font(cards.SMALLEST, True)
    width = font.size("Long-")[0] + 2
    for word, lines in (("Mammoth", ["Mam-", "moth"]), ("Farming", ["Far-", "ming"]),
                        ("Longhouse", ["Long-", "house"])):
        assert cards.name_lines(word, width, 4, None, cards.SMALLEST)[1] == lines
    # After a cluster of consonants too, never inside a pair like "th".
    wide = font.size("mothers")[0] + 2
    assert cards.name_lines("Grandmothers", wide, 4, None, cards.SMALLEST)[1] == [
        "Grand-", "mothers"]
    size, lines = cards.name_lines("Dinosaur Saddle", width, 4, 200, cards.SMALLEST)
    assert squeezed("".join(lines)) == "DinosaurSaddle"
    assert all(theme.font(size, True).size(line)[0] <= width for line in lines), lines
    # A name that fits whole is never broken, and a roomy card sets it at full size.
    assert cards.name_lines("Tribe Elders", 200, 2, 60) == (theme.TINY, ["Tribe Elders"])


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_the_choices_the_header_names_are_on_the_bars_first_page(
        app: App, size: tuple[int, int]) -> None:
    table = wheel_table(app)
    canvas = pygame.Surface(logical_size(size))
    table.resized(canvas.get_size())
    table.draw(canvas)
    words = table.what_to_do()
    shown = [c.label for c in table.menu.controls if c.enabled and not c.tag.startswith(
        "page:") and c.tag not in ("pause", "odds", "undo")]
    assert "Claim" in words and "End turn" in words, words
    assert "Claim" in shown and "End turn" in shown, (size, shown)


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_the_dice_legend_names_every_face_whole(app: App, size: tuple[int, int]) -> None:
    # Eight faces, the dinosaur among them: a short panel sets them in two columns rather
    # than leave the last ones out.
    table = wheel_table(app)
    canvas = pygame.Surface(logical_size(size))
    table.resized(canvas.get_size())
    with theme.seeing_text() as seen:
        table.draw(canvas)
    drawn = {string for string, _, _ in seen.drawn}
    labels = [style.label for style in table.layout.faces.values()]
    assert len(labels) == 8
    assert all(label in drawn for label in labels), (size, labels, sorted(drawn))
