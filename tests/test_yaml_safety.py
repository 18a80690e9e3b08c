"""Safe YAML loading: only plain YAML values, bounded in size and expansion, every error placed."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dinotable.ruleset import LoadError
from dinotable.ruleset.yamlsafe import load_file, load_text

MIB = 1024 * 1024


def _problems(text: str, name: str = "t.yaml") -> list[str]:
    with pytest.raises(LoadError) as info:
        load_text(text, name)
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize("tag", [
    "!!python/object/apply:os.system",
    "!!python/object/new:os.system",
    "!!python/object/apply:subprocess.call",
])
def test_python_object_tags_are_refused_and_never_run(tmp_path: Path, tag: str) -> None:
    marker = tmp_path / "ran"
    command = f"touch {marker}" if "os.system" in tag else ["touch", str(marker)]
    text = f"name: {tag} [{command!r}]\n".replace("'", '"')
    (line,) = _problems(text)
    assert line.startswith("t.yaml:1:7: name: tag ")
    assert tag.replace("!!", "tag:yaml.org,2002:") in line
    assert "not allowed" in line
    assert not marker.exists()


def test_python_name_tag_on_a_scalar_is_refused() -> None:
    (line,) = _problems("fn: !!python/name:os.system\n")
    assert line.startswith("t.yaml:1:5: fn: tag 'tag:yaml.org,2002:python/name:os.system' "
                           "is not allowed")


@pytest.mark.parametrize("text, where", [
    ("a: !custom 3\n", "1:4: a"),
    ("a: !include other.yaml\n", "1:4: a"),
    ("a:\n  b: !thing {x: 1}\n", "2:6: a.b"),
    ("a: !list [1, 2]\n", "1:4: a"),
    ("a: !!binary aGVsbG8=\n", "1:4: a"),
])
def test_custom_and_non_plain_tags_are_refused_with_their_place(text: str, where: str) -> None:
    (line,) = _problems(text)
    assert line.startswith(f"t.yaml:{where}: tag ")
    assert "is not allowed" in line


def test_plain_yaml_values_load_with_the_line_and_column_of_every_key() -> None:
    data, marks = load_text("a: 1\nb:\n  - x\n  - {c: true, d: 2.5, e: null}\n", "t.yaml")
    assert data == {"a": 1, "b": ["x", {"c": True, "d": 2.5, "e": None}]}
    assert marks[("a",)] == (1, 1)
    assert marks[("b",)] == (2, 1)
    assert marks[("b", 1, "d")] == (4, 15)


def test_a_file_over_one_mebibyte_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: 1\n" + "#" * MIB + "\n")
    with pytest.raises(LoadError) as info:
        load_file(big, "big.yaml")
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.col, problem.path) == ("big.yaml", 1, 1, "(file)")
    assert f"at most {MIB}" in problem.message


def test_a_file_of_exactly_one_mebibyte_is_still_read(tmp_path: Path) -> None:
    exact = tmp_path / "exact.yaml"
    head = "a: 1\n#"
    exact.write_text(head + "x" * (MIB - len(head)))
    assert exact.stat().st_size == MIB
    assert load_file(exact)[0] == {"a": 1}


def test_text_over_one_mebibyte_is_refused() -> None:
    (line,) = _problems("a: 1\n" + "#" * MIB)
    assert line.startswith("t.yaml:1:1: (file): ")
    assert str(MIB) in line


def _bomb(levels: int, width: int) -> str:
    lines = ["l0: &l0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_a_billion_laughs_alias_bomb_is_refused_with_a_message_after_bounded_work() -> None:
    # 10**10 strings once expanded. Run in a child with a generous limit: an unbounded expansion
    # would never finish (or run out of memory) instead of answering with a message.
    code = textwrap.dedent(f"""
        from dinotable.ruleset import LoadError
        from dinotable.ruleset.yamlsafe import load_text
        try:
            load_text({_bomb(10, 10)!r}, "bomb.yaml")
        except LoadError as exc:
            for p in exc.problems:
                print(p)
        else:
            print("LOADED")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines, "nothing printed"
    assert "LOADED" not in lines
    assert len(lines) == 1
    assert lines[0].startswith("bomb.yaml:")
    assert "values once aliases are expanded" in lines[0]


def test_aliases_within_the_budget_are_expanded() -> None:
    data, _ = load_text(_bomb(3, 5), "t.yaml")
    assert data["l2"] == [[["lol"] * 5] * 5] * 5


def test_nesting_deeper_than_the_limit_is_refused() -> None:
    (line,) = _problems("a: " + "[" * 100 + "]" * 100 + "\n")
    assert "nested deeper than" in line


@pytest.mark.parametrize("text, line_col, path", [
    ("a: 1\nb: 2\na: 3\n", "3:1", "a"),
    ("top:\n  x: 1\n  y: 2\n\n  x: 4\n", "5:3", "top.x"),
    ("list:\n  - {k: 1, k: 2}\n", "2:12", "list[0].k"),
])
def test_duplicate_keys_are_reported_at_the_second_occurrence(
        text: str, line_col: str, path: str) -> None:
    (line,) = _problems(text)
    key = path.rsplit(".", 1)[-1].split("]")[-1]
    assert line == f"t.yaml:{line_col}: {path}: key {key!r} appears twice"


@pytest.mark.parametrize("text, line_col", [
    ("a: [1, 2\nb: 3\n", "2:2"),
    ("a: b: c\n", "1:5"),
    ("a:\n  - x\n - y\n", "3:2"),
    ("a: 'open\n", "2:1"),
    ("\tx: 1\n", "1:1"),
])
def test_invalid_yaml_is_reported_as_file_line_col(text: str, line_col: str) -> None:
    (line,) = _problems(text)
    assert line.startswith(f"t.yaml:{line_col}: (yaml): not valid YAML: ")


def test_invalid_yaml_in_a_file_names_the_file(tmp_path: Path) -> None:
    f = tmp_path / "rules.yaml"
    f.write_text("id: x\nplayers: {min: 2\n")
    with pytest.raises(LoadError) as info:
        load_file(f)
    (problem,) = info.value.problems
    assert str(problem).startswith(f"{f}:3:1: (yaml): not valid YAML")


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "latin.yaml"
    f.write_bytes(b"name: caf\xe9\n")
    with pytest.raises(LoadError) as info:
        load_file(f, "latin.yaml")
    (problem,) = info.value.problems
    assert str(problem).startswith("latin.yaml:1:1: (file): not UTF-8 text")


def test_a_key_that_is_not_a_plain_value_is_refused() -> None:
    (line,) = _problems("? [a, b]\n: 1\n")
    assert line == "t.yaml:1:3: (top): a key must be a plain value"


def test_a_merge_key_is_refused_with_a_message_naming_merge_keys() -> None:
    (line,) = _problems("base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n")
    assert "merge keys (<<) are not supported" in line


def test_a_refused_character_is_one_problem_at_its_line_and_column() -> None:
    assert _problems("a: 1\nb: x\x00y\n") == [
        "t.yaml:2:5: (yaml): not valid YAML: character U+0000 is not allowed"]


def test_a_number_of_thousands_of_digits_is_a_problem_not_a_crash() -> None:
    assert _problems("a: 1\nb: " + "9" * 5000 + "\n") == [
        "t.yaml:2:4: b: number too large (5000 characters)"]
