"""Match analysis on the site: ask for one, upload a ``.mat`` to analyse, retry, and the
worker's run (``docs/ANALYSIS.md``).

An :class:`~games.models.Analysis` is one match analysed at one depth; the work is a
generic :class:`~games.models.Job` of kind ``analysis`` (``services.jobs``), run in the
workers by :func:`analysis_run`, which analyses the match game by game and reports its
progress. Every finished match is analysed at ``GAMES_ANALYSIS_DEPTH``
(:func:`analysis_after_match`, called by the match's end); its players may ask for
another depth (:func:`analysis_request`); a failed, cancelled or timed-out job keeps its
reason and may be queued again (:func:`analysis_retry`); whoever asked may cancel it
(:func:`analysis_cancel`).

Fair use (``docs/SECURITY.md``, "Fair use"): a player has at most ``GAMES_JOBS_PER_USER``
analyses queued or running (``too_many_jobs``), uploads at most ``GAMES_UPLOAD_LIMIT`` files
per ``GAMES_UPLOAD_WINDOW`` (``upload_limit``), and the same work is done once: a match at a
depth has one analysis, and the same file (its SHA-256) at the same depth shares one job
and one result, whoever uploaded it.
"""

from __future__ import annotations

import hashlib
import time

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.errors import BadRequest, Conflict, Forbidden, Limited, NotFound
from games.models import Analysis, GameEvent, Job, Match, Player
from games.services.jobs import job_cancel, job_retry, job_start, jobs_check_quota, lock_player
from games import conf, throttle
from django.utils.translation import gettext, gettext_noop

from games.engine.errors import Message

__all__ = ["DEPTHS", "KIND", "MatRefused", "add_analysis_done_hook", "analysis_after_match", "analysis_request", "analysis_upload",
           "analysis_retry", "analysis_cancel", "analysis_run", "analysis_events"]

KIND = "analysis"
#: Called with each :class:`~games.models.Analysis` whose result was just stored (registered
#: by :func:`add_analysis_done_hook` from ``GamesConfig.ready``; e.g. a tournament's page
#: shows the new PR).
ANALYSIS_DONE_HOOKS: list = []


def add_analysis_done_hook(hook) -> None:
    """Run ``hook(analysis)`` after every analysis's result is stored (once, however often added)."""
    if hook not in ANALYSIS_DONE_HOOKS:
        ANALYSIS_DONE_HOOKS.append(hook)

DEPTHS = (0, 1, 2, 3)
MAX_UPLOAD_BYTES = 512 * 1024


class MatRefused(BadRequest):
    """An uploaded ``.mat`` that does not replay: the line (1-based, or None) and the reason."""

    status = 422

    def __init__(self, code: str, message: str, line: int | None):
        self.line = line
        super().__init__(code, gettext("Line %(line)s: %(message)s") % {"line": line, "message": message}
                         if line else message)

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "line": self.line}


def default_depth() -> int:
    return int(conf.value("GAMES_ANALYSIS_DEPTH"))


def _depth(depth) -> int:
    if depth is None:
        return default_depth()
    if type(depth) is str and depth.strip().isascii() and depth.strip().isdigit():  # "³".isdigit() too
        depth = int(depth)
    if type(depth) is not int or depth not in DEPTHS:
        raise BadRequest("bad_depth", gettext("The analysis depth is 0, 1, 2 or 3 plies."))
    return depth


def _start(analysis: Analysis, by: Player | None, key: str | None = None) -> Analysis:
    job = job_start(kind=KIND, key=key or f"analysis:{analysis.pk}", params={"analysis": analysis.pk}, by=by)
    analysis.job = job
    analysis.save(update_fields=["job"])
    return analysis


def _create_for_match(match: Match, depth: int, by: Player | None) -> Analysis:
    analysis = Analysis.objects.create(
        source=Analysis.MATCH, match=match, owner=by, depth=depth, length=match.length,
        white_name=match.white.display_name, black_name=match.black.display_name if match.black else "?")
    return _start(analysis, by)


def analysis_after_match(match: Match) -> Analysis | None:
    """The automatic analysis of a match that just finished (inside its transaction; the
    job is queued after the commit). Off when ``GAMES_ANALYSIS_AUTO`` is false."""
    if not conf.value("GAMES_ANALYSIS_AUTO") or match.status != Match.FINISHED:
        return None
    if not GameEvent.objects.filter(game__match=match, type="move").exists():
        return None  # nothing was played (left before the first move): nothing to analyse
    return _create_for_match(match, default_depth(), None)


def analysis_request(*, match_id: int, player: Player | None, depth=None) -> Analysis:
    """A player of a finished match asks for its analysis at ``depth`` (plies). Returns the
    analysis already done, queued or running at that depth if there is one, else a new one."""
    depth = _depth(depth)
    if player is None:
        raise Forbidden("login_required", gettext("Log in to ask for an analysis."))
    with transaction.atomic():
        # of=self: PostgreSQL locks no row of the nullable side of the join (Black's seat)
        match = (Match.objects.select_for_update(of=("self",)).select_related("white", "black")
                 .filter(pk=match_id).first())
        if match is None:
            raise NotFound("match_not_found", gettext("There is no such match."))
        if not match.color_of(player):
            raise Forbidden("not_a_player", gettext("Only the match's players may ask for its analysis."))
        if match.status != Match.FINISHED:
            raise Conflict("match_not_over", gettext("A match is analysed once it is over."))
        same = (Analysis.objects.filter(match=match, depth=depth).select_related("job").order_by("-pk").first())
        if same is not None and (same.job is None or same.job.status not in Job.RETRYABLE):
            if same.job is not None and same.job.status == Job.QUEUED and same.job.created_by_id is None:
                job_start(kind=same.job.kind, key=same.job.key, by=player)  # asked for: moves up the queue
            return same
        lock_player(player)
        jobs_check_quota(player)
        return _create_for_match(match, depth, player)


SIDES = ("", "white", "black", "none")


def analysis_upload(*, player: Player | None, text: str | bytes, depth=None, side: str = "") -> Analysis:
    """Import a Jellyfish ``.mat`` (every move replayed through the engine) and queue its
    analysis. A file that does not replay raises :class:`MatRefused` with the line and the
    reason, and nothing is stored. ``side``: which side the uploader played (``white``,
    ``black``, ``none``; blank: the side with the uploader's name), for practice."""
    from games.interchange.mat_read import MatImportError, import_mat  # noqa: PLC0415 - only for uploads

    depth = _depth(depth)
    side = side or ""
    if side not in SIDES:
        raise BadRequest("bad_side", gettext("The side you played is white, black or none."))
    if player is None:
        raise Forbidden("login_required", gettext("Log in to upload a match."))
    wait = throttle.hit(f"upload:{player.pk}", int(conf.value("GAMES_UPLOAD_LIMIT")),
                        float(conf.value("GAMES_UPLOAD_WINDOW")))
    if wait is not None:
        raise Limited("upload_limit", gettext("You uploaded %(value)s files in the last %(value2)s minutes, the most allowed. Try again in %(wait)s s.")
                % {"value": conf.value('GAMES_UPLOAD_LIMIT'), "value2": format(float(conf.value('GAMES_UPLOAD_WINDOW')) / 60, '.0f'), "wait": wait}, retry_after=wait)
    digest = hashlib.sha256(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")).hexdigest()
    if isinstance(text, bytes):
        if len(text) > MAX_UPLOAD_BYTES:
            raise MatRefused("file_too_large", gettext("A .mat file is at most %(kb)s KB.")
                             % {"kb": MAX_UPLOAD_BYTES // 1024}, None)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            text = text.decode("latin-1")
    if not text.strip():
        raise MatRefused("empty_file", gettext("The file is empty."), None)
    try:
        imported = import_mat(text, max_bytes=MAX_UPLOAD_BYTES)
    except MatImportError as exc:
        raise MatRefused(exc.code, exc.message, exc.line) from None
    if not imported.games:
        raise MatRefused("no_games", gettext("The file holds no game."), None)
    with transaction.atomic():
        lock_player(player)
        same = (Analysis.objects.filter(source=Analysis.UPLOAD, upload_sha256=digest, depth=depth)
                .select_related("job").order_by("-pk"))
        mine = next((a for a in same.filter(owner=player)
                     if a.result is not None or (a.job is not None and a.job.status in Job.ACTIVE)), None)
        if mine is not None:
            return mine  # the same file at the same depth, already done or on its way
        fields = dict(source=Analysis.UPLOAD, owner=player, depth=depth, length=imported.rules.length,
                      white_name=imported.white_name[:40], black_name=imported.black_name[:40], owner_side=side,
                      upload={"games": imported.games, "score": list(imported.score), "winner": imported.winner},
                      upload_sha256=digest)
        done = same.filter(result__isnull=False).first()
        if done is not None:  # someone's upload of the same file: its result, shared
            return Analysis.objects.create(**fields, job=done.job, result=done.result, finished_at=done.finished_at,
                                           white_pr=done.white_pr, black_pr=done.black_pr,
                                           white_decisions=done.white_decisions,
                                           black_decisions=done.black_decisions)
        running = next((a.job for a in same if a.job is not None and a.job.status in Job.ACTIVE), None)
        if running is not None:  # on its way for someone else: the same job, shared
            return Analysis.objects.create(**fields, job=running)
        jobs_check_quota(player)
        analysis = Analysis.objects.create(**fields)
        return _start(analysis, player, key=f"upload:{digest}:{depth}")


def analysis_retry(*, analysis_id: int, player: Player | None) -> Analysis:
    """Queue a failed analysis again (its owner, or a player of its match)."""
    analysis = Analysis.objects.select_related("match", "job").filter(pk=analysis_id).first()
    if analysis is None:
        raise NotFound("analysis_not_found", gettext("There is no such analysis."))
    allowed = player is not None and (analysis.owner_id == player.pk
                                      or (analysis.match is not None and analysis.match.color_of(player)))
    if not allowed:
        raise Forbidden("not_a_player", gettext("Only the match's players may retry its analysis."))
    with transaction.atomic():
        lock_player(player)
        jobs_check_quota(player)
        if analysis.job is None:
            return _start(analysis, player)
        job_retry(job_id=analysis.job_id, by=player)
    return analysis


def analysis_cancel(*, analysis_id: int, player: Player | None) -> Analysis:
    """Cancel a queued or running analysis: only the player who asked for it (the automatic
    analysis of a match is nobody's to cancel), and not a job another player's upload shares."""
    analysis = Analysis.objects.select_related("job").filter(pk=analysis_id).first()
    if analysis is None:
        raise NotFound("analysis_not_found", gettext("There is no such analysis."))
    if player is None or analysis.owner_id != player.pk:
        raise Forbidden("not_owner", gettext("Only the player who asked for this analysis may cancel it."))
    if analysis.job is None or analysis.job.status not in Job.ACTIVE:
        raise Conflict("job_not_active", gettext("Only a queued or running analysis can be cancelled."))
    if Analysis.objects.filter(job=analysis.job).exclude(owner=player).exists():
        raise Conflict("job_shared", gettext("Another player is waiting for the same analysis: it cannot be cancelled."))
    job_cancel(job_id=analysis.job_id)
    return analysis


# -- the worker's side ------------------------------------------------------------------------------


def analysis_events(analysis: Analysis) -> list:
    """Each game's events (``[{"type", "payload", "version"}, ...]``), in order."""
    if analysis.source == Analysis.UPLOAD:
        return [list(g) for g in analysis.upload.get("games", [])]
    games: dict = {}
    rows = (GameEvent.objects.filter(game__match_id=analysis.match_id).order_by("game__number", "version")
            .values_list("game__number", "version", "type", "payload"))
    for number, version, kind, payload in rows:
        games.setdefault(number, []).append({"type": kind, "payload": payload, "version": version})
    return [games[n] for n in sorted(games) if games[n] and games[n][0]["type"] == "game_start"]


def _playable(events: list) -> bool:
    """A game worth analysing: at least one roll was made (an aborted empty game is not)."""
    return any(e["type"] in ("move", "opening_roll") for e in events)


def analysis_run(job: Job, report) -> str:
    """The ``analysis`` job: analyse the match game by game, reporting ``(fraction, message)``
    at most a few times a second; store the result. Raises on a game that cannot be analysed
    (the job then fails with the reason)."""
    from games.analysis import analyse_match  # noqa: PLC0415 - bgsage loads in the workers only

    analysis = Analysis.objects.get(pk=job.params["analysis"])
    games = [g for g in analysis_events(analysis) if _playable(g)]
    if not games:
        raise ValueError("The match has no game with a move to analyse.")
    last = [0.0]

    def progress(fraction: float, message: str) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.3 or fraction >= 1.0:
            last[0] = now
            report(min(0.99, fraction), message)

    report(0.0, Message(gettext_noop("Games to analyse: %(games)s, at %(depth)s-ply"),
                        {"games": len(games), "depth": analysis.depth}))
    result = analyse_match(games, ply=analysis.depth, progress=progress)
    stats = result["stats"]
    Analysis.objects.filter(Q(pk=analysis.pk) | Q(job_id=job.pk)).update(  # and every upload sharing the job
        result=result, finished_at=timezone.now(),
        white_pr=stats["white"]["overall"]["pr"], black_pr=stats["black"]["overall"]["pr"],
        white_decisions=stats["white"]["overall"]["decisions"], black_decisions=stats["black"]["overall"]["decisions"])
    for hook in ANALYSIS_DONE_HOOKS:
        hook(analysis)
    return Message(gettext_noop("Games analysed: %(games)s, at %(depth)s-ply, in %(seconds)s s"),
                   {"games": len(games), "depth": analysis.depth, "seconds": f"{result['seconds']:.1f}"})
