"""Build the standalone app with PyInstaller, then zip it for carrying to game night.

    python3 -m pip install ".[package]" && python3 packaging/build.py

makes dist/dinotable/ (run dist/dinotable/dinotable, or dinotable.exe on Windows) and
dist/dinotable-<version>-<platform>.zip holding it (on macOS the zip holds dinotable.app).
Options: --onefile (one executable instead of a folder; also DINOTABLE_ONEFILE=1),
--distpath/--workpath (default dist/ and build/ in the checkout), --no-zip, --verbose.
Plain Python and os.path only: the same script runs on Linux, Windows and macOS.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import re
import stat
import subprocess
import sys
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "packaging", "dinotable.spec")
NAME = "dinotable"


def version() -> str:
    """dinotable's version, read from the package without importing it."""
    with open(os.path.join(ROOT, "dinotable", "__init__.py"), encoding="utf-8") as f:
        found = re.search(r'^__version__ = "([^"]+)"', f.read(), re.MULTILINE)
    if not found:
        raise SystemExit("build: no __version__ in dinotable/__init__.py")
    return found.group(1)


def platform_tag() -> str:
    """linux-x86_64, windows-amd64, macos-arm64 and so on."""
    system = {"darwin": "macos", "win32": "windows"}.get(sys.platform, platform.system().lower())
    return f"{system}-{platform.machine().lower() or 'unknown'}"


def zip_name(distpath: str) -> str:
    """Where the zip of the app goes."""
    return os.path.join(distpath, f"{NAME}-{version()}-{platform_tag()}.zip")


def executable(distpath: str, onefile: bool = False) -> str:
    """The built app's executable."""
    exe = NAME + (".exe" if sys.platform == "win32" else "")
    return os.path.join(distpath, exe) if onefile else os.path.join(distpath, NAME, exe)


def folder_bytes(path: str) -> int:
    """Bytes in the files under path (links not followed), or of path if it is a file."""
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for here, _dirs, files in os.walk(path):
        for name in files:
            full = os.path.join(here, name)
            if not os.path.islink(full):
                total += os.path.getsize(full)
    return total


def zip_app(source: str, target: str) -> None:
    """Zip a folder (or one file) so it unpacks to its own name; links stay links."""
    parent = os.path.dirname(os.path.abspath(source))
    tmp = target + ".part"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        entries = [source]
        for here, dirs, files in os.walk(source):
            dirs.sort()
            entries.extend(os.path.join(here, n) for n in sorted(dirs + files))
        for path in entries:
            arcname = os.path.relpath(path, parent).replace(os.sep, "/")
            if os.path.islink(path):
                info = zipfile.ZipInfo(arcname)
                info.create_system = 3  # unix: the mode bits below mean a symbolic link
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
                archive.writestr(info, os.readlink(path))
            elif os.path.isdir(path):
                archive.write(path, arcname + "/")
            else:
                archive.write(path, arcname)  # keeps the executable bit
    os.replace(tmp, target)


def build(distpath: str, workpath: str, onefile: bool = False, verbose: bool = False) -> float:
    """Run PyInstaller on the spec; returns the seconds it took."""
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1",
               DINOTABLE_ONEFILE="1" if onefile else "0")
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--distpath", distpath,
               "--workpath", workpath, "--log-level", "INFO" if verbose else "WARN", SPEC]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"build: PyInstaller failed (exit {done.returncode})")
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """The build command."""
    parser = argparse.ArgumentParser(prog="packaging/build.py", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--onefile", action="store_true",
                        default=os.environ.get("DINOTABLE_ONEFILE", "") not in ("", "0"),
                        help="one executable file instead of a folder")
    parser.add_argument("--distpath", default=os.path.join(ROOT, "dist"))
    parser.add_argument("--workpath", default=os.path.join(ROOT, "build"))
    parser.add_argument("--no-zip", action="store_true", help="skip the zip")
    parser.add_argument("--verbose", action="store_true", help="PyInstaller's full log")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("PyInstaller") is None:
        print('build: PyInstaller is not installed; run: python3 -m pip install ".[package]"',
              file=sys.stderr)
        return 2
    distpath, workpath = os.path.abspath(args.distpath), os.path.abspath(args.workpath)
    seconds = build(distpath, workpath, args.onefile, args.verbose)
    app = executable(distpath, args.onefile)
    print(f"built {app} in {seconds:.0f} s")
    unpacked = app if args.onefile else os.path.dirname(app)
    print(f"  {'executable' if args.onefile else 'unpacked folder'}: "
          f"{folder_bytes(unpacked) / 1e6:.1f} MB")
    if not args.no_zip:
        bundle = os.path.join(distpath, NAME + ".app")
        source = bundle if sys.platform == "darwin" and os.path.isdir(bundle) else unpacked
        target = zip_name(distpath)
        zip_app(source, target)
        print(f"  zip: {target} {os.path.getsize(target) / 1e6:.1f} MB")
    print(f"  check it: {app} --self-test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
