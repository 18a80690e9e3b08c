"""The app icon, drawn in code at build time: a green Dino Hunt Dice die showing its dinosaur.

The die comes from the table's own renderer (`dinotable.render.dice.die_body`), so the icon
is the die players throw. `write_icons(folder)` writes icon.png (256 px), icon.ico (Windows:
PNG entries from 16 to 256 px) and icon.icns (macOS: PNG entries from 16 to 1024 px). Both
containers are written by hand, so the build needs nothing beyond pygame.

    python3 packaging/icon.py [FOLDER]      # default: packaging/build/icon
"""

from __future__ import annotations

import io
import os
import struct
import sys

GREEN = (63, 158, 77)  # the green die of rulesets/dino_hunt_dice (layout.dice_colours.green)
FACE = "dino"  # the long-necked Apatosaurus, the face the green die shows most

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# (OSType, pixels): PNG payloads are accepted for every one of these since macOS 10.7
ICNS_TYPES = (("icp4", 16), ("icp5", 32), ("icp6", 64), ("ic07", 128), ("ic08", 256),
              ("ic09", 512), ("ic10", 1024))


def _root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def icon_png(size: int) -> bytes:
    """The icon as PNG bytes, `size` x `size` px, transparent corners."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if _root() not in sys.path:
        sys.path.insert(0, _root())
    import pygame

    from dinotable.render.dice import die_body

    surface = die_body(GREEN, FACE, size)
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "icon.png")
    return buffer.getvalue()


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding one PNG image per size (Vista and later read PNG entries)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, data = b"", b""
    for size in sizes:
        png = pngs[size]
        side = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        data += png
        offset += len(png)
    return header + entries + data


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns holding PNG images (big-endian type + length chunks)."""
    body = b""
    for ostype, size in ICNS_TYPES:
        png = pngs[size]
        body += ostype.encode("ascii") + struct.pack(">I", 8 + len(png)) + png
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def write_icons(folder: str) -> dict[str, str]:
    """Write icon.png, icon.ico and icon.icns into `folder`; returns their paths by suffix."""
    os.makedirs(folder, exist_ok=True)
    sizes = sorted({*ICO_SIZES, *(size for _, size in ICNS_TYPES)})
    pngs = {size: icon_png(size) for size in sizes}
    out = {
        "png": os.path.join(folder, "icon.png"),
        "ico": os.path.join(folder, "icon.ico"),
        "icns": os.path.join(folder, "icon.icns"),
    }
    contents = {"png": pngs[256], "ico": ico_bytes({s: pngs[s] for s in ICO_SIZES}),
                "icns": icns_bytes(pngs)}
    for kind, path in out.items():
        with open(path, "wb") as f:
            f.write(contents[kind])
    return out


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else os.path.join(_root(), "packaging", "build",
                                                                "icon")
    for written in write_icons(target).values():
        print(written)
