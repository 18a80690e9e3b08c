"""The GitHub workflows: valid for GitHub (check-jsonschema, against the workflow schema it
ships), free of what zizmor finds (its offline audits), and doing what a release manager
checks before tagging: Linux, Windows and macOS; on a version tag the suite, the build, the
built app's self-test and the zip on the release, in that order; the suite run the way
.ci/run runs it; least permissions, no stored credentials, a time limit on every job.

Each check is shown to fail on a workflow broken on purpose.
"""

from __future__ import annotations

import copy
import re
import shlex
import shutil
import subprocess
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
RELEASE = WORKFLOWS / "release.yml"
TESTS = WORKFLOWS / "tests.yml"
SYSTEMS = {"ubuntu": "Linux", "windows": "Windows", "macos": "macOS"}
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")


def _tool(name: str) -> str:
    """The linter's command: where pip put it for this Python, else on PATH."""
    found = shutil.which(name, path=sysconfig.get_path("scripts")) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: python3 -m pip install -e \".[test]\"")
    return found


def check_jsonschema(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_tool("check-jsonschema"), "--builtin-schema",
                           "vendor.github-workflows", str(path)],
                          capture_output=True, text=True, timeout=120)


def zizmor(path: Path) -> subprocess.CompletedProcess[str]:
    # --offline: no GitHub API (this machine has none); every offline audit still runs.
    return subprocess.run([_tool("zizmor"), "--offline", "--no-progress", str(path)],
                          capture_output=True, text=True, timeout=120)


def _files() -> list[Path]:
    files = sorted(p for p in WORKFLOWS.iterdir() if p.suffix in (".yml", ".yaml"))
    assert files, f"no workflows in {WORKFLOWS}"
    return files


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_workflow_matches_githubs_schema(path: Path) -> None:
    done = check_jsonschema(path)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_zizmor_finds_nothing_in_any_workflow(path: Path) -> None:
    done = zizmor(path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings to report" in done.stdout + done.stderr


# --- what the workflows do ---------------------------------------------------------------


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    assert isinstance(doc, dict)
    return doc


def triggers(doc: dict[str, Any]) -> dict[str, Any]:
    # YAML 1.1 reads the key `on` as true.
    found = doc.get("on", doc.get(True))
    return found if isinstance(found, dict) else {}


def ci_run() -> tuple[list[str], dict[str, str]]:
    """The pytest arguments .ci/run passes, and the environment it exports for them."""
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    args: list[str] | None = None
    env: dict[str, str] = {}
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["export"]:
            env.update(w.split("=", 1) for w in words[1:] if "=" in w)
        if words[1:3] == ["-m", "pytest"]:
            args = words[3:]
    assert args is not None, ".ci/run runs no pytest"
    return args, env


def _runs(job: dict[str, Any]) -> list[str]:
    return [str(step.get("run", "")) for step in job.get("steps", [])]


def _index(job: dict[str, Any], wanted: Callable[[dict[str, Any]], bool]) -> int | None:
    return next((k for k, step in enumerate(job.get("steps", [])) if wanted(step)), None)


def _pytest_problems(name: str, job: dict[str, Any]) -> list[str]:
    """The job's test step must run pytest as .ci/run does, headless."""
    args, env = ci_run()
    steps = [s for s in job.get("steps", []) if re.search(r"-m pytest\b", str(s.get("run")))]
    if len(steps) != 1:
        return [f"{name}: {len(steps)} pytest steps, not 1"]
    words = shlex.split(str(steps[0]["run"]))
    problems = []
    if words[words.index("pytest") + 1:] != args:
        problems.append(f"{name}: pytest {words[words.index('pytest') + 1:]}, "
                        f".ci/run: pytest {args}")
    step_env = {k: str(v) for k, v in (steps[0].get("env") or {}).items()}
    if any(step_env.get(k) != v for k, v in env.items()):
        problems.append(f"{name}: the test step's environment {step_env} is not .ci/run's {env}")
    return problems


def _systems(job: dict[str, Any]) -> set[str]:
    oses = (job.get("strategy") or {}).get("matrix", {}).get("os", [])
    return {label for prefix, label in SYSTEMS.items()
            for runner in oses if str(runner).startswith(prefix)}


def common_problems(doc: dict[str, Any]) -> list[str]:
    """Least permissions, no stored credentials, pinned actions, time limits, bash."""
    problems = []
    if doc.get("permissions") != {}:
        problems.append("the workflow grants permissions to every job (want permissions: {})")
    shell = (doc.get("defaults") or {}).get("run", {}).get("shell")
    for name, job in (doc.get("jobs") or {}).items():
        if not isinstance(job.get("timeout-minutes"), int):
            problems.append(f"{name}: no timeout-minutes")
        if "permissions" not in job:
            problems.append(f"{name}: no permissions of its own")
        for step in job.get("steps", []):
            uses = step.get("uses")
            if uses and not PINNED.match(uses):
                problems.append(f"{name}: {uses} is not pinned to a commit")
            if uses and uses.startswith("actions/checkout@") and (
                    (step.get("with") or {}).get("persist-credentials") is not False):
                problems.append(f"{name}: checkout keeps its credentials")
            if "run" in step and step.get("shell", shell) != "bash":
                problems.append(f"{name}: step {step.get('name', step['run'])!r} is not bash")
    return problems


def release_problems(doc: dict[str, Any]) -> list[str]:
    """What release.yml must do on a version tag."""
    problems = common_problems(doc)
    on = triggers(doc)
    if set(on) != {"push"} or on["push"] != {"tags": ["v*"]}:
        problems.append(f"runs on {on}, not on version tags (push: tags: [v*]) alone")
    jobs = doc.get("jobs") or {}
    builders = [name for name, job in jobs.items() if any("packaging/build.py" in r
                                                         for r in _runs(job))]
    if len(builders) != 1:
        return [*problems, f"{len(builders)} jobs build the app, not 1"]
    name = builders[0]
    job = jobs[name]
    if _systems(job) != set(SYSTEMS.values()):
        problems.append(f"{name} builds on {sorted(_systems(job))}, not Linux, Windows, macOS")
    problems += _pytest_problems(name, job)
    order = {
        "test": _index(job, lambda s: "-m pytest" in str(s.get("run"))),
        "build": _index(job, lambda s: "packaging/build.py" in str(s.get("run"))),
        "self-test": _index(job, lambda s: "--self-test" in str(s.get("run"))),
        "keep the zip": _index(job, lambda s: str(s.get("uses", "")).startswith(
            "actions/upload-artifact@") and "dist/dinotable-*.zip" in str(s.get("with"))),
    }
    missing = [step for step, k in order.items() if k is None]
    if missing:
        problems.append(f"{name} has no step to {', '.join(missing)}")
    elif list(order.values()) != sorted(order.values()):  # type: ignore[type-var]
        problems.append(f"{name} does not test, build, self-test and keep the zip in order")
    self_test = "\n".join(r for r in _runs(job) if "--self-test" in r)
    for exe in ("dist/dinotable/dinotable --self-test", "dist/dinotable/dinotable.exe",
                "dist/dinotable.app/Contents/MacOS/dinotable"):
        if exe not in self_test:
            problems.append(f"the self-test never runs {exe}")
    uploaders = [n for n, j in jobs.items() if any("gh release" in r for r in _runs(j))]
    if len(uploaders) != 1:
        problems.append(f"{len(uploaders)} jobs attach the zips to the release, not 1")
    else:
        upload = jobs[uploaders[0]]
        needs = upload.get("needs")
        if name not in ([needs] if isinstance(needs, str) else needs or []):
            problems.append(f"{uploaders[0]} does not wait for {name}")
        if upload.get("permissions") != {"contents": "write"}:
            problems.append(f"{uploaders[0]} has {upload.get('permissions')}, "
                            "not contents: write alone")
        if not any("dist/*.zip" in r for r in _runs(upload)):
            problems.append(f"{uploaders[0]} does not attach dist/*.zip")
    for other, j in jobs.items():
        if other not in uploaders and j.get("permissions") != {"contents": "read"}:
            problems.append(f"{other} has {j.get('permissions')}, not contents: read")
    return problems


def suite_problems(doc: dict[str, Any]) -> list[str]:
    """What tests.yml must do on every push and pull request, and must not."""
    problems = common_problems(doc)
    on = triggers(doc)
    if "pull_request" not in on or "push" not in on:
        problems.append(f"runs on {sorted(on)}, not every push and pull request")
    elif (on["push"] or {}).get("tags") or "branches" not in (on["push"] or {}):
        problems.append("a tag push runs the tests twice (once here, once in release.yml)")
    jobs = doc.get("jobs") or {}
    testers = [n for n, j in jobs.items() if any("-m pytest" in r for r in _runs(j))]
    if len(testers) != 1:
        return [*problems, f"{len(testers)} jobs run the tests, not 1"]
    job = jobs[testers[0]]
    if _systems(job) != set(SYSTEMS.values()):
        problems.append(f"tests run on {sorted(_systems(job))}, not Linux, Windows, macOS")
    problems += _pytest_problems(testers[0], job)
    runs = "\n".join(r for j in jobs.values() for r in _runs(j))
    if "packaging/build.py" in runs or "gh release" in runs:
        problems.append("tests.yml builds or releases: only a version tag does")
    return problems


def test_a_version_tag_tests_builds_self_tests_and_releases_on_three_systems() -> None:
    assert release_problems(load(RELEASE)) == []


def test_every_push_and_pull_request_runs_the_suite_on_three_systems() -> None:
    assert suite_problems(load(TESTS)) == []


def test_the_workflow_runs_the_same_tests_as_ci() -> None:
    args, env = ci_run()
    assert env == {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                   "PYTHONDONTWRITEBYTECODE": "1"}
    # The whole suite as pyproject.toml configures it, on every core.
    assert args == ["-n", "auto"]


# --- each check can fail ---------------------------------------------------------------


def _steps(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return doc["jobs"]["build"]["steps"]  # type: ignore[no-any-return]


def _without(doc: dict[str, Any], text: str) -> None:
    doc["jobs"]["build"]["steps"] = [s for s in _steps(doc) if text not in str(s)]


BREAKAGES: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "no Windows": (lambda d: d["jobs"]["build"]["strategy"]["matrix"]["os"].remove(
        "windows-latest"), "not Linux, Windows, macOS"),
    "on every push": (lambda d: d.update({True: {"push": None}}), "not on version tags"),
    "no tests": (lambda d: _without(d, "-m pytest"), "0 pytest steps"),
    "other tests": (lambda d: next(s for s in _steps(d) if "-m pytest" in str(s)).update(
        run="python -m pytest -m 'not packaging'"), ".ci/run: pytest ['-n', 'auto']"),
    "tests with a window": (lambda d: next(s for s in _steps(d) if "-m pytest" in str(s))[
        "env"].pop("SDL_VIDEODRIVER"), "is not .ci/run's"),
    "no self-test": (lambda d: _without(d, "--self-test"), "no step to self-test"),
    "the .app unchecked": (lambda d: next(s for s in _steps(d) if "--self-test" in str(s))
                           .update(run="dist/dinotable/dinotable --self-test"),
                           "never runs dist/dinotable.app/Contents/MacOS/dinotable"),
    "built before tested": (lambda d: _steps(d).append(_steps(d).pop(
        next(k for k, s in enumerate(_steps(d)) if "-m pytest" in str(s)))), "in order"),
    "no zip kept": (lambda d: _without(d, "upload-artifact"), "keep the zip"),
    "no release": (lambda d: d["jobs"].pop("upload"), "0 jobs attach the zips"),
    "released before built": (lambda d: d["jobs"]["upload"].pop("needs"), "does not wait"),
    "write for all": (lambda d: d.update(permissions={"contents": "write"}),
                      "grants permissions to every job"),
    "write for the build": (lambda d: d["jobs"]["build"].update(
        permissions={"contents": "write"}), "not contents: read"),
    "credentials kept": (lambda d: _steps(d)[0].pop("with"), "checkout keeps its credentials"),
    "unpinned": (lambda d: _steps(d)[1].update(uses="actions/setup-python@v7"),
                 "is not pinned to a commit"),
    "no time limit": (lambda d: d["jobs"]["upload"].pop("timeout-minutes"),
                      "upload: no timeout-minutes"),
    "cmd on Windows": (lambda d: d.pop("defaults"), "is not bash"),
}


@pytest.mark.parametrize("breakage", BREAKAGES)
def test_a_broken_release_workflow_is_caught(breakage: str) -> None:
    doc = copy.deepcopy(load(RELEASE))
    change, expected = BREAKAGES[breakage]
    change(doc)
    problems = release_problems(doc)
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(("change", "expected"), [
    (lambda d: d[True].pop("pull_request"), "not every push and pull request"),
    (lambda d: d[True].update(push={"tags": ["v*"], "branches": ["**"]}), "runs the tests twice"),
    (lambda d: d["jobs"]["test"]["strategy"]["matrix"].update(os=["ubuntu-latest"]),
     "not Linux, Windows, macOS"),
    (lambda d: d["jobs"]["test"]["steps"].append({"run": "python packaging/build.py"}),
     "only a version tag does"),
])
def test_a_broken_tests_workflow_is_caught(change: Callable[[dict[str, Any]], Any],
                                           expected: str) -> None:
    doc = copy.deepcopy(load(TESTS))
    change(doc)
    assert any(expected in p for p in suite_problems(doc)), suite_problems(doc)


BROKEN_SCHEMA = """\
name: broken
on:
  push:
    tag: ["v*"]
jobs:
  build:
    steps:
      - run: echo no runner named
"""

# A textbook injection: a pull request's title pasted into a script, an action by tag, a
# checkout that keeps its token, write access for everything.
BROKEN_SECURITY = """\
name: broken
on:
  pull_request_target:
permissions: write-all
jobs:
  greet:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          ref: ${{ github.event.pull_request.head.sha }}
      - run: echo "${{ github.event.pull_request.title }}"
"""


def test_check_jsonschema_rejects_a_workflow_github_would_refuse(tmp_path: Path) -> None:
    path = tmp_path / "broken.yml"
    path.write_text(BROKEN_SCHEMA, encoding="utf-8")
    done = check_jsonschema(path)
    assert done.returncode != 0
    assert "runs-on" in done.stdout + done.stderr


def test_zizmor_reports_an_unsafe_workflow(tmp_path: Path) -> None:
    path = tmp_path / "broken.yml"
    path.write_text(BROKEN_SECURITY, encoding="utf-8")
    done = zizmor(path)
    assert done.returncode != 0
    out = done.stdout + done.stderr
    for audit in ("template-injection", "unpinned-uses", "artipacked", "dangerous-triggers"):
        assert audit in out, audit
