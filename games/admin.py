"""The Django admin: a read-only window on players, matches, games and events.

The admin never edits game state. Every model here is read-only; the only
writes are actions (suspend/unsuspend players, abort matches), and each calls
the service layer (``games.services``) exactly as the rest of the site does.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin as DjangoGroupAdmin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import Group
from django.http import HttpResponseBadRequest
from django.utils.html import format_html

from games.selectors import games as selectors
from games import services
from games.engine.errors import EngineError
from games.errors import ServiceError
from games.models import ChatMessage, Game, GameEvent, Match, Player
from games.selectors.redact import is_secret_lookup

User = get_user_model()

PLAYER_STATS = ("display_name", "rating", "experience", "games_played", "games_won", "matches_played",
                "matches_won", "is_bot", "suspended", "created_at")


# -- shared pieces -------------------------------------------------------------------------


class NoSecretsMixin:
    """No lookup, filter, search or ordering on a secret field (``games.selectors.redact``: a running
    game's dice seed, key and password hashes), on this model or through a relation. A
    changelist asked for one answers 400 ``secret_field`` before any query runs, the same
    answer whatever the value, so it cannot be used as an oracle."""

    def lookup_allowed(self, lookup, value, request=None):
        if is_secret_lookup(lookup):
            return False
        return super().lookup_allowed(lookup, value, request)

    def changelist_view(self, request, extra_context=None):
        if any(is_secret_lookup(key) for key in request.GET):
            return HttpResponseBadRequest("secret_field: secret fields cannot be filtered, searched or sorted on.",
                                          content_type="text/plain; charset=utf-8")
        return super().changelist_view(request, extra_context)

    def get_search_fields(self, request):
        return [f for f in super().get_search_fields(request) if not is_secret_lookup(f)]

    def get_list_filter(self, request):
        return [f for f in super().get_list_filter(request) if not (isinstance(f, str) and is_secret_lookup(f))]

    def get_ordering(self, request):
        return [f for f in (super().get_ordering(request) or ()) if not (isinstance(f, str) and is_secret_lookup(f))]


class ReadOnlyMixin(NoSecretsMixin):
    """Every field read-only; no add, change or delete (viewing needs the view permission)."""

    def get_readonly_fields(self, request, obj=None):
        names = [f.name for f in self.model._meta.get_fields() if f.concrete and not f.auto_created]
        return [*names, *getattr(self, "extra_readonly_fields", ())]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class LeadFieldsMixin:
    """Show ``lead_fields`` first, then every other field of the model (so new fields appear)."""

    lead_fields: tuple = ()

    def get_fieldsets(self, request, obj=None):
        rest = [name for name in self.get_readonly_fields(request, obj) if name not in self.lead_fields]
        return [(None, {"fields": self.lead_fields}), ("Details", {"fields": rest})]


def _refusal(exc: Exception) -> str:
    return getattr(exc, "message", "") or str(exc)


def game_position_ids(game: Game) -> dict:
    """The Position ID and full gnubg id of ``game`` within its match (length and score)."""
    match = game.match
    return selectors.position_ids(game.game_state(), length=match.length,
                                  score=selectors.score_at_start(game, match))


def position_ids_html(game: Game | None):
    """The game's GNU Backgammon Position ID and full gnubg id, or a dash."""
    if game is None:
        return "—"
    ids = game_position_ids(game)
    return format_html(
        "Position ID <code>{}</code><br>GNU Backgammon ID <code>{}</code>",
        ids["positionId"], ids["gnubgId"],
    )


# -- players and users -------------------------------------------------------------------------


class PlayerInline(ReadOnlyMixin, admin.StackedInline):
    model = Player
    fk_name = "user"
    can_delete = False
    fields = PLAYER_STATS
    verbose_name_plural = "player profile"

    def get_readonly_fields(self, request, obj=None):
        return PLAYER_STATS


admin.site.unregister(User)
admin.site.unregister(Group)


@admin.register(Group)
class GroupAdmin(NoSecretsMixin, DjangoGroupAdmin):
    """Django's group admin, with no lookup through to users' password hashes."""


@admin.register(User)
class UserAdmin(NoSecretsMixin, DjangoUserAdmin):
    """Django's user admin with the player profile shown read-only beneath."""

    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("display_name", "user", "rating_display", "experience", "matches_played", "matches_won",
                    "is_bot", "suspended")
    list_filter = ("is_bot", "suspended")
    search_fields = ("display_name", "user__username", "user__email")
    list_select_related = ("user",)
    ordering = ("display_name",)
    actions = ("suspend_players", "unsuspend_players")

    @admin.display(description="rating", ordering="rating")
    def rating_display(self, player):
        return f"{player.rating:.1f}"

    def has_suspend_permission(self, request):
        return request.user.has_perm("games.change_player")

    @admin.action(description="Suspend selected players", permissions=["suspend"])
    def suspend_players(self, request, queryset):
        self._set_suspended(request, queryset, True)

    @admin.action(description="Unsuspend selected players", permissions=["suspend"])
    def unsuspend_players(self, request, queryset):
        self._set_suspended(request, queryset, False)

    def _set_suspended(self, request, queryset, suspended: bool):
        verb = "Suspended" if suspended else "Unsuspended"
        names = []
        for player in queryset.select_related("user"):
            try:
                services.player_set_suspended(player=player, suspended=suspended)
            except (ServiceError, EngineError) as exc:
                self.message_user(request, f"{player}: {_refusal(exc)}", messages.ERROR)
            else:
                names.append(str(player))
        if names:
            ended = " Their running matches were forfeited, open ones cancelled." if suspended else ""
            self.message_user(request, f"{verb} {len(names)} player(s): {', '.join(names)}.{ended}", messages.SUCCESS)


# -- matches -------------------------------------------------------------------------------------


class GameInline(ReadOnlyMixin, admin.TabularInline):
    model = Game
    fields = ("number", "status", "winner_color", "points", "result_kind", "version", "started_at", "finished_at")
    show_change_link = True
    extra = 0

    def get_readonly_fields(self, request, obj=None):
        return self.fields


@admin.register(Match)
class MatchAdmin(LeadFieldsMixin, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "white", "black", "length", "score", "status", "created_at")
    list_filter = ("status", "length", "private", "rated")
    search_fields = ("white__display_name", "black__display_name", "white__user__username",
                     "black__user__username")
    list_select_related = ("white", "black")
    date_hierarchy = "created_at"
    inlines = [GameInline]
    actions = ("abort_matches",)
    extra_readonly_fields = ("score", "current_position")
    lead_fields = ("status", "white", "black", "length", "score", "current_position", "winner", "end_reason",
                   "created_at", "started_at", "finished_at")

    @admin.display(description="score")
    def score(self, match):
        return f"{match.white_score}–{match.black_score}"

    @admin.display(description="current game")
    def current_position(self, match):
        game = selectors.current_game(match)
        if game is None:
            return "—"
        return format_html("Game {} ({})<br>{}", game.number, game.get_status_display(), position_ids_html(game))

    def has_abort_permission(self, request):
        return request.user.has_perm("games.change_match")

    @admin.action(description="Abort selected matches", permissions=["abort"])
    def abort_matches(self, request, queryset):
        aborted = []
        for match_id in queryset.order_by("pk").values_list("pk", flat=True):
            try:
                services.match_abort(match_id=match_id)
            except (ServiceError, EngineError) as exc:
                self.message_user(request, f"Match #{match_id}: {_refusal(exc)}", messages.ERROR)
            else:
                aborted.append(f"#{match_id}")
        if aborted:
            self.message_user(request, f"Aborted {len(aborted)} match(es): {', '.join(aborted)}.",
                              messages.SUCCESS)


# -- games and their events ---------------------------------------------------------------------------


class GameEventInline(ReadOnlyMixin, admin.TabularInline):
    model = GameEvent
    fields = ("version", "type", "actor", "payload", "created_at")
    ordering = ("version",)
    extra = 0

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("actor")


@admin.register(Game)
class GameAdmin(LeadFieldsMixin, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "match", "number", "status", "winner_color", "points", "version")
    list_filter = ("status",)
    search_fields = ("=id", "=match__id")
    list_select_related = ("match", "match__white", "match__black")
    inlines = [GameEventInline]
    extra_readonly_fields = ("current_position", "seed")
    lead_fields = ("match", "number", "status", "version", "current_position", "winner_color", "points",
                   "result_kind", "started_at", "finished_at", "dice_commitment", "seed", "dice_counter")

    def get_readonly_fields(self, request, obj=None):
        # the raw seed is shown through ``seed``, hidden while the game is being played
        return [name for name in super().get_readonly_fields(request, obj) if name != "dice_seed"]

    @admin.display(description="position")
    def current_position(self, game):
        return position_ids_html(game)

    @admin.display(description="dice seed")
    def seed(self, game):
        # The seed decides every future roll: keep it out of sight until the game ends.
        return game.dice_seed if game.status == Game.FINISHED else "(revealed when the game ends)"


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "game", "version", "type", "actor", "created_at")
    list_filter = ("type",)
    search_fields = ("=game__id",)
    list_select_related = ("game", "actor")
    ordering = ("game_id", "version")


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Chat lines, for moderators to read (players' room and spectators' room)."""

    list_display = ("id", "match", "room", "name", "text", "created_at")
    list_filter = ("room",)
    search_fields = ("=match__id", "name", "text")
    list_select_related = ("match",)


# -- the bot API: agents, house bots, the matchmaking queue (read-only) -----------------------

from games.models import Agent, HouseBot, QueueEntry  # noqa: E402


@admin.register(Agent)
class AgentAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("player", "key_prefix", "created_at")
    search_fields = ("player__display_name", "key_prefix")
    exclude = ("key_hash",)

    def get_readonly_fields(self, request, obj=None):
        return [name for name in super().get_readonly_fields(request, obj) if name != "key_hash"]


@admin.register(HouseBot)
class HouseBotAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("level", "number", "player")


@admin.register(QueueEntry)
class QueueEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("player", "game", "length", "status", "match", "queued_at", "seen_at")
    list_filter = ("status", "length")


# -- the workers: long jobs and periodic work (read-only) ---------------------------------------

from games.models import Job, PeriodicRun  # noqa: E402


@admin.register(Job)
class JobAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Background jobs with their progress; a failed job shows why."""

    list_display = ("id", "kind", "key", "status", "progress", "message", "attempts", "created_at", "finished_at")
    list_filter = ("status", "kind")
    search_fields = ("key",)


@admin.register(PeriodicRun)
class PeriodicRunAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """One row per run of each periodic job: which worker ran it and what it did."""

    list_display = ("name", "period", "worker", "ran_at", "result")
    list_filter = ("name",)


# -- tournaments (read-only: every change goes through games.services.tournaments) -------------

from games.models import Entry, Tournament, TournamentMatch, TournamentSeries  # noqa: E402


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "name", "format", "status", "starts_at", "winner", "series", "created_at")
    list_filter = ("status", "format")
    search_fields = ("name",)


@admin.register(Entry)
class EntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("tournament", "player", "status", "created_at")
    list_filter = ("status",)
    list_select_related = ("tournament", "player")


@admin.register(TournamentMatch)
class TournamentMatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("tournament", "key", "label", "match", "deadline", "forced", "replaced")
    list_select_related = ("tournament", "match")


@admin.register(TournamentSeries)
class TournamentSeriesAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("name", "format", "rrule", "first_start", "last_start", "active")


# -- clubs (read-only: every change goes through games.services.clubs; the invite token is not shown) ---

from games.models import Challenge, Club, Membership  # noqa: E402


@admin.register(Club)
class ClubAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "name", "ladder_reach", "match_length", "challenge_hours", "created_by", "created_at")
    search_fields = ("name",)
    actions = ("renew_invites",)

    def get_readonly_fields(self, request, obj=None):
        return [name for name in super().get_readonly_fields(request, obj) if name != "invite_token"]

    def get_fields(self, request, obj=None):
        return [name for name in super().get_fields(request, obj) if name != "invite_token"]

    def has_renew_permission(self, request):
        return request.user.has_perm("games.change_club")

    @admin.action(description="Renew the invite link (the old one stops working)", permissions=["renew"])
    def renew_invites(self, request, queryset):
        for club_id in queryset.order_by("pk").values_list("pk", flat=True):
            services.club_renew_invite(club_id=club_id, by=None)
        self.message_user(request, f"{queryset.count()} invite link(s) renewed.", messages.SUCCESS)


@admin.register(Membership)
class MembershipAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("club", "position", "player", "role", "joined_at")
    list_filter = ("role",)
    list_select_related = ("club", "player")


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("club", "challenger", "defender", "status", "match", "deadline", "winner", "swapped")
    list_filter = ("status",)
    list_select_related = ("club", "challenger", "defender", "match", "winner")
