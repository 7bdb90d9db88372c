"""Per-player statistics of analysed decisions: error rates, PR, cube errors, luck.

Definitions (``docs/ANALYSIS.md`` has the full text):

* **Error rate** (GNU Backgammon's): the normalised equity given up, in millipoints
  (thousandths of a point, EMG in match play), divided by the number of decisions:
  unforced checker plays for the checker error rate, *close or actual* cube decisions
  for the cube error rate, both together for the overall error rate.
* **PR** (eXtreme Gammon's Performance Rating): 500 x the normalised equity given up
  divided by the number of non-obvious decisions, which here are the same decisions as
  the overall error rate (unforced plays, close or actual cube decisions): PR is half
  the overall error rate.
* **Cost**: the same errors unnormalised: points (x the cube) in a money session, match
  winning chance (0..1) in a match.
* **Luck**: the sum of each roll's luck (normalised, and its cost), and per roll.

Statistics are built from raw sums (:func:`new_raw`, :func:`add_decision`), which add
up across games (:func:`merge`), so a match's statistics come from its games' stored
analyses without analysing anything again (:func:`summary`).
"""

from __future__ import annotations

from .marks import rating

__all__ = ["new_raw", "add_decision", "merge", "summary"]

_MARKS = ("doubtful", "bad", "very_bad")
_LUCK_MARKS = ("very_lucky", "lucky", "unlucky", "very_unlucky")


def new_raw() -> dict:
    return {
        "moves": 0, "unforced": 0, "checkerError": 0.0, "checkerCost": 0.0,
        "checkerMarks": dict.fromkeys(_MARKS, 0),
        "cubeDecisions": 0, "closeOrActual": 0, "cubeError": 0.0, "cubeCost": 0.0,
        "cubeMarks": dict.fromkeys(_MARKS, 0),
        "doubles": 0, "takes": 0, "passes": 0,
        "missedDoubles": 0, "wrongDoubles": 0, "wrongTakes": 0, "wrongPasses": 0,
        "rolls": 0, "luck": 0.0, "luckCost": 0.0, "luckMarks": dict.fromkeys(_LUCK_MARKS, 0),
    }


def _cube(raw: dict, entry: dict) -> None:
    raw["cubeDecisions"] += 1
    if entry.get("close") or entry["kind"] != "no_double":
        raw["closeOrActual"] += 1
    raw["cubeError"] += entry["loss"]
    raw["cubeCost"] += entry["cost"]
    if entry.get("mark"):
        raw["cubeMarks"][entry["mark"]] += 1


def add_decision(players: dict, decision: dict) -> None:
    """Add one decision of the analysis JSON to ``players`` (``{"white": raw, "black": raw}``)."""
    raw = players[decision["player"]]
    kind = decision["kind"]
    if kind == "move":
        luck = decision.get("luck")
        if luck is not None:
            raw["rolls"] += 1
            raw["luck"] += luck["value"]
            raw["luckCost"] += luck["cost"]
            if luck.get("mark"):
                raw["luckMarks"][luck["mark"]] += 1
        cube = decision.get("cube")
        if cube is not None:
            _cube(raw, {"kind": "no_double", "close": cube["close"], "loss": cube["loss"], "cost": cube["cost"],
                        "mark": cube.get("mark")})
            raw["missedDoubles"] += cube["loss"] > 0
        play = decision.get("play")
        if play is not None:
            raw["moves"] += 1
            if not play["forced"]:
                raw["unforced"] += 1
                raw["checkerError"] += play["loss"]
                raw["checkerCost"] += play["cost"]
                if play.get("mark"):
                    raw["checkerMarks"][play["mark"]] += 1
    elif kind == "double":
        _cube(raw, decision)
        raw["doubles"] += 1
        raw["wrongDoubles"] += decision["loss"] > 0
    elif kind in ("take", "drop", "beaver"):
        _cube(raw, decision)
        if kind == "drop":
            raw["passes"] += 1
            raw["wrongPasses"] += decision["loss"] > 0
        else:
            raw["takes"] += 1
            raw["wrongTakes"] += decision["loss"] > 0


def merge(raws: list) -> dict:
    """The sum of several raw statistics of one player (e.g. over a match's games)."""
    out = new_raw()
    for raw in raws:
        for key, value in raw.items():
            if isinstance(value, dict):
                for k, v in value.items():
                    out[key][k] += v
            else:
                out[key] += value
    return out


def _rate(total: float, count: int) -> float | None:
    return round(1000.0 * total / count, 2) if count else None


def summary(raw: dict) -> dict:
    """Derived statistics of one player (the ``stats`` objects of the analysis JSON)."""
    decisions = raw["unforced"] + raw["closeOrActual"]
    error = raw["checkerError"] + raw["cubeError"]
    return {
        "checker": {
            "moves": raw["moves"], "unforced": raw["unforced"],
            "error": round(raw["checkerError"], 4), "cost": round(raw["checkerCost"], 5),
            "errorRate": _rate(raw["checkerError"], raw["unforced"]),
            "rating": rating(raw["checkerError"] / raw["unforced"] if raw["unforced"] else None),
            "marks": dict(raw["checkerMarks"]),
        },
        "cube": {
            "decisions": raw["cubeDecisions"], "closeOrActual": raw["closeOrActual"],
            "error": round(raw["cubeError"], 4), "cost": round(raw["cubeCost"], 5),
            "errorRate": _rate(raw["cubeError"], raw["closeOrActual"]),
            "rating": rating(raw["cubeError"] / raw["closeOrActual"] if raw["closeOrActual"] else None),
            "marks": dict(raw["cubeMarks"]),
            "doubles": raw["doubles"], "takes": raw["takes"], "passes": raw["passes"],
            "missedDoubles": raw["missedDoubles"], "wrongDoubles": raw["wrongDoubles"],
            "wrongTakes": raw["wrongTakes"], "wrongPasses": raw["wrongPasses"],
        },
        "overall": {
            "decisions": decisions, "error": round(error, 4),
            "cost": round(raw["checkerCost"] + raw["cubeCost"], 5),
            "errorRate": _rate(error, decisions),
            "pr": round(500.0 * error / decisions, 2) if decisions else None,
            "rating": rating(error / decisions if decisions else None),
        },
        "luck": {
            "rolls": raw["rolls"], "total": round(raw["luck"], 4), "cost": round(raw["luckCost"], 5),
            "perRoll": _rate(raw["luck"], raw["rolls"]), "marks": dict(raw["luckMarks"]),
        },
        "raw": raw,
    }
