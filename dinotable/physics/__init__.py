"""The dice tray: pymunk tosses that land on the faces the rules engine chose (no pygame)."""

from .tray import DT, SETTLE_LIMIT, Bump, DiePose, Toss, Tray, bench

__all__ = ["DT", "SETTLE_LIMIT", "Bump", "DiePose", "Toss", "Tray", "bench"]
