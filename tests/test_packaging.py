"""The standalone app: the self-test, where files live when frozen, the icon, the build and zip.

The test marked `packaging` builds the real executable with PyInstaller into a temporary
folder (the checkout stays clean) and runs it; it is skipped when PyInstaller is missing.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
import struct
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from helpers import load_module

from dinotable import __version__, paths, settings
from dinotable.bench import measure_executable

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
MAX_UNPACKED_MB = 80
MAX_ZIP_MB = 35
# What a host downloads for Linux (packaging/README.md says what is left out to fit, and
# what hands on phones' server adds: 14.5 MB).
MAX_LINUX_ZIP_MB = 15


def _load(name: str) -> ModuleType:
    return load_module(PACKAGING / f"{name}.py", f"packaging_{name}")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment a player would have: no SDL driver chosen, user data in tmp."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SDL_", "DINOTABLE_", "PYTEST"))}
    env["DINOTABLE_HOME"] = str(tmp_path / "home")
    env.update(extra)
    return env


def _self_test(argv: list[str], tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    cwd = tmp_path / "cwd"
    cwd.mkdir(exist_ok=True)
    return subprocess.run([*argv, "--self-test"], env=_env(tmp_path, **extra), cwd=cwd,
                          capture_output=True, text=True, timeout=300)


# --- the self-test, from source ----------------------------------------------------------


def test_the_self_test_checks_every_ruleset_scenario_and_scene_and_exits_0(
        tmp_path: Path) -> None:
    # No SDL_VIDEODRIVER in the environment: the self-test chooses the dummy drivers itself.
    done = _self_test([sys.executable, "-m", "dinotable"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "(from source" in out
    assert "ok   ruleset dino_hunt_dice" in out
    assert "ok   scenario dino_hunt_dice: " in out
    for scene in ("title", "setup (dino_hunt_dice)", "table (dino_hunt_dice)",
                  "rules (dino_hunt_dice)", "results (dino_hunt_dice)", "handoff", "pause"):
        assert f"ok   scene {scene}" in out, scene
    assert "bots made" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("self-test: ") and last.endswith(" passed, 0 failed"), last
    assert "FAIL" not in out
    # It writes nothing: no user data, nothing in the working directory.
    assert not (tmp_path / "home").exists()
    assert not any((tmp_path / "cwd").iterdir())


def test_a_broken_ruleset_fails_the_self_test_by_name_with_exit_1(tmp_path: Path) -> None:
    shipped = tmp_path / "rulesets"
    shutil.copytree(paths.rulesets_dir() / "dino_hunt_dice", shipped / "dino_hunt_dice")
    broken = shipped / "broken_game"
    broken.mkdir()
    (broken / "rules.yaml").write_text("id: broken_game\nname: Broken\nplayers: {min: 2}\n",
                                       encoding="utf-8")
    done = _self_test([sys.executable, "-m", "dinotable"], tmp_path,
                      DINOTABLE_RULESETS=str(shipped))
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "FAIL ruleset broken_game: " in out
    assert "rules.yaml:" in out  # the problem, with its file, line and column
    assert "ok   ruleset dino_hunt_dice" in out
    assert "ok   scene table (dino_hunt_dice)" in out  # the good game is still checked
    lines = out.strip().splitlines()
    assert lines[-2] == "failed: ruleset broken_game"
    assert lines[-1].endswith(" passed, 1 failed")


def test_a_self_test_with_no_rulesets_fails(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from io import StringIO

    from dinotable.selftest import run_self_test

    monkeypatch.setenv("DINOTABLE_RULESETS", str(tmp_path / "no such folder"))
    out = StringIO()
    assert run_self_test(out) == 1
    assert "FAIL rulesets: no rulesets found in" in out.getvalue()
    assert "FAIL scenarios: no scenarios found" in out.getvalue()


def test_version_names_the_package_version() -> None:
    done = subprocess.run([sys.executable, "-m", "dinotable", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.strip() == f"dinotable {__version__}"


# --- where files live ---------------------------------------------------------------------


def test_a_frozen_app_finds_rulesets_and_assets_in_its_unpack_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DINOTABLE_RULESETS", raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert paths.rulesets_dir() == tmp_path / "rulesets"
    assert paths.assets_dir() == tmp_path / "assets"


def test_user_data_goes_to_the_platform_folder_never_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DINOTABLE_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    monkeypatch.setenv("APPDATA", "relative\\data")
    monkeypatch.chdir(tmp_path)
    folder = paths.user_data_dir()
    assert folder.is_absolute() and folder.name == "dinotable"
    assert tmp_path not in folder.parents
    assert settings.user_data_dir is paths.user_data_dir
    monkeypatch.setenv("DINOTABLE_HOME", str(tmp_path / "home"))
    assert paths.user_data_dir() == tmp_path / "home"


# --- the icon and the zip -----------------------------------------------------------------


def test_the_icon_is_a_green_die_in_png_ico_and_icns(tmp_path: Path) -> None:
    import pygame

    written = _load("icon").write_icons(str(tmp_path))
    png = Path(written["png"]).read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = pygame.image.load(written["png"])
    assert image.get_size() == (256, 256)
    r, g, b, _ = image.get_at((128, 40))  # the die's face above the dinosaur
    assert g > r and g > b
    ico = Path(written["ico"]).read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind, count) == (0, 1, 7)
    icns = Path(written["icns"]).read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)


def test_the_zip_is_named_for_version_and_platform_and_keeps_links_and_modes(
        tmp_path: Path) -> None:
    build = _load("build")
    name = Path(build.zip_name(str(tmp_path))).name
    assert name.startswith(f"dinotable-{__version__}-") and name.endswith(".zip")
    assert build.platform_tag() in name
    app = tmp_path / "dinotable"
    (app / "_internal").mkdir(parents=True)
    exe = app / "dinotable"
    exe.write_bytes(b"#!/bin/sh\n")
    exe.chmod(0o755)
    (app / "_internal" / "lib.so.1").write_bytes(b"library")
    if sys.platform != "win32":
        os.symlink("lib.so.1", app / "_internal" / "lib.so")
    target = tmp_path / name
    build.zip_app(str(app), str(target))
    with zipfile.ZipFile(target) as archive:
        infos = {i.filename: i for i in archive.infolist()}
        assert "dinotable/dinotable" in infos and "dinotable/_internal/lib.so.1" in infos
        if sys.platform != "win32":
            assert (infos["dinotable/dinotable"].external_attr >> 16) & stat.S_IXUSR
            link = infos["dinotable/_internal/lib.so"]
            assert stat.S_ISLNK(link.external_attr >> 16)
            assert archive.read(link) == b"lib.so.1"


# --- what the build leaves out still is not needed ----------------------------------------

IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"II*\x00", b"MM\x00*", b"RIFF")


def test_no_shipped_file_is_an_image_pygame_could_only_read_with_its_codecs() -> None:
    # The standalone app leaves out pygame.imageext (SDL_image, libjpeg, libtiff, libwebp):
    # pygame.image then reads BMP only. A PNG or JPEG in assets/ or a ruleset needs them back
    # in packaging/dinotable.spec.
    found = []
    for folder in (ROOT / "assets", ROOT / "rulesets"):
        for path in folder.rglob("*"):
            if path.is_file():
                with path.open("rb") as f:
                    head = f.read(12)
                if head.startswith(IMAGE_MAGIC) or path.suffix.lower() in (
                        ".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".svg"):
                    found.append(str(path.relative_to(ROOT)))
    assert not found, f"images the standalone app could not load: {found}"


class _NoMixer:
    """pygame.mixer when pygame could not load it: every use raises, as pygame's stand-in
    does."""

    def __getattr__(self, name: str) -> object:
        raise NotImplementedError("mixer module not available (ImportError: libstdc++.so.6)")


def test_without_pygames_mixer_the_table_is_quiet_and_the_self_test_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    from dinotable import selftest
    from dinotable.audio import Sounds

    monkeypatch.setattr(pygame, "mixer", _NoMixer())
    sounds = Sounds(silent_device=True)
    sounds.prepare()  # no crash on the first frame
    assert not sounds.available and sounds.play("clatter") is False
    checks = selftest._Checks(io.StringIO())
    assert checks.run("sounds", selftest._check_sounds) is False
    assert checks.out.getvalue().startswith("FAIL sounds: NotImplementedError: mixer module")


def test_bench_reports_null_executable_figures_until_the_app_is_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DINOTABLE_DIST", str(tmp_path))
    assert measure_executable(quick=True) == {"exe_first_frame_s": None,
                                              "exe_unpacked_mb": None, "exe_zip_mb": None}


# --- the real build -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Build the one-folder app and its zip with packaging/build.py into a tmp folder."""
    pytest.importorskip("PyInstaller", reason="PyInstaller is not installed: "
                                              "python3 -m pip install \".[package]\"")
    out = tmp_path_factory.mktemp("build")
    before = {p.name for p in ROOT.iterdir()}
    env = {k: v for k, v in os.environ.items() if k != "DINOTABLE_ONEFILE"}
    done = subprocess.run([sys.executable, str(PACKAGING / "build.py"), "--distpath",
                           str(out / "dist"), "--workpath", str(out / "work")],
                          env=env, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert {p.name for p in ROOT.iterdir()} <= before  # no build/ or dist/ in the checkout
    yield out / "dist"


def _exe(dist: Path) -> Path:
    return dist / "dinotable" / ("dinotable.exe" if sys.platform == "win32" else "dinotable")


@pytest.mark.packaging
def test_the_built_app_passes_its_self_test(built: Path, tmp_path: Path) -> None:
    done = _self_test([str(_exe(built))], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(frozen" in done.stdout
    assert "ok   ruleset dino_hunt_dice" in done.stdout
    assert "ok   scene table (dino_hunt_dice)" in done.stdout
    assert done.stdout.strip().splitlines()[-1].endswith(" passed, 0 failed")
    assert not any((tmp_path / "cwd").iterdir())


@pytest.mark.packaging
def test_the_built_app_draws_a_frame_and_knows_its_version(built: Path, tmp_path: Path) -> None:
    env = _env(tmp_path, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([str(_exe(built)), "--frames", "1"], env=env, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run([str(_exe(built)), "--version"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.strip() == f"dinotable {__version__}"


@pytest.mark.packaging
def test_the_built_app_fits_on_a_stick(built: Path) -> None:
    build = _load("build")
    unpacked_mb = build.folder_bytes(str(built / "dinotable")) / 1e6
    zipped = Path(build.zip_name(str(built)))
    assert zipped.is_file()
    zip_mb = zipped.stat().st_size / 1e6
    assert unpacked_mb <= MAX_UNPACKED_MB, f"unpacked {unpacked_mb:.1f} MB"
    assert zip_mb <= MAX_ZIP_MB, f"zip {zip_mb:.1f} MB"
    if sys.platform.startswith("linux"):
        assert zip_mb <= MAX_LINUX_ZIP_MB, f"Linux zip {zip_mb:.1f} MB"
    data = built / "dinotable" / "_internal"
    assert (data / "rulesets" / "dino_hunt_dice" / "rules.yaml").is_file()
    assert (data / "assets" / "fonts").is_dir()


@pytest.mark.packaging
def test_the_built_app_plays_its_sounds(built: Path, tmp_path: Path) -> None:
    # SDL's "disk" driver writes what the app plays to a file: the dice a bot rolls clatter.
    out = tmp_path / "sound.raw"
    env = _env(tmp_path, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="disk",
               SDL_DISKAUDIOFILE=str(out))
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "settings.json").write_text('{"bot_speed": "fast"}', encoding="utf-8")
    # The first roll sounds about a second into the audio; 600 frames write three or more.
    done = subprocess.run([str(_exe(built)), "play", "dino_hunt_dice", "--bots",
                           "heuristic,heuristic", "--seed", "2", "--frames", "600"], env=env,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    samples = out.read_bytes()
    assert samples.strip(b"\x00"), "the app played nothing"


@pytest.mark.packaging
def test_the_built_app_plays_games_on_worker_processes(built: Path, tmp_path: Path) -> None:
    env = _env(tmp_path)
    args = ["simulate", "dino_hunt_dice", "--games", "12", "--bots", "heuristic", "--json"]
    one = subprocess.run([str(_exe(built)), *args], env=env, capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    two = subprocess.run([str(_exe(built)), *args, "--jobs", "2"], env=env,
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert one.returncode == 0 and two.returncode == 0, two.stdout + two.stderr
    timing = ("seconds", "games_per_second", "actions_per_second")
    summaries = [{k: v for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()
                  if k not in timing} for done in (one, two)]
    assert summaries[0] == summaries[1]


@pytest.mark.packaging
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux locale")
def test_the_built_app_starts_under_a_legacy_locale(built: Path, tmp_path: Path) -> None:
    # The Linux build has no CJK codecs and runs in Python's UTF-8 mode: a machine still set
    # to an EUC-JP locale starts it all the same.
    listed = subprocess.run(["locale", "-a"], capture_output=True, text=True, check=False)
    legacy = next((name for name in listed.stdout.split()
                   if name.lower().endswith((".eucjp", ".euckr", ".gb2312", ".big5"))), None)
    if legacy is None:
        pytest.skip("no legacy CJK locale installed (localedef -i ja_JP -f EUC-JP ja_JP.eucJP)")
    env = _env(tmp_path, LANG=legacy, LC_ALL=legacy, SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    done = subprocess.run([str(_exe(built)), "--frames", "2"], env=env, capture_output=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
