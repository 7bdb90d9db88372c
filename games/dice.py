"""Provably fair dice.

Every game gets a secret *server seed* (32 bytes from the operating system's
CSPRNG via :mod:`secrets`).  When the game starts only the *commitment* is
published; when the game is over the seed itself is revealed, and anyone can
check that (a) the seed matches the commitment and (b) every recorded roll is
the one the seed dictates.  Because the commitment was fixed before the first
roll, the server cannot pick a seed after seeing how the game goes, and because
each roll is a pure function of (seed, counter), it cannot re-roll either.

Derivation (everything an independent verifier needs)
------------------------------------------------------

* ``seed``        -- 32 bytes, written as 64 lowercase hex characters.
* ``commitment``  -- ``SHA-256(seed bytes)`` as lowercase hex (64 chars).  Note:
  the hash is over the 32 raw bytes, not over the hex text.
* Rolls are numbered by a ``counter`` = 0, 1, 2, ...  Every die-throwing event
  of the game consumes exactly one counter value, in order: a normal roll
  (two dice) *and* a single die (e.g. each player's die in the opening roll).
* To get the die faces for roll number ``counter``:

  1. For ``block`` = 0, 1, 2, ... compute::

         digest = HMAC-SHA256(key = seed bytes,
                              msg = ASCII(decimal counter) + b":" + ASCII(decimal block))

     e.g. counter 12, block 0 -> message ``b"12:0"`` (no padding, no spaces).
  2. Walk the 32 digest bytes in order.  A byte ``b >= 252`` is discarded
     (rejection sampling: 252 = 6 * 42, so the accepted bytes 0..251 map onto
     the six faces exactly 42 times each -- no modulo bias).  Otherwise the
     next face is ``b % 6 + 1``.
  3. Stop when enough faces have been produced; if a digest runs out first,
     continue with the next block.

  A normal roll is the first two faces ``(d1, d2)`` in that order; a single
  die is the first face.  (Needing block 1 would take 31 rejections out of 32
  bytes for a roll, so in practice only block 0 is ever used, but a verifier
  must implement the rule above to be exact.)

Reference verifier in a few lines of Python::

    import hashlib, hmac
    def faces(seed_hex, counter, n):
        key, out, block = bytes.fromhex(seed_hex), [], 0
        while len(out) < n:
            msg = f"{counter}:{block}".encode("ascii")
            for b in hmac.new(key, msg, hashlib.sha256).digest():
                if b < 252:
                    out.append(b % 6 + 1)
                    if len(out) == n:
                        break
            block += 1
        return tuple(out)

Worked example (checked by the test-suite)::

    seed       = 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
    commitment = 630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd

    counter 0: HMAC(seed, b"0:0") = 2d664c31ff27713cee9962dc21b2f913
                                    4616408329dd3460ed2f5d9e8d2cf1c9
               bytes 0x2d=45  -> 45 % 6 + 1 = 4,  0x66=102 -> 102 % 6 + 1 = 1
               roll (4, 1)
    counter 1: HMAC(seed, b"1:0") = 7bb5573220a3490bb421ad2614d845e4
                                    a35c019b4c4076638a5af62580a9d729
               bytes 0x7b=123 -> 4,  0xb5=181 -> 2
               roll (4, 2)
    counter 2: HMAC(seed, b"2:0") = 82514f5810a56f2461b818f73eb3f762
                                    7f641265d2e2f9b5e6ca799ffaa1fd38
               bytes 0x82=130 -> 5,  0x51=81 -> 4
               roll (5, 4)

    A rejection, same seed (22 is the first counter where one of the bytes
    needed for a roll is >= 252):
    counter 22: HMAC(seed, b"22:0") = febb2a14999cb5d3d0243d2690d75e0a
                                      915370c926ec8c64b3172e6babafc3fc
               0xfe=254 >= 252 -> rejected,  0xbb=187 -> 2,  0x2a=42 -> 1
               roll (2, 1)   (without rejection it would wrongly be (3, 2))

This module is standard-library only (no Django) and never uses :mod:`random`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Iterable, Protocol, Sequence

__all__ = [
    "SEED_BYTES",
    "REJECT_THRESHOLD",
    "new_server_seed",
    "commitment",
    "roll_die_values",
    "derive_roll",
    "verify_rolls",
    "DiceSource",
    "SeededDice",
    "ScriptedDice",
    "ScriptedDiceError",
]

SEED_BYTES = 32
#: Digest bytes >= this value are rejected (252 = 6 * 42).
REJECT_THRESHOLD = 252

_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


# --------------------------------------------------------------------------
# Seeds and commitments
# --------------------------------------------------------------------------

def new_server_seed() -> str:
    """Return a fresh server seed: 32 CSPRNG bytes as 64 lowercase hex chars."""
    return secrets.token_bytes(SEED_BYTES).hex()


def _seed_bytes(seed_hex: str) -> bytes:
    """Validate a seed's hex text and return its 32 raw bytes."""
    if not isinstance(seed_hex, str):
        raise TypeError(f"seed must be a hex string, not {type(seed_hex).__name__}")
    if len(seed_hex) != 2 * SEED_BYTES or not _HEX_DIGITS.issuperset(seed_hex):
        raise ValueError(
            f"seed must be exactly {2 * SEED_BYTES} hexadecimal characters"
        )
    return bytes.fromhex(seed_hex)


def commitment(seed_hex: str) -> str:
    """SHA-256 hex digest of the seed's raw bytes (published at game start)."""
    return hashlib.sha256(_seed_bytes(seed_hex)).hexdigest()


# --------------------------------------------------------------------------
# Derivation
# --------------------------------------------------------------------------

def _check_counter(counter: int) -> None:
    if isinstance(counter, bool) or not isinstance(counter, int):
        raise TypeError(f"counter must be an int, not {type(counter).__name__}")
    if counter < 0:
        raise ValueError("counter must be >= 0")


def _faces(key: bytes, counter: int, n: int) -> tuple[int, ...]:
    """Core of the derivation; ``key`` is the raw seed, inputs pre-validated."""
    out: list[int] = []
    block = 0
    prefix = f"{counter}:".encode("ascii")
    while True:
        digest = hmac.digest(key, prefix + f"{block}".encode("ascii"), "sha256")
        for b in digest:
            if b < REJECT_THRESHOLD:
                out.append(b % 6 + 1)
                if len(out) >= n:
                    return tuple(out)
        block += 1


def roll_die_values(seed_hex: str, counter: int, n: int) -> tuple[int, ...]:
    """Derive ``n`` die faces (each 1..6) for roll number ``counter``.

    See the module docstring for the exact scheme.  The result for a smaller
    ``n`` is always a prefix of the result for a larger ``n``.
    """
    key = _seed_bytes(seed_hex)
    _check_counter(counter)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError("n must be a non-negative int")
    if n == 0:
        return ()
    return _faces(key, counter, n)


def derive_roll(seed_hex: str, counter: int) -> tuple[int, int]:
    """The two dice ``(d1, d2)`` of roll number ``counter``."""
    d1, d2 = roll_die_values(seed_hex, counter, 2)
    return d1, d2


# --------------------------------------------------------------------------
# Verification
# --------------------------------------------------------------------------

_KIND_SIZES = {"roll": 2, "die": 1}


def verify_rolls(
    seed_hex: str,
    commitment_hex: str,
    rolls: Iterable[tuple[int, str, Sequence[int]]],
) -> list[str]:
    """Check a revealed seed against its commitment and a recorded history.

    ``rolls`` is an iterable of ``(counter, kind, values)`` with ``kind``
    ``"roll"`` (two values) or ``"die"`` (one value).  Returns a list of
    human-readable problems; an empty list means everything verified.
    """
    problems: list[str] = []
    try:
        key = _seed_bytes(seed_hex)
    except (TypeError, ValueError) as exc:
        return [f"invalid seed: {exc}"]

    actual_commitment = hashlib.sha256(key).hexdigest()
    published = commitment_hex.strip().lower() if isinstance(commitment_hex, str) else ""
    if not hmac.compare_digest(actual_commitment, published):
        problems.append(
            f"commitment mismatch: SHA-256 of the seed is {actual_commitment}, "
            f"published commitment was {commitment_hex!r}"
        )

    seen: set[int] = set()
    for index, entry in enumerate(rolls):
        try:
            counter, kind, values = entry
        except (TypeError, ValueError):
            problems.append(f"entry #{index}: malformed record {entry!r}")
            continue
        try:
            _check_counter(counter)
        except (TypeError, ValueError) as exc:
            problems.append(f"entry #{index}: bad counter {counter!r} ({exc})")
            continue
        if counter in seen:
            problems.append(f"entry #{index}: counter {counter} used more than once")
        seen.add(counter)
        size = _KIND_SIZES.get(kind)
        if size is None:
            problems.append(
                f"entry #{index} (counter {counter}): unknown kind {kind!r}, "
                "expected 'roll' or 'die'"
            )
            continue
        try:
            recorded = tuple(values)
        except TypeError:
            problems.append(
                f"entry #{index} (counter {counter}): values {values!r} are not a sequence"
            )
            continue
        expected = _faces(key, counter, size)
        if len(recorded) != size:
            problems.append(
                f"entry #{index} (counter {counter}, {kind}): expected {size} "
                f"value(s) {expected}, recorded {recorded}"
            )
        elif recorded != expected:
            problems.append(
                f"{kind} at counter {counter} (entry #{index}) differs: "
                f"expected {expected}, recorded {recorded}"
            )
    return problems


# --------------------------------------------------------------------------
# Dice sources
# --------------------------------------------------------------------------

class DiceSource(Protocol):
    """What the game engine needs from a dice source."""

    counter: int

    def roll(self) -> tuple[int, int]: ...

    def die(self) -> int: ...


class SeededDice:
    """Provably fair dice: a server seed plus the next counter value.

    Every call to :meth:`roll` or :meth:`die` consumes exactly one counter
    value.  Persist :attr:`seed` (secretly, until the game ends) and
    :attr:`counter` to resume; publish :attr:`commitment` at game start.
    """

    __slots__ = ("_seed", "_key", "counter")

    def __init__(self, seed_hex: str | None = None, counter: int = 0) -> None:
        if seed_hex is None:
            seed_hex = new_server_seed()
        self._key = _seed_bytes(seed_hex)
        self._seed = self._key.hex()
        _check_counter(counter)
        self.counter = counter

    @property
    def seed(self) -> str:
        """The server seed (64 lowercase hex chars). Keep secret until the end."""
        return self._seed

    @property
    def commitment(self) -> str:
        """SHA-256 hex digest of the seed; safe to publish at game start."""
        return hashlib.sha256(self._key).hexdigest()

    def roll(self) -> tuple[int, int]:
        """Two dice for the current counter, then advance the counter."""
        d1, d2 = _faces(self._key, self.counter, 2)
        self.counter += 1
        return d1, d2

    def die(self) -> int:
        """One die (first face of the current counter), then advance."""
        (d,) = _faces(self._key, self.counter, 1)
        self.counter += 1
        return d

    def __repr__(self) -> str:  # never leak the seed in logs
        return f"SeededDice(commitment={self.commitment[:16]}..., counter={self.counter})"


class ScriptedDiceError(RuntimeError):
    """Raised when scripted dice run out or the script doesn't match the call."""


class ScriptedDice:
    """Deterministic dice for tests: pops pre-scripted values in order.

    ``rolls`` is a list of tuples of one int (consumed by :meth:`die`) or two
    ints (consumed by :meth:`roll`); a bare int is accepted as a one-die entry.
    Each successful call consumes one entry and advances :attr:`counter`,
    exactly like :class:`SeededDice`.  A failed call consumes nothing.
    """

    def __init__(self, rolls: Iterable[Sequence[int] | int], counter: int = 0) -> None:
        script: list[tuple[int, ...]] = []
        for i, entry in enumerate(rolls):
            values = (entry,) if isinstance(entry, int) and not isinstance(entry, bool) else tuple(entry)
            if len(values) not in (1, 2):
                raise ValueError(f"scripted entry #{i} {entry!r}: need 1 or 2 dice")
            for v in values:
                if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
                    raise ValueError(f"scripted entry #{i} {entry!r}: die values must be ints 1..6")
            script.append(values)
        _check_counter(counter)
        self._script = script
        self._pos = 0
        self.counter = counter

    @property
    def remaining(self) -> int:
        """Number of scripted entries not yet consumed."""
        return len(self._script) - self._pos

    def _next(self, size: int, method: str) -> tuple[int, ...]:
        if self._pos >= len(self._script):
            raise ScriptedDiceError(
                f"ScriptedDice exhausted: {method}() called after all "
                f"{len(self._script)} scripted entries were used"
            )
        values = self._script[self._pos]
        if len(values) != size:
            want = "two dice (d1, d2)" if size == 2 else "a single die (d,)"
            raise ScriptedDiceError(
                f"ScriptedDice mismatch: {method}() needs {want} but scripted "
                f"entry #{self._pos} is {values}"
            )
        self._pos += 1
        self.counter += 1
        return values

    def roll(self) -> tuple[int, int]:
        d1, d2 = self._next(2, "roll")
        return d1, d2

    def die(self) -> int:
        (d,) = self._next(1, "die")
        return d

    def __repr__(self) -> str:
        return f"ScriptedDice(remaining={self.remaining}, counter={self.counter})"
