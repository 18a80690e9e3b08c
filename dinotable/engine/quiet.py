"""The quiet form of a generated function: for play that nobody watches and nothing forces.

Generated effect code carries two kinds of branch that a bot's playout never takes: the
events a watching table reads (`if c.events is not None: ...`) and the forced outcomes of
scenarios and tests (`if _ch.forced: ...`). The quiet form is the same function with both
known to be off: the tests become constants, folded away on the syntax tree, so that the
inner loop of simulations runs only what changes the game. Line numbers are kept, so a
failure in the quiet form names the same ruleset line as in the watched one.
"""

from __future__ import annotations

import ast
from typing import Any


def _is_events(node: ast.AST) -> bool:
    """`c.events`"""
    return (isinstance(node, ast.Attribute) and node.attr == "events"
            and isinstance(node.value, ast.Name) and node.value.id == "c")


def _is_forced(node: ast.AST) -> bool:
    """`_ch.forced` or `st.chance.forced`."""
    if not (isinstance(node, ast.Attribute) and node.attr == "forced"
            and isinstance(node.ctx, ast.Load)):
        return False
    owner = node.value
    return ((isinstance(owner, ast.Name) and owner.id == "_ch")
            or (isinstance(owner, ast.Attribute) and owner.attr == "chance"
                and isinstance(owner.value, ast.Name) and owner.value.id == "st"))


def _const(node: ast.AST) -> Any:
    """The node's value when it is a constant, else the sentinel `_UNKNOWN`."""
    return node.value if isinstance(node, ast.Constant) else _UNKNOWN


_UNKNOWN = object()


class _Fold(ast.NodeTransformer):
    """Replaces the watched and forced tests by constants and drops the branches they rule out."""

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if (len(node.ops) == 1 and _is_events(node.left)
                and isinstance(node.comparators[0], ast.Constant)
                and node.comparators[0].value is None):
            if isinstance(node.ops[0], ast.Is):
                return ast.copy_location(ast.Constant(True), node)
            if isinstance(node.ops[0], ast.IsNot):
                return ast.copy_location(ast.Constant(False), node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if _is_forced(node):
            return ast.copy_location(ast.Constant(False), node)
        self.generic_visit(node)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        value = _const(node.operand)
        if isinstance(node.op, ast.Not) and value is not _UNKNOWN:
            return ast.copy_location(ast.Constant(not value), node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        # `and` stops at the first false operand, `or` at the first true one.
        stop = not isinstance(node.op, ast.And)
        kept: list[ast.expr] = []
        for operand in node.values:
            value = _const(operand)
            if value is _UNKNOWN:
                kept.append(operand)
            elif bool(value) is stop:
                if not kept:
                    return ast.copy_location(ast.Constant(stop), node)
                kept.append(operand)
                break
            # an operand that cannot stop the chain is left out
        if not kept:
            return ast.copy_location(ast.Constant(not stop), node)
        if len(kept) == 1:
            return kept[0]
        node.values = kept
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        value = _const(node.test)
        if value is _UNKNOWN:
            return node
        return node.body if value else node.orelse

    def visit_If(self, node: ast.If) -> Any:
        self.generic_visit(node)
        value = _const(node.test)
        if value is _UNKNOWN:
            if not node.body:
                node.body = [ast.copy_location(ast.Pass(), node)]
            return node
        kept = node.body if value else node.orelse
        return kept or ast.copy_location(ast.Pass(), node)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        # A block whose every statement was folded away still needs one.
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if (isinstance(block, list) and not block and field == "body"
                    and isinstance(node, (ast.For, ast.While, ast.With, ast.FunctionDef))):
                block.append(ast.copy_location(ast.Pass(), node))
        return node


def quiet_source(source: str) -> ast.Module:
    """The syntax tree of `source` with the watched and forced branches folded away."""
    tree = ast.parse(source)
    _Fold().visit(tree)  # the module node itself is never replaced, only what it holds
    return ast.fix_missing_locations(tree)
