"""URLs of the bot API, mounted at /api/ (every one is described in games/api/openapi.py)."""

from django.urls import path, re_path

from games.api import chouettes, clubs, tournaments, views

app_name = "api"

urlpatterns = [
    path("agents", views.agents, name="agents"),
    path("agents/me", views.me, name="me"),
    path("bots", views.levels, name="bots"),
    path("matchmaking/queue", views.queue, name="queue"),
    path("matches", views.matches, name="matches"),
    path("matches/<int:match_id>", views.match_detail, name="match"),
    path("matches/<int:match_id>/actions", views.match_actions, name="actions"),
    path("matches/<int:match_id>/join", views.match_join, name="match_join"),
    path("chouettes", chouettes.chouettes, name="chouettes"),
    path("chouettes/<int:chouette_id>", chouettes.chouette_detail, name="chouette"),
    path("chouettes/<int:chouette_id>/join", chouettes.chouette_join, name="chouette_join"),
    path("chouettes/<int:chouette_id>/start", chouettes.chouette_start, name="chouette_start"),
    path("chouettes/<int:chouette_id>/actions", chouettes.chouette_actions, name="chouette_actions"),
    path("tournaments", tournaments.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>", tournaments.tournament_detail, name="tournament"),
    path("tournaments/<int:tournament_id>/entries", tournaments.tournament_entries, name="tournament_entries"),
    path("clubs", clubs.clubs, name="clubs"),
    path("clubs/join", clubs.club_join, name="club_join"),
    path("clubs/<int:club_id>", clubs.club_detail, name="club"),
    path("clubs/<int:club_id>/membership", clubs.club_membership, name="club_membership"),
    path("clubs/<int:club_id>/challenges", clubs.club_challenges, name="club_challenges"),
    path("tournaments/<int:tournament_id>/director", tournaments.tournament_director, name="tournament_director"),
    path("tournaments/<int:tournament_id>/check-in", tournaments.tournament_check_in, name="tournament_check_in"),
    path("matches/<int:match_id>/analysis", views.match_analysis, name="analysis"),
    path("guide", views.guide_page, name="guide"),
    path("guide.md", views.guide_markdown, name="guide_md"),
    path("openapi.json", views.openapi_json, name="openapi"),
    # Not an endpoint: every other path under /api/ answers a JSON 404.
    re_path(r"^(?P<rest>.*)$", views.not_found, name="fallback"),
]
