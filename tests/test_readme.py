"""The README and the pages under docs/ say what the product does: every shipped game is
listed with its picture, the set-up commands are the ones CI runs, links lead somewhere,
and the reference pages name every bench key, command-line option and scenario key the
code knows."""

from __future__ import annotations

import ast
import io
import re
import shlex
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from dinotable.ruleset import installed_rulesets, load_ruleset

README = ROOT / "README.md"
DOCS = ROOT / "docs"
CI_RUN = ROOT / ".ci" / "run"
START = "python3 -m pip install . && dinotable"
PICTURE = (1280, 720)  # what tools/screenshots.py takes: the table at the window's size


def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def shipped() -> list[tuple[str, str]]:
    """Every shipped ruleset's id and name."""
    found = [(folder.name, load_ruleset(folder).name) for folder in installed_rulesets()]
    assert found, "no shipped rulesets found"
    return found


# --- the games and their pictures ----------------------------------------------------------


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, read from its header; AssertionError if it is no PNG."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


@pytest.mark.parametrize(("rid", "name"), shipped())
def test_every_shipped_game_has_a_picture_of_its_table(rid: str, name: str) -> None:
    picture = DOCS / "images" / f"{rid}.png"
    assert picture.is_file(), f"{name} has no picture: run python3 tools/screenshots.py"
    assert png_size(picture) == PICTURE
    # A frame of the table is tens of kilobytes at least; a blank or broken one is tiny.
    assert 40_000 < picture.stat().st_size < 1_000_000, picture.stat().st_size


@pytest.mark.parametrize(("rid", "name"), shipped())
def test_every_shipped_game_is_in_the_readme_list_with_its_picture(rid: str, name: str) -> None:
    readme = text_of(README)
    games = readme.split("## The games", 1)[1].split("\n## ", 1)[0]
    assert f"\n### {name}\n" in games, f"{name} is not in the README's list of games"
    section = games.split(f"\n### {name}\n", 1)[1].split("\n### ", 1)[0]
    pictures = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", section)
    assert (f"docs/images/{rid}.png" in [target for _, target in pictures]
            and all(name in alt for alt, _ in pictures)), (
        f"the README shows no picture of {name} (docs/images/{rid}.png) under its name")


def screenshots(*args: str) -> subprocess.CompletedProcess[str]:
    """Run tools/screenshots.py as the README's pictures are taken, in a fresh interpreter."""
    return subprocess.run([sys.executable, str(ROOT / "tools" / "screenshots.py"), *args],
                          capture_output=True, text=True, timeout=300)


def test_the_picture_command_takes_a_game_at_the_table(tmp_path: Path) -> None:
    done = screenshots("--only", "dino_hunt_dice", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["dino_hunt_dice.png"]
    assert png_size(tmp_path / "dino_hunt_dice.png") == PICTURE
    assert "dino_hunt_dice.png" in done.stdout


@pytest.mark.parametrize("args", [("--only", "no_such_game"), ("--frobnicate",),
                                  ("--out", str(README))])
def test_the_picture_command_refuses_a_bad_argument_in_one_line(args: tuple[str, ...]) -> None:
    done = screenshots(*args)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stdout == ""


# --- the set-up commands -------------------------------------------------------------------


def ci_commands() -> tuple[list[str], dict[str, str], list[str]]:
    """What .ci/run runs: the pip install line's words, the SDL variables it exports, and
    the pytest line's words."""
    lines = [line.strip() for line in text_of(CI_RUN).splitlines()]
    pip = next(shlex.split(line) for line in lines if " -m pip install " in line)
    pytest_line = next(shlex.split(line) for line in lines if " -m pytest" in f"{line} ")
    exported: dict[str, str] = {}
    for line in lines:
        if line.startswith("export "):
            for word in shlex.split(line)[1:]:
                key, _, value = word.partition("=")
                if key.startswith("SDL_"):
                    exported[key] = value
    assert exported, ".ci/run exports no SDL variables"
    return pip, exported, pytest_line


def install_target(words: list[str]) -> tuple[bool, str]:
    """Whether pip installs editable (-e), and what: the project with its extras."""
    target = next(w for w in words if w.startswith("."))
    return "-e" in words, target


def readme_command(marker: str) -> str:
    """The README's command line holding `marker` (an indented or fenced code line)."""
    found = [line.strip() for line in text_of(README).splitlines()
             if line.startswith(("    ", "\t")) and marker in line]
    assert len(found) == 1, f"expected one README command with {marker!r}, found {found}"
    return found[0]


def test_the_readme_test_command_installs_and_runs_what_ci_runs() -> None:
    pip, exported, pytest_words = ci_commands()
    install, _, run = readme_command("-m pytest").partition("&&")
    install_words = shlex.split(install)
    assert install_words[:4] == ["python3", "-m", "pip", "install"], install
    assert install_target(install_words) == install_target(pip)
    run_words = shlex.split(run)
    env = {}
    while run_words and re.fullmatch(r"[A-Z_]+=\S*", run_words[0]):
        key, _, value = run_words.pop(0).partition("=")
        env[key] = value
    assert env == exported, f"the README sets {env}; .ci/run exports {exported}"
    assert run_words == pytest_words, f"the README runs {run_words}; .ci/run {pytest_words}"


def test_install_and_start_is_on_the_first_screen() -> None:
    lines = text_of(README).splitlines()
    at = [n for n, line in enumerate(lines, 1) if line.strip() == START]
    assert at, f"the README does not say {START!r}"
    assert at[0] <= 30, f"{START!r} is on line {at[0]}; a newcomer should see it at once"
    assert readme_command("pip install . ") == START


# --- links ------------------------------------------------------------------------------------


def pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def slug(heading: str) -> str:
    """The anchor a Markdown heading gets on the page (as GitHub makes it)."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings (not counting fenced code)."""
    out = set()
    fenced = False
    for line in text_of(page).splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            out.add(slug(line.lstrip("#")))
    return out


def links(page: Path) -> list[str]:
    """The targets of a page's Markdown links and pictures, outside code."""
    text = re.sub(r"```.*?```", "", text_of(page), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading #{anchor} in {where.name}")
    assert not broken, f"{page.name}: {broken}"


def test_the_readme_links_to_every_page_in_docs() -> None:
    readme = set(links(README))
    missing = [p.name for p in sorted(DOCS.glob("*.md")) if f"docs/{p.name}" not in readme]
    assert not missing, f"the README does not link to {missing}"


# --- docs/bench.md: every key `dinotable bench --json` writes --------------------------------

BENCH_CODE = [ROOT / "dinotable" / name for name in ("bench.py", "bench_table.py",
                                                     "bench_growth.py", "bench_bots.py",
                                                     "bench_saves.py")]


def _constants(node: ast.AST) -> list[str] | None:
    """The texts a loop runs over, when it is a written-out tuple or list of them."""
    if isinstance(node, ast.Tuple | ast.List) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def _key_names(key: ast.AST, loops: dict[str, list[str]]) -> list[str]:
    """The key names a dict key or subscript stands for: a text, or an f-string over a
    loop's written-out values; [] for anything else (a ruleset's id)."""
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        return [key.value]
    if isinstance(key, ast.JoinedStr):
        names = [""]
        for part in key.values:
            if isinstance(part, ast.Constant):
                names = [n + str(part.value) for n in names]
            elif (isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name)
                  and part.value.id in loops):
                names = [n + v for n in names for v in loops[part.value.id]]
            else:
                raise AssertionError(f"cannot read the bench key {ast.unparse(key)}")
        return names
    return []


def emitted_bench_keys() -> set[str]:
    """Every key name the bench code writes into its result: the texts in dict displays
    and the subscripts it assigns, with f-strings spelt out over their loops."""
    keys: set[str] = set()
    for path in BENCH_CODE:
        tree = ast.parse(text_of(path))
        loops: dict[str, list[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.For | ast.comprehension) and isinstance(
                    node.target, ast.Name) and (values := _constants(node.iter)):
                loops[node.target.id] = values
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key in node.keys:
                    if key is not None:
                        keys.update(_key_names(key, loops))
            elif isinstance(node, ast.DictComp):
                keys.update(_key_names(node.key, loops))
            elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                  and ast.unparse(node.value) != "os.environ"):
                keys.update(_key_names(node.slice, loops))
    return keys


def documented_bench_keys() -> set[str]:
    """Every key path in docs/bench.md's tables (`.name` continues the path before it)."""
    paths: set[str] = set()
    for line in text_of(DOCS / "bench.md").splitlines():
        if not line.startswith("| `"):
            continue
        parent = ""
        for key in re.findall(r"`([^`]+)`", line.split(" | ")[0]):
            full = parent + key if key.startswith(".") else key
            paths.add(full)
            parent = full.rsplit(".", 1)[0] if "." in full else ""
    return paths


def test_docs_bench_names_every_key_the_bench_writes_and_no_other() -> None:
    emitted = emitted_bench_keys()
    assert {"games_per_second", "random_games_per_second", "vs_heuristic"} <= emitted
    documented = documented_bench_keys()
    parts = {part for path in documented for part in path.split(".") if part != "<id>"}
    assert not emitted - parts, f"undocumented bench keys: {sorted(emitted - parts)}"
    assert not parts - emitted, f"docs/bench.md names keys the bench no longer writes: " \
                                f"{sorted(parts - emitted)}"


# --- docs/command-line.md: every command and option ---------------------------------------


def test_docs_command_line_names_every_command_and_option() -> None:
    import argparse

    from dinotable.cli import SIMULATE_JSON_KEYS, build_parser

    page = text_of(DOCS / "command-line.md")
    missing = []

    def options(parser: argparse.ArgumentParser, where: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    if f"dinotable {name}" not in page:
                        missing.append(f"dinotable {name}")
                    options(sub, f"dinotable {name}")
            for flag in action.option_strings:
                if flag.startswith("--") and flag != "--help" and f"`{flag}" not in page \
                        and f" {flag}" not in page:
                    missing.append(f"{where} {flag}")

    options(build_parser(), "dinotable")
    missing += [f"simulate --json key {key}" for key in SIMULATE_JSON_KEYS
                if f"`{key}`" not in page]
    assert not missing, f"docs/command-line.md does not mention {missing}"


# --- docs/scenarios.md: every key, and an example that passes ---------------------------------


def test_docs_scenarios_names_every_key_a_scenario_file_may_hold() -> None:
    from dinotable.scenarios import EXPECT_KEYS, SETUP_KEYS, STEP_KEYS, TOP_KEYS

    page = text_of(DOCS / "scenarios.md")
    keys = [*sorted(TOP_KEYS), *SETUP_KEYS, *STEP_KEYS, *EXPECT_KEYS, "player", "illegal"]
    missing = [key for key in keys if f"`{key}`" not in page]
    assert not missing, f"docs/scenarios.md does not describe {missing}"


def test_the_example_scenario_in_docs_scenarios_passes_check(tmp_path: Path) -> None:
    from dinotable.check import run_check

    page = text_of(DOCS / "scenarios.md")
    example = next(block for block in re.findall(r"```yaml\n(.*?)```", page, re.S)
                   if block.startswith("name:"))
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    out = io.StringIO()
    assert run_check([str(path)], out, io.StringIO()) == 0, out.getvalue()
    assert out.getvalue().startswith("PASS ")


def test_the_ruleset_reference_sends_readers_to_the_scenario_page_inside_the_project() -> None:
    reference = text_of(ROOT / "rulesets" / "README.md")
    assert "](../docs/scenarios.md)" in reference
    assert "shared project folder" not in reference
