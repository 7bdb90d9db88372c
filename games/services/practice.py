"""Practice from one's own errors (``docs/ANALYSIS.md``, "Practice"): start a session of
exercises taken from the player's analysed matches, answer them one by one.

Each action checks, then does, in one transaction under the session's row lock; a refused
action raises a :class:`~games.errors.ServiceError` with a stable code and changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.errors import BadRequest, Conflict, NotFound
from games.models import PracticeExercise, PracticeSession, Player
from games.selectors.practice import choice_loss, practice_errors
from django.utils.translation import gettext

__all__ = ["SIZES", "DEFAULT_SIZE", "practice_start", "practice_answer"]

SIZES = (5, 10, 20)
DEFAULT_SIZE = 10
MAX_SIZE = 20
#: An answer counts as right when it gives up at most this much (normalised equity): two
#: plays this close are the same play at the analysis' accuracy.
RIGHT = 0.001


def _size(size) -> int:
    if type(size) is str and size.strip().isdigit():
        size = int(size)
    if type(size) is not int or not 1 <= size <= MAX_SIZE:
        raise BadRequest("bad_size", gettext("A session has 1 to %(MAX_SIZE)s exercises.") % {"MAX_SIZE": MAX_SIZE})
    return size


def practice_start(*, player: Player, size=DEFAULT_SIZE) -> PracticeSession:
    """A new session of the player's ``size`` biggest errors over the threshold, leaving out
    the positions the player already answered right in an earlier session (they come back
    only when too few are left). ``no_errors`` (409) when the player has none."""
    if player is None:
        raise BadRequest("not_a_player", gettext("Log in, or play as a guest, to practise."))
    size = _size(size)
    with transaction.atomic():
        Player.objects.select_for_update(of=("self",)).filter(pk=player.pk).first()
        solved = set(PracticeExercise.objects.filter(session__player=player, correct=True)
                     .values_list("key", flat=True))
        errors = practice_errors(player, exclude=solved)
        if len(errors) < size:
            taken = {ex["key"] for ex in errors}
            errors += [ex for ex in practice_errors(player) if ex["key"] not in taken]
        if not errors:
            raise Conflict("no_errors", gettext("None of your analysed matches has an error to practise yet."))
        chosen = errors[:size]
        session = PracticeSession.objects.create(player=player, size=len(chosen))
        PracticeExercise.objects.bulk_create([
            PracticeExercise(session=session, number=n, analysis_id=ex["analysis"], key=ex["key"], kind=ex["kind"],
                             data=ex) for n, ex in enumerate(chosen, start=1)])
    return session


def practice_answer(*, player: Player, session_id, exercise_id, choice) -> PracticeExercise:
    """Answer one exercise of the player's session with ``choice`` (a candidate play's key,
    ``no_double``/``double``, or ``take``/``pass``). Refusals: ``session_not_found`` (404,
    also another player's session), ``exercise_not_found`` (404, not in this session),
    ``already_answered`` (409), ``illegal_play`` (422, not one of the candidate plays) and
    ``bad_action`` (400, not a cube action of this exercise)."""
    with transaction.atomic():
        session = (PracticeSession.objects.select_for_update().filter(pk=_int(session_id)).first()
                   if _int(session_id) is not None else None)
        if session is None or player is None or session.player_id != player.pk:
            raise NotFound("session_not_found", gettext("There is no such practice session of yours."))
        exercise = (session.exercises.filter(pk=_int(exercise_id)).first()
                    if _int(exercise_id) is not None else None)
        if exercise is None:
            raise NotFound("exercise_not_found", gettext("There is no such exercise in this session."))
        if exercise.choice is not None:
            raise Conflict("already_answered", gettext("This exercise is already answered."))
        key = str(choice) if isinstance(choice, (str, int)) and not isinstance(choice, bool) else ""
        loss = choice_loss(exercise.data, key)
        if loss is None:
            if exercise.kind == "play":
                raise IllegalChoice("illegal_play", "That play is not one of this position's candidate plays.")
            raise BadRequest("bad_action", gettext("Choose one of this exercise's cube actions."))
        now = timezone.now()
        exercise.choice, exercise.loss, exercise.correct, exercise.answered_at = key, loss, loss <= RIGHT, now
        exercise.save(update_fields=["choice", "loss", "correct", "answered_at"])
        session.answered += 1
        session.correct += int(exercise.correct)
        session.lost += loss
        if session.answered >= session.size:
            session.finished_at = now
        session.save(update_fields=["answered", "correct", "lost", "finished_at"])
    return exercise


class IllegalChoice(BadRequest):
    status = 422


def _int(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None
