"""The ruleset validator: every mistake in a rules file is reported as file:line:col: path: message.

Each folder under fixtures/bad_rulesets/ is one broken ruleset (its folder name is its id, so
only `id_mismatch` trips the id check). `expected.txt` lists every problem it must produce, in
order, as `LINE:COL: PATH: MESSAGE`; a line ending in `...` is matched as a prefix (used to
leave out the long "expected one of" lists). A case with `xfail.txt` pins a known bug.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURES, run_cli

from dinotable.ruleset import LoadError, Problem, installed_rulesets, load_ruleset, problems_of

BAD = FIXTURES / "bad_rulesets"
CASES = sorted(p for p in BAD.iterdir() if (p / "rules.yaml").is_file())


def _expected(case: Path) -> list[str]:
    return [line for line in (case / "expected.txt").read_text().splitlines() if line.strip()]


def _params(known_bugs: bool = True) -> list[object]:
    """One param per case; with `known_bugs`, a case with xfail.txt is marked xfail(strict)."""
    out = []
    for case in CASES:
        marks = []
        if known_bugs and (case / "xfail.txt").is_file():
            reason = (case / "xfail.txt").read_text().strip()
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        out.append(pytest.param(case, id=case.name, marks=marks))
    return out


def _matches(got: str, want: str) -> bool:
    if want.endswith("..."):
        return got.startswith(want[:-3])
    return got == want


def _assert_lines(got: list[str], want: list[str]) -> None:
    assert len(got) == len(want), "problems reported:\n" + "\n".join(got)
    for g, w in zip(got, want, strict=True):
        assert _matches(g, w), f"\n got: {g}\nwant: {w}"


def test_there_are_at_least_fifteen_bad_ruleset_cases() -> None:
    assert len(CASES) >= 15


def test_the_base_the_bad_cases_are_made_from_is_valid() -> None:
    assert problems_of(FIXTURES / "good_rulesets" / "fixture_dice") == []


@pytest.mark.parametrize("case", _params())
def test_each_mistake_is_reported_with_its_line_column_path_and_message(case: Path) -> None:
    problems = problems_of(case)
    assert problems, "the broken ruleset loaded without a problem"
    for p in problems:
        assert isinstance(p, Problem)
        assert Path(p.file).as_posix().endswith(f"{case.name}/rules.yaml")
        assert str(p) == f"{p.file}:{p.line}:{p.col}: {p.path}: {p.message}"
    _assert_lines([f"{p.line}:{p.col}: {p.path}: {p.message}" for p in problems],
                  _expected(case))


@pytest.mark.parametrize("case", _params(known_bugs=False))
def test_load_ruleset_raises_load_error_carrying_the_same_problems(case: Path) -> None:
    with pytest.raises(LoadError) as info:
        load_ruleset(case)
    assert info.value.problems == problems_of(case)
    assert str(info.value) == "\n".join(str(p) for p in info.value.problems)


def test_several_problems_are_all_reported_at_once_sorted_by_line() -> None:
    problems = problems_of(BAD / "several_problems")
    assert [p.path for p in problems] == [
        "end.ties", "actions.roll.effects[2].move_faces.face", "actions.stop.whynot", "layuot"]
    assert [(p.line, p.col) for p in problems] == sorted((p.line, p.col) for p in problems)


def test_a_python_tag_in_a_ruleset_is_refused_and_not_run() -> None:
    # The fixture would print "pwned" if os.system ran; nothing is printed and the tag is named.
    (problem,) = problems_of(BAD / "python_tag")
    assert "python/object/apply:os.system" in problem.message
    assert "not allowed" in problem.message


# --- the command line --------------------------------------------------------


@pytest.fixture(scope="module")
def validate_all_bad() -> tuple[int, list[str], str]:
    """`python -m dinotable validate` over every bad case at once (one interpreter)."""
    rel = [str(case.relative_to(FIXTURES.parent.parent)) for case in CASES]
    done = run_cli("validate", *rel)
    return done.returncode, done.stderr.splitlines(), done.stderr + done.stdout


def test_validate_of_broken_rulesets_exits_2_without_a_traceback(
        validate_all_bad: tuple[int, list[str], str]) -> None:
    code, _, text = validate_all_bad
    assert code == 2
    assert "Traceback" not in text
    assert f"0 valid, {len(CASES)} invalid" in text


@pytest.mark.parametrize("case", _params())
def test_validate_prints_each_problem_as_file_line_col_path_message(
        case: Path, validate_all_bad: tuple[int, list[str], str]) -> None:
    _, lines, _ = validate_all_bad
    prefix = f"tests/fixtures/bad_rulesets/{case.name}/rules.yaml:"
    mine = [line[len(prefix):] for line in lines if line.startswith(prefix)]
    _assert_lines(mine, _expected(case))


def test_validate_of_one_broken_ruleset_exits_2_with_its_lines_on_stderr() -> None:
    done = run_cli("validate", "tests/fixtures/bad_rulesets/misspelt_effect")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("tests/fixtures/bad_rulesets/misspelt_effect/rules.yaml:26:9: "
                           "actions.roll.effects[2].move_face: unknown effect 'move_face' "
                           "(did you mean 'move_faces'?)")


def test_validate_accepts_a_rules_yaml_file_as_well_as_its_folder() -> None:
    done = run_cli("validate", "tests/fixtures/bad_rulesets/bad_ties/rules.yaml")
    assert done.returncode == 2
    assert "end.ties: unknown value 'leader_replay'" in done.stderr


def test_validate_of_a_missing_folder_exits_2_naming_the_file(tmp_path: Path) -> None:
    done = run_cli("validate", str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "nowhere/rules.yaml:1:1: (file): cannot be read" in done.stderr


def test_every_shipped_ruleset_loads_without_a_problem() -> None:
    folders = installed_rulesets()
    assert folders, "no shipped rulesets found"
    for folder in folders:
        assert problems_of(folder) == [], folder.name
        assert load_ruleset(folder).id == folder.name


def test_validate_with_no_path_checks_every_shipped_ruleset_and_exits_0() -> None:
    done = run_cli("validate")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    for folder in installed_rulesets():
        assert f"ok {folder.name}" in done.stdout
    assert f"{len(installed_rulesets())} valid, 0 invalid" in done.stdout
