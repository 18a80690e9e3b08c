"""The parts of the effect compiler that read what `set` and `add` assign: plain
variables, one value of an indexed variable (`"height[$col]"`), and the checks that a value
fits its variable (a text needs quotes; a number cannot go into a text)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .effects import _unknown
from .errors import ExpressionError
from .expr import compile_expr
from .exprtypes import TYPE_WORDS, expr_type
from .indexed import Keyed

if TYPE_CHECKING:
    from .expr import Compiled, Scope

_BAD = object()  # a parameter that failed its check: the effect is not built
_KEYED = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\[(.+)\]\s*$", re.S)


def _short(raw: Any) -> str:
    """A piece of ruleset as written, shortened for a message (flow-style YAML)."""
    if isinstance(raw, dict):
        text = "{" + ", ".join(f"{k}: {_short(v)}" for k, v in raw.items()) + "}"
    elif isinstance(raw, list):
        text = "[" + ", ".join(_short(v) for v in raw) + "]"
    else:
        text = str(raw)
    return text if len(text) <= 100 else text[:97] + "..."


class Assigning:
    """The effect compiler's methods for `set` and `add` targets and values."""

    if TYPE_CHECKING:
        scope: Scope

        report: Callable[[tuple[Any, ...], str], None]

        def expr(self, raw: Any, path: tuple[Any, ...], scope: Scope | None = None
                 ) -> Compiled | None: ...

    def assignable(self, assigns: list[tuple[str, str, Compiled]], adding: bool,
                   path: tuple[Any, ...]) -> bool:
        """set/add: a value fits its variable (a number into a number, ...); add adds numbers."""
        ok = True
        for _, target, value in assigns:
            var = target.name if isinstance(target, Keyed) else target
            have, var_type = expr_type(value), self.scope.types.get(var, "any")
            vpath = (*path, "add" if adding else "set", str(target))
            if adding and var_type in ("bool", "text", "list"):
                self.report(vpath, f"cannot add to {var!r}: it holds {TYPE_WORDS[var_type]}, "
                                   "not a number")
                ok = False
            elif adding and have in ("text", "list", "bool"):
                self.report(vpath, f"cannot add {TYPE_WORDS[have]} to {var!r}")
                ok = False
            elif not adding and "any" not in (have, var_type) and (
                    (have in ("text", "list")) != (var_type in ("text", "list"))
                    or (have in ("text", "list") and have != var_type)):
                self.report(vpath, f"{var!r} holds {TYPE_WORDS[var_type]}; it cannot be set "
                                   f"to {TYPE_WORDS[have]} ({_short(getattr(value, 'text', ''))})")
                ok = False
        return ok

    def assignments(self, raw: Any, path: tuple[Any, ...]) -> Any:
        if not isinstance(raw, dict) or not raw:
            self.report(path, "expected a mapping of variable: expression")
            return _BAD
        s = self.scope
        out = []
        for var, value in raw.items():
            keyed = _KEYED.match(var) if isinstance(var, str) else None
            if keyed is not None:  # `height[$col]`: one value of an indexed variable
                target = self.keyed_target(keyed.group(1), keyed.group(2), (*path, var))
                if target is None:
                    return _BAD
                var = target
            elif var in s.indexed:
                self.report((*path, var), f"{var!r} holds one value per key: write one value "
                                          f"as {var}[KEY], e.g. \"{var}[$key]\": 1")
                return _BAD
            name = var.name if isinstance(var, Keyed) else var
            if name in s.turn_vars:
                scope = "turn"
            elif name in s.player_vars:
                scope = "player"
            elif name in s.game_vars:
                scope = "game"
            else:
                self.report((*path, var), _unknown(
                    "variable", str(var), sorted(s.turn_vars | s.player_vars | s.game_vars)))
                return _BAD
            if self.unquoted_text(var, value, (*path, var)):
                return _BAD
            compiled = self.expr(value, (*path, var))
            if compiled is None:
                return _BAD
            out.append((scope, var, compiled))
        return out

    def unquoted_text(self, var: str, value: Any, path: tuple[Any, ...]) -> bool:
        """Report a bare word that names nothing set into a text variable (`led: red`): it
        is the text, written without its quotes."""
        if self.scope.types.get(var) != "text" or not isinstance(value, str) or (
                not value.strip().isidentifier()):
            return False
        try:
            compile_expr(value, self.scope)
        except ExpressionError:
            word = value.strip()
            self.report(path, f"{var} is a text variable and {word!r} names nothing an "
                              f"expression knows: a text needs quotes, \"'{word}'\"")
            return True
        return False

    def keyed_target(self, name: str, key: str, path: tuple[Any, ...]) -> Keyed | None:
        """`NAME[KEY]` as the target of set/add: NAME an indexed variable, KEY an expression
        of its keys' type (a key written out must be one of its keys)."""
        s = self.scope
        if name not in s.indexed:
            known = s.turn_vars | s.player_vars | s.game_vars
            self.report(path, f"{name!r} is not a variable declared with `keys`, so it has no "
                              "[KEY]" if name in known else
                        _unknown("indexed variable", name, sorted(s.indexed)))
            return None
        # Read back as an expression, the target gets every check a read gets.
        if self.expr(f"{name}[{key}]", path) is None:
            return None
        compiled = self.expr(key, path)
        if compiled is None:
            return None
        return Keyed(name, compiled, str(path[-1]))  # as written: problems point at it
