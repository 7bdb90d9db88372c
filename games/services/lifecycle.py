"""The life of a game inside its match: locks, the events of one action, start and end.

Below both ``services.games`` (the actions) and ``services.matches`` (create, join,
leave): they share these pieces and import nothing from each other.

**Lock order** (every path follows it, so two transactions never wait on each other in
a circle): the **match** row first (it serialises every game of the match: a game row
is only written while its match is locked; ``lock_game`` locks the game row after it, in
the same statement, so that one statement reads the game as the last writer left it), then
**queue entries** (a player's own first; another's only with ``skip_locked``, never
waited for), then **player** rows (primary-key order), then the **lobby counter** (bumped
when the commit's batch is built). A row created in the same transaction may be locked
at any point: nobody else can see it. Joins never lock more than meant: every
``select_for_update`` names its table with ``of=``. Rows are locked ``FOR NO KEY
UPDATE`` (``no_key=True``): that serialises writers just the same but does not conflict
with the key-share locks PostgreSQL takes on a row that a new row points to (a new
match's players, a chat line's match), so a transaction that already holds the lobby
counter (pairing two queued players makes and starts a match in one transaction) is
never blocked by a player or match lock (``tests/services/test_lock_order.py``).

**The events of one action** are collected in a :class:`MatchRecord` and written when the
action ends: one insert for all of them, one update per game touched, and one
:class:`~games.events.Batch` published after the commit (``games.services.records``, the
same for chouettes).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.db.models import F
from django.utils import timezone

from games import clock
from games.selectors import serializers
from games.dice import commitment, new_server_seed
from games.engine import MOVE, OPENING, TURN, GameState
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.events import BotTurn, Deadline, envelope, match_group
from games.models import ChatMessage, Connection, Game, GameEvent, Match, Player
from games.selectors.players import bot_level
from games.db.prepared import PreparedRead, insert_rows, insert_rows_and_update, update_fields
from games.ratings import rating_changes
from games.services.analysis import analysis_after_match
from games.services.dice import dice_for
from games.services.lobby import lobby_message
from games.services.players import require_active
from games.services.records import Record, check_version
from games import conf
from games.engine import other
from django.utils.translation import gettext

NO_SHOW = "no_show"  # a match's end reason: absent at its deadline (a tournament round's, a ladder challenge's)
BOTH_ABSENT = "both_absent"  # what :func:`forfeit_no_show` did when neither player came
MAX_OPENING_ROLLS = 100  # a tie re-rolls; 100 ties in a row means the dice source is broken
GAME_FIELDS = ["state", "version", "dice_counter", "status", "winner_color", "points", "result_kind",
               "finished_at", "clock_color", "clock_started_at", "clock_deadline", "clock_warned"]


def player_id_of(player) -> int | None:
    """A player's id, whether given a :class:`Player` or an id."""
    return getattr(player, "pk", player)


# -- locks ----------------------------------------------------------------------------------------


def lock_game(game_id) -> tuple:
    """Lock the game's match and return ``(game, match)``, the match's players (and whether
    they are house bots) read with it, in one query (issue 16: a move costs at most three
    queries, ``tests/services/test_query_count.py``).

    PostgreSQL: the query locks the match row, then the game row (``OF match, game``, in
    that order: the lock order). Locking the game too is what makes one statement enough:
    a statement that waited for a lock returns the newest version of every row it locks,
    but the others as its snapshot saw them, from before the lock holder's commit. Nobody
    waits on the game's lock while holding another: a game row is only written under its
    match's lock (``tests/services/test_concurrency.py`` plays two moves for one turn).
    SQLite: the transaction already holds the database's write lock from its first
    statement (``BEGIN IMMEDIATE``), so the query needs no lock clause.
    """
    game_id = valid_id(game_id, "game_not_found", gettext("No such game."))
    read = _GAME_WITH_MATCH if connection.vendor == "sqlite" else _GAME_WITH_MATCH_LOCKED
    game = read.first(game_id)
    if game is None:
        raise NotFound("game_not_found", gettext("There is no game %(game_id)s.") % {"game_id": game_id})
    return game, game.match


PLAYERS = ("white", "black", "white__housebot", "black__housebot")  # read with the lock

# The lock's queries, compiled once per connection (games.db.prepared: compiling them cost
# more than running them). No ORDER BY: one row.
def _game_with_match(pk):
    return Game.objects.select_related("match", *(f"match__{p}" for p in PLAYERS)).filter(pk=pk).order_by()[:1]


_GAME_WITH_MATCH = PreparedRead(_game_with_match)
_GAME_WITH_MATCH_LOCKED = PreparedRead(lambda pk: _game_with_match(pk).select_for_update(
    of=("match", "self"), no_key=True))
EVENT_FIELDS = ("game", "version", "type", "payload", "actor", "created_at")


def lock_match(match_id=None, invite_code=None) -> Match:
    """Lock and return a match (by id or invite code) with its players."""
    qs = Match.objects.select_related("white", "black").select_for_update(of=("self",), no_key=True)
    try:
        if invite_code is not None:
            return qs.get(invite_code=str(invite_code)[:64])
        return qs.get(pk=valid_id(match_id, "match_not_found", gettext("No such match.")))
    except Match.DoesNotExist:
        raise NotFound("match_not_found", gettext("No such match.")) from None


def valid_id(value, code: str, message: str) -> int:
    """A database id (a positive 64-bit integer), or :class:`NotFound` with ``code``."""
    if type(value) is not int:
        try:
            value = int(value)
        except (TypeError, ValueError, OverflowError):
            raise NotFound(code, message) from None
    if not 0 < value < 2**63:
        raise NotFound(code, message)
    return value


def current_game(match: Match) -> Game | None:
    """The match's game in progress (the caller holds the match lock)."""
    game = match.games.filter(status=Game.PLAYING).order_by("-number").first()
    if game is not None:
        game.match = match
    return game


# -- who acts -------------------------------------------------------------------------------------


def seat_of(match: Match, player) -> str:
    """``player``'s colour in ``match``, refusing outsiders and (read fresh under the lock)
    suspended players."""
    color = match.color_of(player_id_of(player))
    if color is None:
        if player is None:
            raise Forbidden("not_logged_in", gettext("Log in to play."))
        raise Forbidden("not_a_player", gettext("You are not playing in this game."))
    require_active(match.player_of(color))
    return color


# -- the events of one action ----------------------------------------------------------------------


class MatchRecord(Record):
    """The events one action writes in a match, built once.

    ``add`` numbers an event (each game numbers its own) and keeps the state after it;
    ``commit`` (at the end of the action, inside its transaction) writes every event in one
    insert, each touched game in one update (on PostgreSQL the insert and the first game's
    update are one statement), and publishes one batch after the commit.
    """

    def __init__(self, match: Match):
        super().__init__(match_group(match.pk))
        self.match = match
        self.games = {}  # game id -> game, in the order first touched
        self.lobby_dirty = False

    def add(self, game: Game, kind: str, payload: dict, *, state: GameState | None, actor=None) -> None:
        game.version += 1
        self.games.setdefault(game.pk, game)
        self.items.append((game, game.version, kind, payload, player_id_of(actor), state))

    def lobby_changed(self) -> None:
        """The match's lobby entry changed (opened, started, scored, ended): the lobby gets
        one numbered message for it at commit."""
        self.lobby_dirty = True

    def write(self) -> list:
        rows = [GameEvent(game_id=game.pk, version=version, type=kind, payload=payload, actor_id=actor)
                for game, version, kind, payload, actor, _ in self.items]
        games = list(self.games.values())
        if games:  # the events and the first game in one statement where the database allows it
            insert_rows_and_update(rows, EVENT_FIELDS, games[0], GAME_FIELDS)
        else:
            insert_rows(rows, EVENT_FIELDS)
        for game in games[1:]:
            update_fields(game, GAME_FIELDS)
        return rows

    def lobby(self) -> dict | None:
        return lobby_message(self.match) if self.lobby_dirty else None

    def envelopes(self, rows: list) -> list:
        out = []
        last_of = {game.pk: i for i, (game, *_rest) in enumerate(self.items)}
        for i, (row, (game, _v, _k, _p, _a, state)) in enumerate(zip(rows, self.items)):
            summary = legal = legal_for = None
            if state is not None:
                summary = serializers.state_summary(game, self.match, state)
                if last_of[game.pk] == i:
                    legal_for, legal = serializers.legal_json(state)
            out.append(envelope(row, state=summary, legal_json=legal, legal_for=legal_for))
        return out

    def work(self) -> list:
        """Who must act next in the match's current game: a house bot, a running clock."""
        game = list(self.games.values())[-1]
        if game.status != Game.PLAYING:
            return []
        out = []
        actor = game.game_state().actor
        if actor is not None:
            level = bot_level(self.match.player_of(actor))
            if level is not None:
                out.append(BotTurn(game.pk, game.version, level))
        if game.clock_deadline is not None and not clock.is_correspondence(self.match):
            # (a correspondence deadline is days away: the periodic sweep finds it by its index)
            out.append(Deadline(game.pk, game.version, game.clock_deadline))
        return out


# -- a game's state ------------------------------------------------------------------------------


def store_state(game: Game, match: Match, state: GameState) -> None:
    """Keep ``state`` on the game (written at commit) and start the clock of whoever acts next."""
    game.set_game_state(state)
    clock.start(game, match, state.actor if not state.is_over else None, clock.now())


def roll(record: Record, game: Game, state: GameState, *, auto: bool, action) -> GameState:
    """The side on roll rolls (``action``: the ``roll`` action of ``games.engine.actions``)."""
    source = dice_for(game)
    counter = source.counter
    dice = source.roll()
    game.dice_counter = source.counter
    color = state.position.turn
    fields = {"dice": dice, "counter": counter, "auto": auto}
    after = action.run(state, color, fields)
    record.add(game, "roll", action.event_payload(state, after, color, fields), state=after)
    return after


def auto_advance(record: Record, game: Game, state: GameState, match: Match | None = None) -> GameState:
    """Roll for the side on roll when it has no cube decision to make (seed 000:
    "two dice are rolled automatically"). In a correspondence match the server also plays
    every forced play (one legal play, a dance included) and goes on rolling, so that
    nobody waits days for a turn without a choice (docs/CORRESPONDENCE.md)."""
    from games.engine.actions import ACTIONS

    corr = match is not None and clock.is_correspondence(match)
    for _ in range(200 if corr else 1):
        if state.phase == TURN and not state.needs_decision():
            state = roll(record, game, state, auto=True, action=ACTIONS["roll"])
        if not corr or state.phase != MOVE:
            break
        plays = state.legal_plays()
        if len(plays) != 1:
            break
        state = play_forced(record, game, state, plays[0], ACTIONS["move"])
        if state.is_over:
            break
    return state


def play_forced(record: Record, game: Game, state: GameState, play, action) -> GameState:
    """The server plays the only legal play for the side on roll (an ``auto`` move event)."""
    color = state.actor
    fields = {"moves": [s.to_dict() for s in play.steps]}
    after = action.run(state, color, fields)
    record.add(game, "move", {**action.event_payload(state, after, color, fields), "auto": True}, state=after)
    return after


# -- starting and ending games ---------------------------------------------------------------------


def create_game(match: Match, number: int) -> Game:
    """The match's game ``number``, with its secret dice seed (its events come from
    :func:`open_game`). The caller holds the match lock."""
    state = GameState.new(match.match_state().game_rules())
    seed = new_server_seed()
    game = Game.objects.create(match=match, number=number, state=state.to_dict(), dice_seed=seed,
                               dice_commitment=commitment(seed))
    game.match = match
    return game


def open_game(record: Record, match: Match, game: Game) -> None:
    """Publish the new game's dice commitment and roll the opening."""
    state = game.game_state()
    if match.length == 0 and clock.has_clock(match):  # a money session's bank is per game
        match.white_bank_ms = match.black_bank_ms = clock.initial_bank_ms(match)
        match.save(update_fields=["white_bank_ms", "black_bank_ms"])
    record.add(game, "game_start", {
        "number": game.number,
        "rules": state.rules.to_dict(),
        "position": state.position.to_dict(),
        "diceCommitment": game.dice_commitment,
        "matchLength": match.length,
        "score": [match.white_score, match.black_score],
        "crawfordGame": state.rules.crawford_game,
    }, state=None)
    source = dice_for(game)
    for _ in range(MAX_OPENING_ROLLS):
        counters = [source.counter]
        white = source.die()
        counters.append(source.counter)
        black = source.die()
        game.dice_counter = source.counter
        state = state.opening_roll(white, black)
        record.add(game, "opening_roll", {
            "white": white, "black": black, "counters": counters,
            "first": state.position.turn if state.phase != OPENING else None,
            "cubeValue": state.cube_value,
        }, state=state)
        if state.phase != OPENING:
            break
    else:  # pragma: no cover - needs a broken dice source
        raise RuntimeError("The opening roll tied 100 times: the dice source is broken.")
    state = auto_advance(record, game, state, match) if clock.is_correspondence(match) else state
    store_state(game, match, state)
    if game.number > 1 and game.clock_started_at is not None:
        # The players look at the last game's end for GAMES_NEXT_GAME_DELAY seconds (the page
        # holds the next game back until then): the first clock of the game starts after it.
        pause = timedelta(seconds=float(conf.value("GAMES_NEXT_GAME_DELAY")))
        game.clock_started_at += pause
        game.clock_deadline += pause


def finish_game(record: Record, game: Game, match: Match, state: GameState, *,
                end_match_as: tuple | None = None) -> None:
    """Record a finished game in its match, then start the next game or end the match.

    ``end_match_as`` = ``(winner colour or None, reason, status)`` ends the match
    whatever the score (a forfeit or an abort). The caller holds the match lock.
    """
    result = state.result
    game.status = Game.FINISHED
    game.winner_color = result.winner or ""
    game.points = result.points
    game.result_kind = result.kind
    game.finished_at = timezone.now()
    store_state(game, match, state)

    match_winner = None
    if result.reason != "aborted":
        match_state = match.match_state().record(result)
        match_winner = match_state.winner
        match.white_score, match.black_score = match_state.score
        match.games_played = match_state.games_played
        match.crawford_game = match_state.is_crawford_game
        match.crawford_done = match_state.crawford_done
        match.save(update_fields=["white_score", "black_score", "games_played", "crawford_game", "crawford_done"])
        record.lobby_changed()
        for color in ("white", "black"):
            Player.objects.filter(pk=match.player_of(color).pk).update(
                games_played=F("games_played") + 1,
                games_won=F("games_won") + (1 if result.winner == color else 0),
            )
    if end_match_as is not None:
        winner, reason, status = end_match_as
        end_match(record, match, winner_color=winner, reason=reason, status=status)
    elif match_winner is not None:
        end_match(record, match, winner_color=match_winner, reason="points")
    next_game = None
    if match.status == Match.PLAYING:
        next_game = create_game(match, game.number + 1)
    record.add(game, "game_end", {
        **result.to_dict(),
        "score": [match.white_score, match.black_score],
        "matchOver": match.status in (Match.FINISHED, Match.ABORTED),
        "matchWinner": match.color_of(match.winner_id) if match.winner_id else None,
        "matchReason": match.end_reason if match.status in (Match.FINISHED, Match.ABORTED) else None,
        "ratingChanges": getattr(match, "rating_changes", None),
        "nextGame": next_game.pk if next_game else None,
        "diceSeed": game.dice_seed,
    }, state=None)
    if next_game is not None:
        open_game(record, match, next_game)


#: Called with each match that ends (finished or aborted), inside its transaction, after
#: the match row is written: ``services.tournament_play`` files a tournament match's
#: result there (a list, so that this module imports nothing above it; filled by
#: :func:`add_match_end_hook` from ``GamesConfig.ready``).
MATCH_END_HOOKS: list = []


def add_match_end_hook(hook) -> None:
    """Run ``hook(match)`` at the end of every match (once, however often it is added)."""
    if hook not in MATCH_END_HOOKS:
        MATCH_END_HOOKS.append(hook)


def end_match(record: Record, match: Match, *, winner_color: str | None, reason: str,
              status: str = Match.FINISHED) -> None:
    """Close the match; count it for both players and update ratings when rated, then
    run :data:`MATCH_END_HOOKS`. The caller holds the match lock; players are locked
    after it, in id order (then a tournament's row, by the hook)."""
    match.status = status
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.winner = match.player_of(winner_color) if winner_color else None
    match.save(update_fields=["status", "end_reason", "finished_at", "winner"])
    record.lobby_changed()
    if status == Match.FINISHED:
        _count_and_rate(match)
    for hook in MATCH_END_HOOKS:
        hook(match)


def _count_and_rate(match: Match) -> None:
    ids = sorted([match.white_id, match.black_id])
    locked = {p.pk: p for p in Player.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")}
    for pid in ids:
        Player.objects.filter(pk=pid).update(
            matches_played=F("matches_played") + 1,
            matches_won=F("matches_won") + (1 if match.winner_id == pid else 0),
        )
    if match.rated and match.length > 0 and match.winner_id is not None:
        winner = locked[match.winner_id]
        loser = locked[match.black_id if match.winner_id == match.white_id else match.white_id]
        gain, loss = rating_changes(winner.rating, loser.rating, match.length,
                                    winner_experience=winner.experience, loser_experience=loser.experience)
        Player.objects.filter(pk=winner.pk).update(rating=F("rating") + gain, experience=F("experience") + match.length)
        Player.objects.filter(pk=loser.pk).update(rating=F("rating") + loss, experience=F("experience") + match.length)
        # what the match-end event tells both players: each one's change and new rating
        match.rating_changes = {match.color_of(p.pk): {"change": round(delta, 1), "rating": round(p.rating + delta, 1)}
                                for p, delta in ((winner, gain), (loser, loss))}
    analysis_after_match(match)  # queued for the workers after the commit


def forfeit_match(record: Record, match: Match, color: str, reason: str, *, game: Game | None = None) -> None:
    """``color`` loses the match (leaving, time, absence, suspension): the opponent is
    awarded a match to N points, the game in progress scoring nothing (the score stays
    the one reached by play); in a money session the game in progress is lost at its
    stakes and the session just ends. The caller holds the match lock."""
    game = game or current_game(match)
    winner = None if match.length == 0 else (other(color))
    if game is None:  # pragma: no cover - a playing match always has a game in progress
        end_match(record, match, winner_color=winner, reason=reason)
        return
    scored = match.length == 0
    state = game.game_state().forfeit(color, scored=scored)
    payload = {"color": color, "reason": reason} if scored else {"color": color, "reason": reason, "scored": False}
    record.add(game, "forfeit", payload, state=state, actor=match.player_of(color))
    finish_game(record, game, match, state, end_match_as=(winner, reason, Match.FINISHED))


def time_out(record: Record, game: Game, match: Match) -> None:
    """The player whose clock ran out loses the match (the caller holds the lock)."""
    forfeit_match(record, match, game.clock_color, "timeout", game=game)


def abort_game(record: Record, game: Game, match: Match, reason: str) -> None:
    """Abort ``game`` and its match (an administrator's action; the caller holds the lock)."""
    state = game.game_state().abort()
    record.add(game, "abort", {"reason": reason}, state=state)
    finish_game(record, game, match, state, end_match_as=(None, "aborted", Match.ABORTED))


def came(match: Match, player_id: int) -> bool:
    """Whether a player came to their match: acted in it, wrote in its chat or has it open now."""
    return (GameEvent.objects.filter(game__match=match, actor_id=player_id).exists()
            or ChatMessage.objects.filter(match=match, author_id=player_id).exists()
            or Connection.objects.filter(match=match, player_id=player_id).exists())


def forfeit_no_show(match: Match, *, both_reason: str, before_abort=None) -> str | None:
    """At a match's deadline (the caller holds the match lock): a player who never came
    forfeits it (:data:`NO_SHOW`); both absent aborts it (``both_reason``; ``before_abort()``
    runs first, for what the match's end must already see); both came: it goes on (None).
    Returns what was done: ``NO_SHOW``, :data:`BOTH_ABSENT` or None."""
    absent = [color for color in ("white", "black") if not came(match, match.player_of(color).pk)]
    if not absent:
        return None
    record = MatchRecord(match)
    if len(absent) == 2:
        if before_abort is not None:
            before_abort()
        abort_game(record, current_game(match), match, both_reason)
    else:
        forfeit_match(record, match, absent[0], NO_SHOW)
    record.lobby_changed()
    record.commit()
    return BOTH_ABSENT if len(absent) == 2 else NO_SHOW
