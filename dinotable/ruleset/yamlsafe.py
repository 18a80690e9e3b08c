"""Safe YAML loading that remembers where every value came from.

Only PyYAML's safe loader composes the document; we then build plain Python
values ourselves so that every node's line and column is known, aliases are
expanded within a budget, and any tag beyond the plain YAML types is refused.
"""

from __future__ import annotations

from pathlib import Path as FsPath
from typing import Any

import yaml

from .. import bounded
from .problems import LoadError, Path, Problem

_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_BYTES = 1024 * 1024
MAX_NODES = 200_000
MAX_DEPTH = bounded.MAX_DEPTH

_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_PLAIN_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
}


def load_file(path: FsPath | str, display: str | None = None
              ) -> tuple[Any, dict[Path, tuple[int, int]]]:
    """Read a YAML file safely; return its data and a map from data path to (line, col).

    Only a regular file is read (not a device, a pipe or a folder), and at most MAX_BYTES
    of it: see bounded.py."""
    name = display or str(path)
    try:
        text = bounded.read_text(path, MAX_BYTES, "a YAML file")
    except bounded.Refused as exc:
        raise LoadError([Problem(name, exc.line, exc.col, "(file)", exc.message)]) from None
    return load_text(text, name)


def load_text(text: str, name: str = "<text>", max_depth: int = MAX_DEPTH,
              max_digits: int | None = None) -> tuple[Any, dict[Path, tuple[int, int]]]:
    """Parse YAML text safely (see module doc): nesting past `max_depth` (and, when given,
    numbers of more than `max_digits` characters) are refused at their line before values
    are built. Without `max_digits` a number longer than bounded.MAX_DIGITS is reported at
    its entry."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise LoadError([Problem(name, 1, 1, "(file)", f"more than {MAX_BYTES} bytes")])
    try:
        bounded.prescan(text, max_depth, max_digits)
    except bounded.Refused as exc:
        raise LoadError([Problem(name, exc.line, exc.col, "(file)", exc.message)]) from None
    # libyaml's parser when PyYAML was built with it: the same safe loader, several times
    # faster; the pure-Python one otherwise.
    loader = _LOADER(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.YAMLError:
            if _LOADER is yaml.SafeLoader:
                raise
            # The pure-Python parser words its errors better ("but got ':'"): on the
            # error path only, ask it again.
            loader.dispose()
            loader = yaml.SafeLoader(text)
            node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or exc.context or "not valid YAML"
        raise LoadError([Problem(name, line, col, "(yaml)", f"not valid YAML: {what}")]) from None
    except yaml.reader.ReaderError as exc:
        # A character YAML refuses (a NUL, a control code): say where it is, on one line.
        before = text[:exc.position]
        line, col = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character[:1] or " ")
        raise LoadError([Problem(name, line, col, "(yaml)", f"not valid YAML: character "
                                 f"U+{code:04X} is not allowed")]) from None
    except yaml.YAMLError as exc:
        raise LoadError([Problem(name, 1, 1, "(yaml)", f"not valid YAML: {exc}")]) from None
    finally:
        loader.dispose()
    builder = _Builder(name, loader)
    data = None if node is None else builder.build(node, (), 0)
    if builder.problems:
        raise LoadError(builder.problems)
    return data, builder.marks


class _Builder:
    def __init__(self, name: str, loader: Any) -> None:
        self.name = name
        self.loader = loader
        self.marks: dict[Path, tuple[int, int]] = {}
        self.problems: list[Problem] = []
        self.nodes = 0

    def fail(self, node: yaml.Node, path: Path, message: str) -> None:
        from .problems import format_path

        self.problems.append(Problem(self.name, node.start_mark.line + 1,
                                     node.start_mark.column + 1, format_path(path), message))

    def build(self, node: yaml.Node, path: Path, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            if self.nodes == MAX_NODES + 1:
                self.fail(node, path, f"more than {MAX_NODES} values once aliases are expanded")
            return None
        if depth > MAX_DEPTH:
            self.fail(node, path, f"nested deeper than {MAX_DEPTH} levels")
            return None
        self.marks.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.ScalarNode):
            if node.tag not in _PLAIN_TAGS:
                self.fail(node, path, f"tag {node.tag!r} is not allowed; only plain YAML values")
                return None
            return self.scalar(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != "tag:yaml.org,2002:seq":
                self.fail(node, path, f"tag {node.tag!r} is not allowed")
                return None
            return [self.build(child, (*path, i), depth + 1) for i, child in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            if node.tag != "tag:yaml.org,2002:map":
                self.fail(node, path, f"tag {node.tag!r} is not allowed")
                return None
            out: dict[Any, Any] = {}
            for knode, vnode in node.value:
                if knode.tag == "tag:yaml.org,2002:merge":
                    self.fail(knode, path, "merge keys (<<) are not supported; write the "
                                           "values out")
                    continue
                if not isinstance(knode, yaml.ScalarNode) or knode.tag not in _PLAIN_TAGS:
                    self.fail(knode, path, "a key must be a plain value")
                    continue
                key = self.scalar(knode, path)
                if key in out:
                    self.fail(knode, (*path, key), f"key {key!r} appears twice")
                    continue
                self.marks.setdefault((*path, key), (knode.start_mark.line + 1,
                                                     knode.start_mark.column + 1))
                out[key] = self.build(vnode, (*path, key), depth + 1)
            return out
        self.fail(node, path, "unexpected YAML node")
        return None

    def scalar(self, node: yaml.ScalarNode, path: Path) -> Any:
        """A plain value; a number too long for any rule is a problem, not a crash."""
        if (len(node.value) > bounded.MAX_DIGITS and not node.style
                and node.tag in _NUMBER_TAGS):
            self.fail(node, path, f"number too large ({len(node.value)} characters)")
            return None
        try:
            return self.loader.construct_object(node, deep=True)
        except ValueError:
            # Python refuses to convert integers of more than 4,300 digits (and PyYAML's
            # sexagesimal or float forms can fail the same way): say so at the value.
            self.fail(node, path, f"number too large ({len(str(node.value))} characters)")
            return None
