"""Keep `rulesets/README.md`, the reference for ruleset authors, in step with the engine.

Names go both ways: every effect, function, constant, domain, section and key the code knows
is documented in its heading or table form, and every documented one exists. Key lists that
the loader keeps inline (vars, turn, round, bots, ...) are read back from its own "expected
one of" messages. Every ```yaml block is loaded: a block starting `# Complete ruleset` on
its own (and then played to the end), any other merged into a small Dino Hunt Dice-like
ruleset (a list of effects goes into an action with an argument `from`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

import dinotable.engine  # noqa: F401  (registers every function, chance_of included)
from dinotable.bots import heuristic_policy
from dinotable.engine import Rules, apply, legal_actions, new_game
from dinotable.engine.domains import DOMAINS
from dinotable.engine.effects import CONTROL_FORMS, EFFECTS
from dinotable.engine.expr import CONSTANTS, FUNCTIONS
from dinotable.engine.paths import state_value
from dinotable.ruleset import LoadError, layout, load_ruleset
from dinotable.ruleset.actions import ACTION_KEYS, BY
from dinotable.ruleset.components import DIE_KEYS, HOLDS, OPTION_KEYS, VISIBILITY, ZONE_KEYS
from dinotable.ruleset.ending import END_KEYS, TIES
from dinotable.ruleset.loader import SECTIONS

README = Path(__file__).resolve().parent.parent / "rulesets" / "README.md"
COMPLETE = "# Complete ruleset"
CODE = re.compile(r"^`([^`]+)`$")

# The names the README's short examples may use (it lists them before "Validation").
BASE_TEXT = """
id: dino_hunt_dice
name: Dino Hunt Dice
version: 1
players: {min: 2, max: 6}
options:
  goal: {default: 20, min: 5, max: 50}
dice:
  green: {faces: [dino, dino, dino, leaves, leaves, footprint]}
  yellow: {faces: [dino, dino, leaves, leaves, footprint, footprint]}
  red: {faces: [dino, leaves, leaves, footprint, footprint, footprint]}
zones:
  cup: {holds: dice, blind: true, start: {green: 5, yellow: 3, red: 2}}
  hand: {holds: dice}
  caught: {holds: dice}
  stomped: {holds: dice}
  kept: {holds: dice, per_player: true, visible: owner}
vars:
  game: {pot: 0}
  player: {banked: 0, stones: 1}
  turn: {rolled: false}
score: banked
turn:
  end:
    - move_all: {from: [hand, caught, stomped], to: cup}
actions:
  roll:
    effects:
      - draw: {from: cup, to: hand, count: "3 - size(hand)"}
      - roll: hand
      - set: {rolled: true}
  stop:
    when: rolled
    effects:
      - add: {banked: "size(caught)"}
      - end_turn: {}
  try_it:
    args: {from: other_player}
    effects:
      - end_turn: {}
end:
  trigger: "highest(banked) >= goal"
"""
BASE: dict[str, Any] = yaml.safe_load(BASE_TEXT)


# --- reading the README ----------------------------------------------------------------

@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, first line number (of the body) and text."""

    lang: str
    line: int
    text: str


def _text() -> str:
    return README.read_text(encoding="utf-8")


def _outside_fences(text: str) -> Iterator[tuple[bool, str]]:
    """Each line with whether it is inside a fenced block (fence lines count as inside)."""
    inside = False
    for line in text.splitlines():
        if line.startswith("```"):
            yield True, line
            inside = not inside
            continue
        yield inside, line


def _split(text: str, marker: str) -> dict[str, str]:
    """Headings of one level (`## ` or `### `) -> their text up to the next such heading."""
    out: dict[str, str] = {}
    title: str | None = None
    lines: list[str] = []
    higher = marker[:-2] + " " if len(marker) > 3 else None  # `## ` ends a `### ` part
    for fenced, line in _outside_fences(text):
        if not fenced and line.startswith(marker):
            if title is not None:
                out[title] = "\n".join(lines)
            title, lines = line[len(marker):].strip(), []
            continue
        if not fenced and higher and line.startswith(higher) and title is not None:
            out[title] = "\n".join(lines)
            title = None
            continue
        if title is not None:
            lines.append(line)
    if title is not None:
        out[title] = "\n".join(lines)
    return out


def chapter(title: str) -> str:
    """The text of a `## title` chapter."""
    chapters = _split(_text(), "## ")
    assert title in chapters, f"README has no '## {title}' chapter; it has {sorted(chapters)}"
    return chapters[title]


def parts(chapter_title: str) -> dict[str, str]:
    """The `### ` parts of a chapter, by heading."""
    return _split(chapter(chapter_title), "### ")


def lead(chapter_title: str) -> str:
    """The text of a chapter before its first `### ` part."""
    lines = []
    for fenced, line in _outside_fences(chapter(chapter_title)):
        if not fenced and line.startswith("### "):
            break
        lines.append(line)
    return "\n".join(lines)


def code_parts(chapter_title: str) -> dict[str, str]:
    """The parts of a chapter whose heading is a code span, by the name in it."""
    out = {}
    for heading, body in parts(chapter_title).items():
        m = CODE.match(heading)
        if m:
            out[m.group(1)] = body
    return out


def table_rows(text: str) -> list[list[str]]:
    """Table rows whose first cell is one code span, outside code blocks, as stripped cells;
    the first cell is given as the name inside the code span."""
    rows = []
    for fenced, line in _outside_fences(text):
        if fenced or not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = CODE.match(cells[0])
        if m:
            rows.append([m.group(1), *cells[1:]])
    return rows


def table_keys(text: str) -> set[str]:
    """The code-span names in the first column of every table in a text."""
    return {row[0] for row in table_rows(text)}


def blocks(text: str, lang: str | None = None) -> list[Block]:
    """The fenced blocks of a text (of one language, if given)."""
    out = []
    current: list[str] | None = None
    start = 0
    kind = ""
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            if current is None:
                current, start, kind = [], n + 1, line[3:].strip()
            else:
                if lang is None or kind == lang:
                    out.append(Block(kind, start, "\n".join(current) + "\n"))
                current = None
            continue
        if current is not None:
            current.append(line)
    return out


def flat(text: str) -> str:
    """Text with every run of whitespace made one space."""
    return " ".join(text.split())


def yaml_blocks() -> list[Block]:
    return blocks(_text(), "yaml")


def complete_blocks() -> list[Block]:
    return [b for b in yaml_blocks() if b.text.startswith(COMPLETE)]


# --- loading rulesets ------------------------------------------------------------------

def merged(base: dict[str, Any], fragment: dict[str, Any]) -> dict[str, Any]:
    """`base` with `fragment` merged in: mappings key by key, anything else replaced."""
    out = copy.deepcopy(base)
    for key, value in fragment.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def write(root: Path, text: str) -> Path:
    """Write ruleset text as `root/rulesets/<its id>/rules.yaml`; return the folder."""
    rid = str(yaml.safe_load(text)["id"])
    folder = root / "rulesets" / rid
    folder.mkdir(parents=True)
    (folder / "rules.yaml").write_text(text, encoding="utf-8")
    return folder


def load_data(root: Path, data: dict[str, Any]) -> Rules:
    return load_ruleset(write(root, yaml.safe_dump(data, sort_keys=False)))


def with_fragment(fragment: Any) -> dict[str, Any]:
    """The base ruleset with a README fragment in it."""
    if isinstance(fragment, list):  # a list of effects: the effects of `try_it`
        data = copy.deepcopy(BASE)
        data["actions"]["try_it"]["effects"] = fragment
        return data
    assert isinstance(fragment, dict), "a YAML example is a mapping of sections or a list"
    return merged(BASE, fragment)


def allowed(root: Path, change: dict[str, Any], path: str) -> set[str]:
    """The names the loader expects where `change` puts an unknown one, from its message."""
    try:
        load_data(root, merged(BASE, change))
    except LoadError as exc:
        for problem in exc.problems:
            m = re.search(r"expected one of: (.*)$", problem.message)
            if problem.path == path and m:
                return {name.strip() for name in m.group(1).split(",")}
        raise AssertionError(f"no 'expected one of' at {path}: {exc}") from None
    raise AssertionError(f"the loader accepted {change}")


# --- chapters and headings -------------------------------------------------------------

CHAPTERS = ("Folder layout", "A complete example", "Validation", "Sections",
            "Names and how they resolve", "Turns and rounds", "Effects", "Expressions",
            "Functions", "Argument domains", "State paths", "Scenarios")


@pytest.mark.parametrize("title", CHAPTERS)
def test_every_chapter_is_there(title: str) -> None:
    assert chapter(title).strip()


def test_folder_layout_names_every_file() -> None:
    text = chapter("Folder layout")
    for name in ("rules.yaml", "rules.md", "DECISIONS.md", "scenarios/"):
        assert name in text, name


def test_every_section_is_documented_and_every_documented_section_exists() -> None:
    assert set(code_parts("Sections")) == set(SECTIONS)
    overview = {row[0]: row[1] for row in table_rows(lead("Sections"))}
    assert set(overview) == set(SECTIONS)
    for name, (required, _) in SECTIONS.items():
        assert overview[name] == ("yes" if required else "no"), name
        assert "```yaml" in code_parts("Sections")[name], f"section {name} has no example"


@pytest.mark.parametrize(("section", "keys"), [
    ("options", OPTION_KEYS), ("dice", DIE_KEYS), ("zones", ZONE_KEYS),
    ("actions", ACTION_KEYS), ("end", END_KEYS),
])
def test_section_key_tables_match_the_loader(section: str, keys: set[str]) -> None:
    assert table_keys(code_parts("Sections")[section]) == keys


@pytest.mark.parametrize(("section", "change", "path"), [
    ("players", {"players": {"zzz": 1}}, "players.zzz"),
    ("vars", {"vars": {"zzz": {}}}, "vars.zzz"),
    ("turn", {"turn": {"zzz": []}}, "turn.zzz"),
    ("round", {"round": {"zzz": []}}, "round.zzz"),
])
def test_inline_key_lists_match_the_loader(tmp_path: Path, section: str,
                                           change: dict[str, Any], path: str) -> None:
    assert table_keys(code_parts("Sections")[section]) == allowed(tmp_path, change, path)


def test_bots_tables_match_the_loader(tmp_path: Path) -> None:
    # Two tables: the section's keys and the keys of one preference.
    keys = allowed(tmp_path, {"bots": {"zzz": []}}, "bots.zzz")
    keys |= allowed(tmp_path / "2", {"bots": {"heuristic": [{"action": "roll", "zzz": 1}]}},
                    "bots.heuristic[0].zzz")
    assert table_keys(code_parts("Sections")["bots"]) == keys


@pytest.mark.parametrize(("section", "values"), [
    ("zones", VISIBILITY), ("zones", HOLDS), ("end", TIES), ("actions", BY),
])
def test_allowed_values_are_documented(section: str, values: tuple[str, ...]) -> None:
    text = code_parts("Sections")[section]
    for value in values:
        assert f"`{value}`" in text, f"{section}: `{value}`"


def test_round_modes_are_documented(tmp_path: Path) -> None:
    modes = allowed(tmp_path, {"round": {"mode": "zzz"}}, "round.mode")
    text = code_parts("Sections")["round"]
    for mode in modes:
        assert f"`{mode}`" in text


def test_layout_keys_are_documented() -> None:
    text = code_parts("Sections")["layout"]
    assert table_keys(text) == layout.LAYOUT_KEYS
    for key in layout.FACE_KEYS | layout.AREA_KEYS | layout.ODDS_KEYS:
        assert re.search(rf"\b{key}\b", text), key
    for tone in layout.TONES:
        assert f"`{tone}`" in text, tone


# --- effects, functions, constants, domains --------------------------------------------

def test_every_effect_is_documented_and_every_documented_effect_exists() -> None:
    assert set(code_parts("Effects")) == set(EFFECTS) | set(CONTROL_FORMS)


@pytest.mark.parametrize("name", sorted(EFFECTS))
def test_effect_doc_parameters_and_example(name: str) -> None:
    spec = EFFECTS[name]
    body = code_parts("Effects")[name]
    assert flat(spec.doc) in flat(body), f"{name}: the registry's doc is not quoted"
    expected = {("VARIABLE" if p.kind == "assignments" else pname): p
                for pname, p in spec.params.items()}
    rows = {row[0]: row for row in table_rows(body)}
    assert set(rows) == set(expected), f"{name}: parameter table"
    for key, param in expected.items():
        assert rows[key][1] == param.kind, f"{name}.{key}: kind"
        assert rows[key][2] == ("yes" if param.required else "no"), f"{name}.{key}: required"
    if spec.shorthand is not None:
        assert "Short form" in body, f"{name} has a short form"
    assert "```yaml" in body, f"{name} has no example"


def test_the_when_form_is_documented(tmp_path: Path) -> None:
    body = code_parts("Effects")["when"]
    change = {"actions": {"try_it": {"effects": [{"when": True, "then": [], "zzz": 1}]}}}
    keys = allowed(tmp_path, change, "actions.try_it.effects[0].zzz") | {"when"}
    assert table_keys(body) == keys
    assert "```yaml" in body


def test_every_function_is_documented_and_every_documented_function_exists() -> None:
    assert set(code_parts("Functions")) == {f"{name}()" for name in FUNCTIONS}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_doc_form_and_example(name: str) -> None:
    body = code_parts("Functions")[f"{name}()"]
    assert flat(FUNCTIONS[name].doc) in flat(body), f"{name}: the registry's doc is not quoted"
    assert f"Form: `{name}(" in body
    assert "```yaml" in body, f"{name}() has no example"


def test_every_constant_is_documented_and_every_documented_constant_exists() -> None:
    assert table_keys(parts("Expressions")["Constants"]) == set(CONSTANTS)


def test_every_domain_is_documented_and_every_documented_domain_exists() -> None:
    assert set(code_parts("Argument domains")) == set(DOMAINS)


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_domain_doc_parameters_and_example(name: str) -> None:
    spec = DOMAINS[name]
    body = code_parts("Argument domains")[name]
    assert flat(spec.doc) in flat(body), f"{name}: the registry's doc is not quoted"
    for param in spec.params:
        assert f"`{param}`" in body, f"{name}: parameter {param}"
    assert "```yaml" in body, f"{name} has no example"


# --- every example loads ---------------------------------------------------------------

def _fragment_ids() -> list[Block]:
    return [b for b in yaml_blocks() if not b.text.startswith(COMPLETE)]


@pytest.mark.parametrize("block", _fragment_ids(), ids=lambda b: f"line{b.line}")
def test_yaml_example_loads(tmp_path: Path, block: Block) -> None:
    data = with_fragment(yaml.safe_load(block.text))
    try:
        load_data(tmp_path, data)
    except LoadError as exc:
        pytest.fail(f"README line {block.line}: the example does not load:\n{exc}")


def test_there_is_a_complete_example() -> None:
    assert complete_blocks(), f"no ```yaml block starts with {COMPLETE!r}"


def _placeholders(path: str, rules: Rules, name: str) -> str:
    shared = [z for z, d in rules.zones.items() if not d.per_player]
    swaps = {"NAME": name, "FACE": sorted({f for d in rules.dice.values() for f in d.faces})[0],
             "KIND": next(iter(rules.dice), "KIND"), "ZONE": next(iter(shared), "ZONE"),
             "OPTION": next(iter(rules.options), "OPTION")}
    return ".".join(swaps.get(part, part) for part in path.split("."))


@pytest.mark.parametrize("block", complete_blocks(), ids=lambda b: f"line{b.line}")
def test_complete_example_loads_and_plays_to_the_end(tmp_path: Path, block: Block) -> None:
    rules = load_ruleset(write(tmp_path, block.text))
    for n in range(rules.min_players, rules.max_players + 1):
        names = [f"P{i}" for i in range(n)]
        for seed in range(5):
            state = new_game(rules, names, seed=seed)
            for _ in range(5_000):
                if state.game_over:
                    break
                legal = legal_actions(state)
                assert legal, f"{n} players, seed {seed}: no legal action\n{state}"
                apply(state, legal[0])
            assert state.game_over, f"{n} players, seed {seed}: no end in 5000 actions"
            assert state.winners
            assert legal_actions(state) == []
            for path in rules.state_paths:
                state_value(state, _placeholders(path, rules, names[0]))


@pytest.mark.parametrize("block", complete_blocks(), ids=lambda b: f"line{b.line}")
def test_complete_example_plays_with_the_heuristic_bot(tmp_path: Path, block: Block) -> None:
    import random

    rules = load_ruleset(write(tmp_path, block.text))
    state = new_game(rules, ["Ann", "Ben"], seed=3)
    rng = random.Random(3)
    for _ in range(5_000):
        if state.game_over:
            break
        apply(state, heuristic_policy(state, legal_actions(state), rng))
    assert state.game_over


def test_validation_example_is_what_the_loader_says(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (complete,) = [b for b in complete_blocks() if "id: egg_race" in b.text]
    broken = complete.text.replace("- roll: tray", "- rol: tray", 1)
    broken = broken.replace("highest(eggs)", "highest(egs)", 1)
    assert broken.count("rol: tray") == 1 and "highest(egs)" in broken
    write(tmp_path, broken)
    shown = [line for b in blocks(chapter("Validation"), "text") for line in b.text.splitlines()
             if line.startswith("rulesets/egg_race/rules.yaml:")]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(LoadError) as exc:
        load_ruleset(Path("rulesets") / "egg_race")
    actual = [str(problem) for problem in exc.value.problems]

    def cut(line: str) -> str:
        return line.split("; expected one of:")[0]

    assert [cut(line) for line in shown] == [cut(line) for line in actual]
    assert all("did you mean" in line for line in shown)


# --- state paths ----------------------------------------------------------------------

def _concrete(path: str) -> str:
    """A documented state path with its placeholders filled in for the base ruleset."""
    path = path.replace("turn.VAR", "turn.rolled").replace("game.VAR", "game.pot")
    path = path.replace("players.NAME.VAR.KEY", "players.Ann.height.3")  # indexed: see below
    path = path.replace("players.NAME.VAR", "players.Ann.banked")
    per_player = "ZONE.NAME" in path or "players.NAME.zones.ZONE" in path
    path = path.replace("ZONE", "kept" if per_player else "cup")
    for word, value in (("NAME", "Ann"), ("KIND", "green"), ("FACE", "dino"),
                        ("OPTION", "goal")):
        path = path.replace(word, value)
    assert not re.search(r"\b[A-Z]+\b", path), f"unknown placeholder in {path}"
    return path


def test_every_documented_state_path_answers(tmp_path: Path) -> None:
    # With a player variable with keys, for `players.NAME.VAR.KEY`.
    rules = load_data(tmp_path, merged(BASE, {"vars": {"player": {
        "height": {"keys": [2, 3], "value": 0}}}}))
    state = new_game(rules, ["Ann", "Ben"], seed=1)
    apply(state, legal_actions(state)[0])
    paths = [row[0] for row in table_rows(chapter("State paths"))]
    assert len(paths) >= 15
    for path in paths:
        state_value(state, _concrete(path))
