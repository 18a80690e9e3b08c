"""Named expressions (`define:`), plain and with parameters (formulas)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..engine.compiler import EffectCompiler
from ..engine.expr import (
    Compiled,
    Scope,
    body_type,
    direct_formula,
)
from ..engine.exprtypes import expr_type
from ..engine.formulas import Formula, make_formula, parse_signature, stand_in
from ..engine.origins import origin_of, register
from .reader import RESERVED, SectionReader


def _article(what: str) -> str:
    return f"an {what}" if what[:1] in "aeiou" else f"a {what}"


def _checker(body: Compiled, scope: Scope, params: list[str]
             ) -> Callable[[tuple[str, ...]], str]:
    """A formula's type check: its body's type with its parameters typed as one call's
    arguments are (a plain number or true/false body has its own type)."""
    text = str(getattr(body, "text", ""))
    if not set(params) & _names_in(text):  # the body's type does not depend on the call
        fixed = expr_type(body)
        return lambda types: fixed
    return lambda types: body_type(text, scope, dict(zip(params, types, strict=True)))


def _names_in(text: Any) -> set[str]:
    """The plain names an expression mentions (none when it does not parse)."""
    if not isinstance(text, str):
        return set()
    try:
        tree = ast.parse(re.sub(r"\$", "__arg_", text.strip()), mode="eval")
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


class DefinesReader(SectionReader):
    """Reads `define:`."""

    def defines(self, raw: Any, scope: Scope, taken: dict[str, str]) -> Scope:
        """`define:` NAME or NAME(PARAMS) -> expression; compiled in dependency order, cycles
        reported. The scope given back knows them all."""
        specs = self.mapping(raw, ("define",), "name: expression")
        names: dict[str, Any] = {}
        keys: dict[str, Any] = {}  # each name's key as written, where its problems are told
        signatures: dict[str, list[str]] = {}
        for key, text in specs.items():
            path = ("define", key)
            sig = parse_signature(key) if isinstance(key, str) else None
            if isinstance(sig, str):
                self.report(path, sig)
                continue
            name = key if sig is None else sig[0]
            if not self.ident(name, path, "name"):
                continue
            if name in taken or name in RESERVED or name in names:
                what = taken.get(name) or RESERVED.get(name) or "named expression"
                self.report(path, f"{name!r} is already the name of {_article(what)}; "
                                  "choose another")
                continue
            names[name], keys[name] = text, key
            if sig is not None:
                signatures[name] = sig[1]
        failed: set[str] = set()
        for name, params in signatures.items():
            for param in params:
                holder = taken.get(param) or RESERVED.get(param) or (
                    "named expression" if param in names else None)
                if holder:
                    self.report(("define", keys[name]), f"the parameter {param!r} is already "
                                f"the name of {_article(holder)}; choose another")
                    failed.add(name)
        deps = {n: _names_in(t) & set(names) - set(signatures.get(n, []))
                for n, t in names.items()}
        done: dict[str, tuple[str, dict[str, Any]]] = {}
        formulas: dict[str, Formula] = {}

        def visit(name: str, trail: list[str]) -> None:
            if name in done or name in formulas or name in failed:
                return
            if name in trail:
                cycle = [*trail[trail.index(name):], name]
                self.report(("define", keys[cycle[0]]), "named expressions refer to each other "
                                                        "in a circle: " + " -> ".join(cycle))
                failed.update(cycle)
                return
            for dep in sorted(deps[name]):
                visit(dep, [*trail, name])
            if name in failed or any(d in failed for d in deps[name]):
                failed.add(name)
                return
            sub = replace(scope, defines=dict(done), formulas=dict(formulas))
            params = signatures.get(name)
            if params is not None:  # its parameters are names in its body, of any type
                sub = replace(sub, params=tuple(params),
                              types={**scope.types, **{p: "any" for p in params}})
            compiled = EffectCompiler(sub, self.report, {}).expr(names[name], ("define",
                                                                              keys[name]))
            if compiled is None:
                failed.add(name)
            elif params is not None:
                direct = direct_formula(compiled, len(params))
                if direct is not None:  # a failure in it names the definition, as the body's
                    register(direct, origin_of(compiled))
                formulas[name] = make_formula(name, params, compiled,
                                              _checker(compiled, sub, params), direct)
            else:
                done[name] = (str(getattr(compiled, "source", "")),
                              dict(getattr(compiled, "namespace", {})))

        for name in names:
            visit(name, [])
        # A broken definition is reported once: its uses compile against a stand-in.
        done.update((name, ("None", {})) for name in failed if name not in signatures)
        formulas.update((name, stand_in(name, signatures[name])) for name in failed
                        if name in signatures)
        return replace(scope, defines=done, formulas=formulas)
