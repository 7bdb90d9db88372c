"""Deterministic seeds for bots: derived with hashlib, never from global random state."""

from __future__ import annotations

import hashlib


def seed_for(*parts) -> int:
    """A 64-bit seed from the parts (position key, dice, level, salt, ...)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def position_seed(position, dice, *parts) -> int:
    """Seed for a decision at ``position`` (its key and side on roll) with ``dice``."""
    dice_part = "-".join(str(d) for d in dice) if dice else "preroll"
    return seed_for(position.key(), position.turn, dice_part, *parts)
