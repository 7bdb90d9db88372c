"""Reads for practice from one's own errors (``docs/ANALYSIS.md``, "Practice").

:func:`practice_errors` gathers, from a player's analysed matches, the decisions where
they lost the most equity, each as an exercise: the position before the decision and the
choices with their equities. Nothing here writes.
"""

from __future__ import annotations

from django.db.models import Q

from games.models import Analysis, PracticeExercise, PracticeSession, Player

__all__ = ["THRESHOLD", "practice_errors", "choice_loss", "session_json", "practice_history"]

#: A decision becomes an exercise when it lost more than this (normalised equity):
#: gnubg's "doubtful" mark.
THRESHOLD = 0.03
#: The newest analyses read for exercises (each is a whole match's JSON).
MAX_ANALYSES = 100
CUBE_CHOICES = ("no_double", "double")
ANSWER_CHOICES = ("take", "pass")


def _analyses(player: Player) -> list:
    """``[(analysis, colour)]``: the newest finished analysis of each match the player
    played, and the player's uploads on the side they said they played (else the side
    with the player's name)."""
    rows = (Analysis.objects.filter(result__isnull=False)
            .filter(Q(source=Analysis.MATCH, match__white=player) | Q(source=Analysis.MATCH, match__black=player)
                    | Q(source=Analysis.UPLOAD, owner=player))
            .select_related("match").order_by("-pk")[:MAX_ANALYSES])
    seen, out = set(), []
    name = (player.display_name or "").strip().casefold()
    for analysis in rows:
        if analysis.source == Analysis.MATCH:
            if analysis.match_id in seen:
                continue
            seen.add(analysis.match_id)
            colour = analysis.match.color_of(player)
        elif analysis.owner_side:
            colour = analysis.owner_side if analysis.owner_side in ("white", "black") else None
        else:
            colour = ("white" if analysis.white_name.strip().casefold() == name
                      else "black" if analysis.black_name.strip().casefold() == name else None)
        if colour:
            out.append((analysis, colour))
    return out


def _cube_numbers(cube: dict) -> dict:
    return {k: cube.get(k) for k in ("nd", "dt", "dp", "best", "takeRight", "tooGood")}


def _base(analysis: Analysis, game: dict, d: dict, kind: str, loss: float) -> dict:
    info = game.get("game", {})
    return {"kind": kind, "player": d["player"], "position": d["position"], "dice": d.get("dice"),
            "cubeValue": d.get("cubeValue", 1), "cubeOwner": d.get("cubeOwner"),
            "matchLength": info.get("matchLength", 0), "score": info.get("score"),
            "crawford": bool(info.get("crawfordGame")), "gnubgId": d.get("gnubgId"),
            "loss": round(float(loss), 5), "analysis": analysis.pk, "match": analysis.match_id,
            "game": info.get("number"), "event": d.get("event")}


def _play_exercise(analysis, game, d) -> dict | None:
    play = d.get("play")
    if not play or play.get("forced") or (play.get("loss") or 0) <= THRESHOLD:
        return None
    alts = sorted(play.get("alternatives") or [], key=lambda a: a["rank"])
    if len(alts) < 2:
        return None
    out = _base(analysis, game, d, "play", play["loss"])
    # listed by notation under opaque keys, so neither the order nor a key tells the best
    shown = sorted(alts, key=lambda a: (a["notation"], a["rank"]))
    out["choices"] = [{"key": chr(ord("a") + k), "rank": a["rank"], "notation": a["notation"], "moves": a["moves"],
                       "equity": a["equity"], "loss": a["loss"], "ply": a.get("ply")} for k, a in enumerate(shown)]
    out["best"] = next(c["key"] for c, a in zip(out["choices"], shown) if a is alts[0])
    out["played"] = next((c["key"] for c, a in zip(out["choices"], shown) if a.get("played")), None)
    return out


def _cube_exercise(analysis, game, d, cube: dict, loss: float, played: str) -> dict:
    out = _base(analysis, game, d, "cube", loss)
    out["dice"] = None  # the decision comes before the roll
    out["cube"] = _cube_numbers(cube)
    out["choices"] = [{"key": k} for k in CUBE_CHOICES]
    out["best"] = "no_double" if cube["best"] == "no_double" else "double"
    out["played"] = played
    return out


def _answer_exercise(analysis, game, d) -> dict:
    cube = d["cube"]
    out = _base(analysis, game, d, "answer", d["loss"])
    out["dice"] = None
    out["cube"] = _cube_numbers(cube)
    out["choices"] = [{"key": k} for k in ANSWER_CHOICES]
    out["best"] = cube.get("takeRight") or ("take" if cube["dt"] <= cube["dp"] else "pass")
    out["played"] = "pass" if d["kind"] == "drop" else "take"
    return out


def choice_loss(exercise: dict, key: str) -> float | None:
    """The equity (normalised) that ``key`` gives up in ``exercise``; None for a key that is
    not one of its choices. Cube numbers are the doubler's (docs: "Cube errors")."""
    kind = exercise["kind"]
    if kind == "play":
        return next((float(c["loss"]) for c in exercise["choices"] if c["key"] == key), None)
    cube = exercise["cube"]
    nd, dt, dp = float(cube["nd"]), float(cube["dt"]), float(cube["dp"])
    if kind == "cube" and key in CUBE_CHOICES:
        best = max(nd, min(dt, dp))
        return round(best - (nd if key == "no_double" else min(dt, dp)), 5)
    if kind == "answer" and key in ANSWER_CHOICES:
        return round(max(0.0, dt - dp) if key == "take" else max(0.0, dp - dt), 5)
    return None


def practice_errors(player: Player, *, threshold: float = THRESHOLD, exclude=()) -> list:
    """The player's errors over ``threshold`` in their analysed matches, as exercises,
    biggest loss first: checker plays (``play``), doubles and missed doubles (``cube``),
    takes and passes (``answer``). ``exclude``: keys to leave out. Each exercise has a
    ``key`` (``analysis:game:event:kind``) naming the decision it comes from."""
    out = []
    for analysis, colour in _analyses(player):
        for game in (analysis.result or {}).get("games", []):
            for d in game.get("decisions", []):
                if d.get("player") != colour:
                    continue
                found = []
                if d["kind"] == "move":
                    found.append(_play_exercise(analysis, game, d))
                    cube = d.get("cube")
                    if cube and (cube.get("loss") or 0) > threshold:
                        found.append(_cube_exercise(analysis, game, d, cube, cube["loss"], "no_double"))
                elif d["kind"] == "double" and (d.get("loss") or 0) > threshold:
                    found.append(_cube_exercise(analysis, game, d, d["cube"], d["loss"], "double"))
                elif d["kind"] in ("take", "drop", "beaver") and (d.get("loss") or 0) > threshold:
                    found.append(_answer_exercise(analysis, game, d))
                for ex in found:
                    if ex is None or ex["loss"] <= threshold:
                        continue
                    ex["key"] = f"{analysis.pk}:{ex['game']}:{ex['event']}:{ex['kind']}"
                    if ex["key"] not in exclude:
                        out.append(ex)
    out.sort(key=lambda ex: (-ex["loss"], ex["key"]))
    return out


def _public(ex: PracticeExercise) -> dict:
    """An exercise for its page: before it is answered, the choices without their equities
    (and not which one was best, nor what was played then)."""
    data = ex.data
    out = {"id": ex.pk, "number": ex.number, "kind": ex.kind, "answered": ex.choice is not None}
    for k in ("player", "position", "dice", "cubeValue", "cubeOwner", "matchLength", "score", "crawford",
              "match", "analysis", "game"):
        out[k] = data.get(k)
    if ex.choice is None:
        out["choices"] = [{k: c[k] for k in ("key", "notation", "moves") if k in c} for c in data["choices"]]
        return out
    out.update(choices=data["choices"], best=data["best"], played=data.get("played"), cube=data.get("cube"),
               choice=ex.choice, loss=ex.loss, correct=ex.correct, originalLoss=data.get("loss"))
    return out


def session_json(session: PracticeSession) -> dict:
    """A session for its page: the exercises (answered ones with their answers) and the score."""
    exercises = list(session.exercises.order_by("number"))
    return {"id": session.pk, "size": session.size, "answered": session.answered, "correct": session.correct,
            "lost": round(session.lost, 5), "finished": session.finished_at is not None,
            "createdAt": session.created_at.isoformat(), "exercises": [_public(ex) for ex in exercises]}


def practice_history(player: Player, limit: int = 30) -> list:
    """The player's sessions, newest first: ``{"id", "date", "size", "answered", "correct",
    "lost", "finished", "percent", "perAnswer"}`` (``perAnswer``: mEMG given up per answer)."""
    rows = PracticeSession.objects.filter(player=player).order_by("-pk")[:limit]
    return [{"id": s.pk, "date": s.created_at, "size": s.size, "answered": s.answered, "correct": s.correct,
             "lost": round(s.lost, 3), "finished": s.finished_at is not None,
             "percent": round(100 * s.correct / s.size) if s.size else 0,
             "perAnswer": round(1000 * s.lost / s.answered, 1) if s.answered else None} for s in rows]
