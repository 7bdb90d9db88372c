from django.urls import path
from django.views.i18n import JavaScriptCatalog

from games.views import analysis as analysis_views, chouettes as chouette_pages, notices as notice_pages, pages as views
from games.views import practice as practice_views, turns as turn_pages
from games.views.language import language
from games.views import clubs as club_pages
from games.views import tournaments as tournament_pages

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("games/<int:game_id>/verify/", views.game_verify, name="game_verify"),
    path("matches/<int:match_id>/export.mat", views.match_export_mat, name="match_export_mat"),
    # the browser client's pages
    path("matches/new/", views.match_new, name="match_new"),
    path("matches/", turn_pages.my_matches, name="my_matches"),
    path("matches/next/", turn_pages.next_match, name="next_match"),
    path("matches/<int:match_id>/", views.match_waiting, name="match_waiting"),
    path("matches/<int:match_id>/status.json", views.match_status_json, name="match_status"),
    path("matches/<int:match_id>/join/", views.match_join_public, name="match_join"),
    path("join/<str:invite_code>/", views.match_invite, name="match_invite"),
    path("play/computer/", views.play_computer, name="play_computer"),
    path("play/now/", views.play_now_page, name="play_now_page"),
    path("play/now/join/", views.play_now, name="play_now"),
    path("play/now/status.json", views.play_now_status, name="play_now_status"),
    path("play/now/leave/", views.play_now_leave, name="play_now_leave"),
    path("games/<int:game_id>/", views.game_page, name="game_page"),
    path("games/<int:game_id>/replay/", views.game_replay, name="game_replay"),
    path("games/<int:game_id>/replay.json", views.game_replay_json, name="game_replay_json"),
    path("players/<int:player_id>/", views.player_profile, name="player_profile"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("settings/", views.settings_page, name="settings"),
    path("settings.json", views.settings_json, name="settings_json"),
    path("language/", language, name="language"),
    # The browser's strings in the page's language (static/js/lib/i18n.mjs reads them).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript_catalog"),
    path("settings/email/", notice_pages.email_set, name="email_set"),
    path("settings/vacation/", notice_pages.vacation_start, name="vacation_start"),
    path("accounts/verify-email/", notice_pages.email_verify_send, name="email_verify_send"),
    path("accounts/verify-email/<str:token>/", notice_pages.email_verify, name="email_verify"),
    path("notices/unsubscribe/<str:token>/", notice_pages.unsubscribe, name="unsubscribe"),
    path("push/subscribe", notice_pages.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe", notice_pages.push_unsubscribe, name="push_unsubscribe"),
    path("sw.js", notice_pages.service_worker, name="service_worker"),
    # chouettes
    path("chouettes/", chouette_pages.chouette_list, name="chouette_list"),
    path("chouettes/new/", chouette_pages.chouette_new, name="chouette_new"),
    path("chouettes/<int:chouette_id>/", chouette_pages.chouette_page, name="chouette_page"),
    path("chouettes/<int:chouette_id>/history/", chouette_pages.chouette_history, name="chouette_history"),
    path("chouettes/<int:chouette_id>/log.txt", chouette_pages.chouette_log, name="chouette_log"),
    path("chouettes/join/<str:invite_code>/", chouette_pages.chouette_invite, name="chouette_invite"),
    # tournaments
    path("tournaments/", tournament_pages.tournament_list, name="tournament_list"),
    path("tournaments/<int:tournament_id>/", tournament_pages.tournament_page, name="tournament_page"),
    path("tournaments/<int:tournament_id>/enter/", tournament_pages.tournament_enter, name="tournament_enter"),
    path("tournaments/<int:tournament_id>/withdraw/", tournament_pages.tournament_withdraw,
         name="tournament_withdraw"),
    path("tournaments/<int:tournament_id>/start/", tournament_pages.tournament_start, name="tournament_start"),
    path("tournaments/<int:tournament_id>/bots/", tournament_pages.tournament_add_bots, name="tournament_bots"),
    # clubs
    path("clubs/", club_pages.club_list, name="club_list"),
    path("clubs/new/", club_pages.club_create, name="club_create"),
    path("clubs/join/<str:token>/", club_pages.club_invite, name="club_invite"),
    path("clubs/<int:club_id>/", club_pages.club_page, name="club_page"),
    path("clubs/<int:club_id>/members/", club_pages.club_members, name="club_members"),
    path("clubs/<int:club_id>/leave/", club_pages.club_leave, name="club_leave"),
    path("clubs/<int:club_id>/remove/", club_pages.club_remove, name="club_remove"),
    path("clubs/<int:club_id>/role/", club_pages.club_role, name="club_role"),
    path("clubs/<int:club_id>/invite/", club_pages.club_renew_invite, name="club_renew_invite"),
    path("clubs/<int:club_id>/settings/", club_pages.club_settings, name="club_settings"),
    path("clubs/<int:club_id>/challenge/", club_pages.club_challenge, name="club_challenge"),
    path("clubs/<int:club_id>/tournaments/", club_pages.club_tournament, name="club_tournament"),
    *(path(f"tournaments/<int:tournament_id>/{what}/", fn, name=f"tournament_{what.replace('-', '_')}")
      for what, fn in tournament_pages.DIRECTOR_ACTIONS.items()),
    # analysis, .mat upload, hints and the tutor (games/analysis_views.py)
    path("matches/<int:match_id>/analysis.json", analysis_views.match_analysis_json, name="match_analysis_json"),
    path("matches/<int:match_id>/analysis/", analysis_views.match_analysis_page, name="match_analysis"),
    path("analysis/upload/", analysis_views.analysis_upload, name="analysis_upload"),
    path("analysis/<int:analysis_id>/", analysis_views.analysis_page, name="analysis_page"),
    path("analysis/<int:analysis_id>.json", analysis_views.analysis_json_view, name="analysis_json"),
    path("analysis/<int:analysis_id>/retry/", analysis_views.analysis_retry, name="analysis_retry"),
    path("analysis/<int:analysis_id>/cancel/", analysis_views.analysis_cancel, name="analysis_cancel"),
    # practice from one's own errors
    path("practice/", practice_views.practice_index, name="practice"),
    path("practice/<int:session_id>/", practice_views.practice_session, name="practice_session"),
    path("practice/<int:session_id>.json", practice_views.practice_session_json, name="practice_session_json"),
    path("practice/<int:session_id>/answer/", practice_views.practice_answer, name="practice_answer"),
    path("games/<int:game_id>/hint.json", analysis_views.game_hint_json, name="game_hint"),
    path("games/<int:game_id>/tutor.json", analysis_views.game_tutor_json, name="game_tutor"),
]
