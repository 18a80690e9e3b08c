"""The table's audit: seeded whole games played through the real table scene, every frame
checked against the engine's view (numbers, privacy, keys, layers, text, shapes).
`tools/audit_table.py` runs it."""

from .frame import Frame, Recorder
from .games import WINDOWS, Audit, Case, Report, audit, cases

__all__ = ["WINDOWS", "Audit", "Case", "Frame", "Recorder", "Report", "audit", "cases"]
