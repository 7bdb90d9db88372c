"""The single write path of the site.

Consumers, views, the bot API, admin actions, tasks and bots all call these functions;
nothing else writes game state. Each function is one transaction with the match row
locked (the lock order is in ``services.lifecycle``), raises a typed error
(``games.errors`` or the engine's) with a stable code when it refuses, and publishes its
events only after commit (``games.events``).

Every player action in a game goes through :func:`game_act` (``action`` is a name from
``games.engine.actions``); ``game_move``, ``game_roll``... are the same call with the name filled in.
"""

from games.services.agents import (
    agent_register,
    house_bot,
    house_bot_level,
    match_vs_bot,
    queue_expire,
    queue_join,
    queue_leave,
    queue_status,
)
from games.services.chouette_social import chouette_chat, chouette_presence, chouette_suggest
from games.services.chouettes import (
    chouette_act,
    chouette_add_bot,
    chouette_create,
    chouette_drop_absent_movers,
    chouette_expire_deadlines,
    chouette_join,
    chouette_leave,
    chouette_restart,
    chouette_start,
    chouette_timeout,
    chouettes_bots_waiting,
)
from games.services.analysis import analysis_request, analysis_retry, analysis_upload
from games.services.practice import practice_answer, practice_start
from games.services.dice import dice_for, use_dice
from games.services.games import (
    game_abort,
    game_act,
    game_beaver,
    game_double,
    game_drop,
    game_move,
    game_raccoon,
    game_resign,
    game_resign_accept,
    game_resign_offer,
    game_resign_reject,
    game_roll,
    game_take,
)
from games.services.matches import match_abort, match_create, match_join, match_leave
from games.services.guests import guest_claim, guest_create, guest_join
from games.services.moderation import player_end_matches, player_set_suspended
from games.services.players import player_for_user, player_register
from games.services.preferences import player_update_settings
from games.services.vacations import player_vacation_start
from games.services.notify import digests_send
from games.services.push import push_subscribe, push_unsubscribe
from games.services.notices import (
    email_verification_send,
    email_verify,
    notices_send,
    notices_unsubscribe,
    player_set_email,
)
from games.services.social import (
    chat_post,
    match_claim,
    match_rematch,
    presence_heartbeat,
    presence_join,
    presence_leave,
)
from games.services.clubs import (
    club_create,
    club_join,
    club_leave,
    club_remove_member,
    club_renew_invite,
    club_set_role,
    club_tournament_create,
    club_update,
)
from games.services.club_ladder import club_challenge, club_expire_challenges
from games.services.tournament_play import forfeit_absent, tournament_expire_deadlines, tournament_tick
from games.services.tournament_series import series_schedule, tournament_series_create
from games.services.tournament_director import tournament_award, tournament_pause, tournament_repair, tournament_resume
from games.services.tournaments import (
    tournament_add_bots,
    tournament_cancel,
    tournament_check_in,
    tournament_director_withdraw,
    tournament_disqualify,
    tournament_create,
    tournament_create_site,
    tournament_enter,
    tournament_start,
    tournament_start_due,
    tournament_withdraw,
)
from games.services.sweeps import (
    bots_waiting,
    close_abandoned,
    expire_clock,
    expire_clocks,
    sweep,
    sweep_presence,
)


__all__ = [
    "agent_register", "house_bot", "house_bot_level", "match_vs_bot", "queue_expire", "queue_join",
    "queue_leave", "queue_status",
    "chouette_chat", "chouette_presence", "chouette_suggest", "chouette_act", "chouette_add_bot",
    "chouette_create", "chouette_drop_absent_movers", "chouette_expire_deadlines", "chouette_join", "chouette_leave", "chouette_restart",
    "chouette_start", "chouette_timeout", "chouettes_bots_waiting",
    "analysis_request", "analysis_retry", "analysis_upload", "practice_start", "practice_answer",
    "dice_for", "use_dice",
    "game_act", "game_abort", "game_roll", "game_move", "game_double", "game_take", "game_drop", "game_beaver",
    "game_raccoon", "game_resign_offer", "game_resign_accept", "game_resign_reject", "game_resign",
    "match_abort", "match_create", "match_join", "match_leave",
    "player_for_user", "player_register", "player_set_suspended", "player_end_matches",
    "player_update_settings", "email_verification_send", "email_verify", "notices_send", "notices_unsubscribe",
    "player_set_email", "player_vacation_start", "digests_send", "push_subscribe", "push_unsubscribe",
    "guest_claim", "guest_create", "guest_join",
    "chat_post", "match_claim", "match_rematch", "presence_heartbeat",
    "presence_join", "presence_leave",
    "series_schedule", "tournament_series_create", "forfeit_absent", "tournament_expire_deadlines", "tournament_tick", "tournament_add_bots", "tournament_cancel",
    "tournament_create", "tournament_create_site", "tournament_enter", "tournament_start", "tournament_start_due", "tournament_withdraw",
    "club_create", "club_join", "club_leave", "club_remove_member", "club_renew_invite", "club_set_role",
    "club_tournament_create", "club_update", "club_challenge", "club_expire_challenges",
    "tournament_award", "tournament_pause", "tournament_repair", "tournament_resume", "tournament_check_in",
    "tournament_director_withdraw", "tournament_disqualify",
    "bots_waiting", "close_abandoned", "expire_clock", "expire_clocks", "sweep", "sweep_presence",
]
