"""Tests for games.dice (provably fair dice) and games.selectors.dice_stats (chi-square).

Plain pytest: no database, no Django settings needed.  Every statistical test
uses a FIXED seed, so results are deterministic and cannot flake.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import math
import re
import sys
import textwrap
from pathlib import Path

import pytest

import games.dice as dice_module
import games.selectors.dice_stats as stats_module
from games.dice import (
    ScriptedDice,
    ScriptedDiceError,
    SeededDice,
    commitment,
    derive_roll,
    new_server_seed,
    roll_die_values,
    verify_rolls,
)
from games.selectors.dice_stats import OUTCOMES, battery, chi_square, chi_square_sf

EXAMPLE_SEED = bytes(range(32)).hex()
FIXED_SEED = hashlib.sha256(b"backgammon dice battery, fair").hexdigest()
N_ROLLS = 1_000_000
ALPHA = 0.001
# Chi-square critical values at alpha = 0.001.
CRITICAL = {1: 10.828, 5: 20.515, 20: 45.315}


def hmac_block(seed_hex: str, counter: int, block: int = 0) -> bytes:
    """Independent re-implementation of one derivation block."""
    msg = str(counter).encode() + b":" + str(block).encode()
    return hmac.new(bytes.fromhex(seed_hex), msg, hashlib.sha256).digest()


# --------------------------------------------------------------------------
# Seeds, commitment, derivation
# --------------------------------------------------------------------------

def test_new_server_seed_is_64_hex_chars_and_fresh():
    seeds = {new_server_seed() for _ in range(20)}
    assert len(seeds) == 20
    for s in seeds:
        assert re.fullmatch(r"[0-9a-f]{64}", s)


def test_commitment_is_sha256_of_seed_bytes():
    seed = new_server_seed()
    assert commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    # hashes the raw bytes, not the hex text
    assert commitment(seed) != hashlib.sha256(seed.encode()).hexdigest()
    # hex case does not matter
    assert commitment(seed.upper()) == commitment(seed)


@pytest.mark.parametrize("bad", ["", "00" * 31, "00" * 33, "zz" * 32, "0" * 63])
def test_bad_seed_rejected(bad):
    with pytest.raises(ValueError):
        commitment(bad)
    with pytest.raises(ValueError):
        derive_roll(bad, 0)
    with pytest.raises(ValueError):
        SeededDice(bad)


def test_bad_counter_rejected():
    with pytest.raises(ValueError):
        derive_roll(EXAMPLE_SEED, -1)
    with pytest.raises(TypeError):
        derive_roll(EXAMPLE_SEED, "3")
    with pytest.raises(TypeError):
        derive_roll(EXAMPLE_SEED, True)


def test_derivation_is_deterministic_per_seed_and_counter():
    seed = new_server_seed()
    for counter in range(50):
        assert derive_roll(seed, counter) == derive_roll(seed, counter)
        assert roll_die_values(seed, counter, 7) == roll_die_values(seed, counter, 7)
    other = new_server_seed()
    assert [derive_roll(seed, c) for c in range(50)] != [derive_roll(other, c) for c in range(50)]


def test_different_counters_differ():
    # Individual rolls can coincide (1 in 36); the HMAC inputs and streams must not.
    rolls = [derive_roll(FIXED_SEED, c) for c in range(200)]
    assert len(set(rolls)) > 15
    long = [roll_die_values(FIXED_SEED, c, 20) for c in range(200)]
    assert len(set(long)) == 200
    # "1:0" vs "10:" style ambiguity is impossible thanks to the separator:
    assert hmac_block(FIXED_SEED, 1, 10) != hmac_block(FIXED_SEED, 11, 0)


def test_values_always_in_range():
    seed = new_server_seed()
    for counter in range(2000):
        d1, d2 = derive_roll(seed, counter)
        assert 1 <= d1 <= 6 and 1 <= d2 <= 6
    assert set(roll_die_values(seed, 0, 500)) <= {1, 2, 3, 4, 5, 6}


def test_roll_die_values_prefix_and_n0():
    assert roll_die_values(FIXED_SEED, 5, 0) == ()
    long = roll_die_values(FIXED_SEED, 5, 100)
    assert len(long) == 100
    for n in range(1, 100):
        assert roll_die_values(FIXED_SEED, 5, n) == long[:n]
    assert derive_roll(FIXED_SEED, 5) == long[:2]


def test_derivation_matches_independent_reimplementation_across_blocks():
    # n = 100 needs at least 4 digests, exercising the block continuation.
    for counter in (0, 1, 7, 12345):
        expected = []
        block = 0
        while len(expected) < 100:
            expected += [b % 6 + 1 for b in hmac_block(FIXED_SEED, counter, block) if b < 252]
            block += 1
        assert block >= 4
        assert roll_die_values(FIXED_SEED, counter, 100) == tuple(expected[:100])


def test_rejection_sampling_skips_bytes_252_and_up():
    # Search (fixed seed, fixed range) for counters whose first digest byte is
    # rejected; there must be plenty (probability 4/256 each).
    hits = [c for c in range(3000) if hmac_block(FIXED_SEED, c)[0] >= 252]
    assert len(hits) >= 10
    for c in hits:
        digest = hmac_block(FIXED_SEED, c)
        accepted = [b for b in digest if b < 252]
        expected = (accepted[0] % 6 + 1, accepted[1] % 6 + 1)
        assert derive_roll(FIXED_SEED, c) == expected
        assert SeededDice(FIXED_SEED, counter=c).die() == expected[0]
    # and at least one of them differs from the naive modulo-biased mapping
    naive = {c: (hmac_block(FIXED_SEED, c)[0] % 6 + 1, hmac_block(FIXED_SEED, c)[1] % 6 + 1) for c in hits}
    assert any(naive[c] != derive_roll(FIXED_SEED, c) for c in hits)


def test_rejection_threshold_is_unbiased_multiple_of_six():
    assert dice_module.REJECT_THRESHOLD % 6 == 0
    counts = [0] * 6
    for b in range(dice_module.REJECT_THRESHOLD):
        counts[b % 6] += 1
    assert len(set(counts)) == 1


# --------------------------------------------------------------------------
# Docstring worked example and reference verifier
# --------------------------------------------------------------------------

def test_docstring_worked_example_matches_code():
    doc = dice_module.__doc__
    seed = re.search(r"seed\s+=\s+([0-9a-f]{64})", doc).group(1)
    commit = re.search(r"commitment\s+=\s+([0-9a-f]{64})", doc).group(1)
    assert seed == EXAMPLE_SEED
    assert commitment(seed) == commit

    entry = re.compile(
        r'counter (\d+): HMAC\(seed, b"(\d+):0"\) = ([0-9a-f]{32})\s+([0-9a-f]{32}).*?roll \((\d), (\d)\)',
        re.S,
    )
    examples = entry.findall(doc)
    counters = [int(m[0]) for m in examples]
    assert counters[:3] == [0, 1, 2], counters
    for counter, msg_counter, hex1, hex2, d1, d2 in examples:
        counter = int(counter)
        assert int(msg_counter) == counter
        assert hmac_block(seed, counter).hex() == hex1 + hex2
        assert derive_roll(seed, counter) == (int(d1), int(d2))
    dice = SeededDice(seed)
    assert [dice.roll() for _ in range(3)] == [(4, 1), (4, 2), (5, 4)]
    # the documented rejection example really has a rejected first byte
    assert 22 in counters and hmac_block(seed, 22)[0] >= 252


def test_docstring_reference_verifier_agrees():
    doc = dice_module.__doc__
    block = doc.split("Reference verifier in a few lines of Python::", 1)[1]
    block = block.split("Worked example", 1)[0]
    namespace: dict = {}
    exec(compile(textwrap.dedent(block), "<docstring>", "exec"), namespace)
    faces = namespace["faces"]
    for counter in range(300):
        assert faces(FIXED_SEED, counter, 2) == derive_roll(FIXED_SEED, counter)
    assert faces(FIXED_SEED, 9, 90) == roll_die_values(FIXED_SEED, 9, 90)


# --------------------------------------------------------------------------
# SeededDice
# --------------------------------------------------------------------------

def test_seeded_dice_counter_semantics():
    dice = SeededDice(FIXED_SEED)
    assert dice.counter == 0 and dice.seed == FIXED_SEED
    assert dice.commitment == commitment(FIXED_SEED)
    a = dice.die()
    b = dice.die()
    r = dice.roll()
    assert dice.counter == 3
    assert a == roll_die_values(FIXED_SEED, 0, 1)[0] == derive_roll(FIXED_SEED, 0)[0]
    assert b == derive_roll(FIXED_SEED, 1)[0]
    assert r == derive_roll(FIXED_SEED, 2)
    # resuming from a persisted counter continues the same sequence
    resumed = SeededDice(FIXED_SEED, counter=dice.counter)
    assert [resumed.roll() for _ in range(5)] == [derive_roll(FIXED_SEED, c) for c in range(3, 8)]
    assert resumed.counter == 8


def test_seeded_dice_new_seed_and_repr_does_not_leak_seed():
    dice = SeededDice()
    assert re.fullmatch(r"[0-9a-f]{64}", dice.seed)
    assert dice.seed != SeededDice().seed
    assert dice.seed not in repr(dice)
    assert SeededDice(FIXED_SEED.upper()).seed == FIXED_SEED


# --------------------------------------------------------------------------
# verify_rolls
# --------------------------------------------------------------------------

def _history(seed):
    dice = SeededDice(seed)
    hist = []
    for kind in ["die", "die"] + ["roll"] * 30:
        c = dice.counter
        hist.append((c, kind, (dice.die(),) if kind == "die" else dice.roll()))
    return hist


def test_verify_rolls_passes_correct_history():
    seed = new_server_seed()
    hist = _history(seed)
    assert verify_rolls(seed, commitment(seed), hist) == []
    assert verify_rolls(seed, commitment(seed).upper(), hist) == []
    assert verify_rolls(seed, commitment(seed), [(c, k, list(v)) for c, k, v in hist]) == []


def test_verify_rolls_catches_tampered_roll():
    seed = FIXED_SEED
    hist = _history(seed)
    c, kind, (d1, d2) = hist[10]
    tampered = (d1, d2 % 6 + 1)
    hist[10] = (c, kind, tampered)
    problems = verify_rolls(seed, commitment(seed), hist)
    assert len(problems) == 1
    assert f"counter {c}" in problems[0]
    assert str((d1, d2)) in problems[0] and str(tampered) in problems[0]


def test_verify_rolls_catches_tampered_die_and_swapped_order():
    seed = FIXED_SEED
    hist = _history(seed)
    c0, _, (v,) = hist[0]
    hist[0] = (c0, "die", (v % 6 + 1,))
    # swapping the two dice of a non-double is a different roll record
    i = next(i for i, (_, k, vals) in enumerate(hist) if k == "roll" and vals[0] != vals[1])
    c, _, (d1, d2) = hist[i]
    hist[i] = (c, "roll", (d2, d1))
    problems = verify_rolls(seed, commitment(seed), hist)
    assert len(problems) == 2
    assert f"die at counter {c0}" in problems[0]
    assert f"roll at counter {c}" in problems[1]


def test_verify_rolls_catches_wrong_commitment():
    seed = new_server_seed()
    hist = _history(seed)
    problems = verify_rolls(seed, commitment(new_server_seed()), hist)
    assert len(problems) == 1 and "commitment" in problems[0]
    # a commitment to a different seed than the one used for the rolls
    other = new_server_seed()
    problems = verify_rolls(other, commitment(seed), hist)
    assert any("commitment" in p for p in problems)
    assert len(problems) > 5


def test_verify_rolls_reports_malformed_entries():
    seed = FIXED_SEED
    good = derive_roll(seed, 0)
    problems = verify_rolls(
        seed,
        commitment(seed),
        [
            (0, "roll", good),
            (0, "roll", good),  # counter reuse
            (1, "dice", (1, 2)),  # unknown kind
            (2, "roll", (3,)),  # wrong arity
            (-1, "die", (1,)),  # bad counter
            "garbage",
        ],
    )
    assert len(problems) == 5
    assert "used more than once" in problems[0]
    assert "unknown kind" in problems[1]
    assert "malformed" in problems[-1]
    assert verify_rolls("nothex", commitment(seed), []) == [
        "invalid seed: seed must be exactly 64 hexadecimal characters"
    ]


# --------------------------------------------------------------------------
# ScriptedDice
# --------------------------------------------------------------------------

def test_scripted_dice_pops_in_order():
    dice = ScriptedDice([(3,), (5,), (6, 1), (4, 4), 2])
    assert dice.counter == 0 and dice.remaining == 5
    assert dice.die() == 3
    assert dice.die() == 5
    assert dice.roll() == (6, 1)
    assert dice.roll() == (4, 4)
    assert dice.die() == 2
    assert dice.counter == 5 and dice.remaining == 0
    with pytest.raises(ScriptedDiceError, match="exhausted"):
        dice.roll()
    with pytest.raises(ScriptedDiceError, match="exhausted"):
        dice.die()
    assert dice.counter == 5


def test_scripted_dice_kind_mismatch():
    dice = ScriptedDice([(3,), (6, 1)], counter=10)
    with pytest.raises(ScriptedDiceError, match="mismatch"):
        dice.roll()  # scripted a single die
    assert dice.counter == 10 and dice.remaining == 2  # failed call consumes nothing
    assert dice.die() == 3
    with pytest.raises(ScriptedDiceError, match="mismatch"):
        dice.die()  # scripted a roll
    assert dice.roll() == (6, 1)
    assert dice.counter == 12


@pytest.mark.parametrize("bad", [[(0, 1)], [(7,)], [(1, 2, 3)], [()], [(1.0, 2)], [(True, 2)]])
def test_scripted_dice_validates_script(bad):
    with pytest.raises(ValueError):
        ScriptedDice(bad)


# --------------------------------------------------------------------------
# No `random`, stdlib only
# --------------------------------------------------------------------------

@pytest.mark.parametrize("module", [dice_module, stats_module])
def test_modules_import_no_random_and_only_stdlib(module):
    tree = ast.parse(Path(module.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports expected"
            imported.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            pytest.fail("dynamic import found")
    tops = {name.split(".")[0] for name in imported}
    assert "random" not in tops
    assert "numpy" not in tops and "django" not in tops
    assert tops <= set(sys.stdlib_module_names), tops - set(sys.stdlib_module_names)


# --------------------------------------------------------------------------
# chi-square helpers
# --------------------------------------------------------------------------

def test_chi_square_statistic():
    assert chi_square([10, 10], [10, 10]) == 0
    assert chi_square([12, 8], [10, 10]) == pytest.approx(0.8)
    with pytest.raises(ValueError):
        chi_square([1], [1, 2])
    with pytest.raises(ValueError):
        chi_square([1], [0])


@pytest.mark.parametrize(
    "x, df, p",
    [
        (20.515, 5, 0.001),
        (45.315, 20, 0.001),
        (10.828, 1, 0.001),
        (5.0, 5, 0.4159),
        (3.841, 1, 0.05),
        (11.070, 5, 0.05),
        (31.410, 20, 0.05),
        (12.443, 20, 0.90),
    ],
)
def test_chi_square_sf_known_values(x, df, p):
    assert chi_square_sf(x, df) == pytest.approx(p, rel=2e-3)


def test_chi_square_sf_closed_forms_both_branches():
    xs = [1e-6, 0.01, 0.3, 1, 2, 2.9, 3.1, 5, 8, 13, 21.9, 22.1, 40, 100, 300, 700]
    for x in xs:
        # df = 1: erfc(sqrt(x/2)); df = 2: exp(-x/2)
        assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
        assert chi_square_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)
        # even df = 2k: Q(k, y) = exp(-y) * sum_{i<k} y**i / i!
        for k in (2, 5, 10):
            y = x / 2
            exact = math.exp(-y) * sum(y**i / math.factorial(i) for i in range(k))
            assert chi_square_sf(x, 2 * k) == pytest.approx(exact, rel=1e-9, abs=1e-300)
    assert chi_square_sf(0, 5) == 1.0
    assert chi_square_sf(-3, 5) == 1.0
    assert chi_square_sf(math.inf, 5) == 0.0
    with pytest.raises(ValueError):
        chi_square_sf(1, 0)


def test_chi_square_sf_monotone():
    prev = 1.0
    for i in range(1, 400):
        p = chi_square_sf(i * 0.25, 20)
        assert 0 <= p <= prev
        prev = p


def test_battery_structure_and_validation():
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)] * 10
    result = battery(rolls)
    assert result["n_rolls"] == 360 and result["passed_all"] is True
    for name, df in (("faces", 5), ("outcomes", 20), ("doubles", 1)):
        t = result[name]
        assert t["df"] == df and t["statistic"] == pytest.approx(0) and t["p_value"] == 1.0
    assert len(result["outcomes"]["observed"]) == len(OUTCOMES) == 21
    assert sum(result["outcomes"]["expected"]) == pytest.approx(360)
    assert battery([[a, b] for a, b in rolls])["n_rolls"] == 360  # lists are fine
    with pytest.raises(ValueError):
        battery([(0, 1)])
    with pytest.raises(ValueError):
        battery([])
    with pytest.raises(ValueError):
        battery([(1, 2, 3)])


# --------------------------------------------------------------------------
# The battery on 1,000,000 rolls: fair passes, biased generators fail
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fair_rolls():
    dice = SeededDice(FIXED_SEED)
    rolls = [dice.roll() for _ in range(N_ROLLS)]
    assert dice.counter == N_ROLLS
    return rolls


def modulo_biased_rolls(seed_hex, n):
    """Same HMAC stream, but byte % 6 + 1 WITHOUT rejection (modulo bias:
    faces 1-4 get 43/256, faces 5-6 get 42/256)."""
    key = bytes.fromhex(seed_hex)
    out = []
    for c in range(n):
        h = hmac.digest(key, b"%d:0" % c, "sha256")
        out.append((h[0] % 6 + 1, h[1] % 6 + 1))
    return out


def sixes_to_ones(rolls, every=50):
    """Deterministically turn every 50th six rolled into a one."""
    out, sixes = [], 0
    for a, b in rolls:
        if a == 6:
            sixes += 1
            if sixes % every == 0:
                a = 1
        if b == 6:
            sixes += 1
            if sixes % every == 0:
                b = 1
        out.append((a, b))
    return out


def extra_doubles(rolls, every=100):
    """Turn every 100th non-double into a double (d2 := d1): doubles rate
    1/6 + (5/6)/100 = 0.175 instead of 0.1667; face frequencies unaffected."""
    out, non_doubles = [], 0
    for a, b in rolls:
        if a != b:
            non_doubles += 1
            if non_doubles % every == 0:
                b = a
        out.append((a, b))
    return out


def noncentrality(n, probs_true, probs_null):
    """Expected chi-square excess n * sum((p - p0)^2 / p0) for a biased source."""
    return n * sum((p - q) ** 2 / q for p, q in zip(probs_true, probs_null))


def test_expected_bias_is_far_beyond_critical_values():
    """Analytic check that the chosen biases/sample size are not borderline:
    the expected statistic (df + noncentrality) exceeds the alpha=0.001
    critical value by a huge margin (several standard deviations)."""
    n_dice = 2 * N_ROLLS
    uniform = [1 / 6] * 6
    modulo = [43 / 256] * 4 + [42 / 256] * 2
    lam_modulo = noncentrality(n_dice, modulo, uniform)  # ~244
    sixes = [1 / 6 * 51 / 50] + [1 / 6] * 4 + [1 / 6 * 49 / 50]
    lam_sixes = noncentrality(n_dice, sixes, uniform)  # ~267
    p_dbl = 1 / 6 + (5 / 6) / 100
    lam_doubles = noncentrality(N_ROLLS, [p_dbl, 1 - p_dbl], [1 / 6, 5 / 6])  # 500
    for lam, df in ((lam_modulo, 5), (lam_sixes, 5), (lam_doubles, 1)):
        mean, sd = df + lam, math.sqrt(2 * (df + 2 * lam))
        assert (mean - CRITICAL[df]) / sd > 5, (lam, df)
    # For contrast: doubles only 1% *relatively* too often (1/6 -> 1.01/6)
    # gives lambda ~ 20 at 1M rolls: detectable only ~88% of the time, which
    # is why that milder bias is not used as a pass/fail assertion here.
    lam_mild = noncentrality(N_ROLLS, [1.01 / 6, 1 - 1.01 / 6], [1 / 6, 5 / 6])
    assert 15 < lam_mild < 25


@pytest.mark.slow
def test_battery_fair_million_rolls_passes(fair_rolls):
    result = battery(fair_rolls, alpha=ALPHA)
    assert result["n_rolls"] == N_ROLLS
    assert result["passed_all"], {k: result[k]["p_value"] for k in ("faces", "outcomes", "doubles")}


@pytest.mark.slow
def test_battery_detects_modulo_bias():
    result = battery(modulo_biased_rolls(FIXED_SEED, N_ROLLS), alpha=ALPHA)
    assert result["passed_all"] is False
    assert result["faces"]["statistic"] > 5 * CRITICAL[5]
    assert result["outcomes"]["statistic"] > 3 * CRITICAL[20]


@pytest.mark.slow
def test_battery_detects_sixes_turned_into_ones(fair_rolls):
    result = battery(sixes_to_ones(fair_rolls), alpha=ALPHA)
    assert result["passed_all"] is False
    assert result["faces"]["statistic"] > 5 * CRITICAL[5]


@pytest.mark.slow
def test_battery_detects_extra_doubles(fair_rolls):
    result = battery(extra_doubles(fair_rolls), alpha=ALPHA)
    assert result["passed_all"] is False
    assert result["doubles"]["statistic"] > 10 * CRITICAL[1]
    assert result["faces"]["passed"]  # this bias is invisible to the face test
