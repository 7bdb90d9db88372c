"""The Django admin: read-only pages over real data, and actions that go through the services."""
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.selectors import games as selectors
from games import services
from games.engine.gnubgid import match_from_id
from games.models import ChatMessage, Game, GameEvent, Match, Player

PASSWORD = "correct-horse-battery-9"


def changelist(model):
    return reverse(f"admin:games_{model._meta.model_name}_changelist")


def change(obj):
    return reverse(f"admin:games_{obj._meta.model_name}_change", args=[obj.pk])


def message_texts(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def register(name, **kwargs):
    return services.player_register(username=name, password=PASSWORD, email=f"{name}@example.com", **kwargs)


@pytest.fixture
def played(db):
    """Two players in a 3-point match, one move into its first game."""
    white = register("walter", display_name="Walter W.")
    black = register("betty", display_name="Betty B.")
    match = services.match_create(creator=white, length=3)
    match = services.match_join(player=black, match_id=match.pk)
    game = match.games.get()
    state = game.game_state()
    mover = white if match.color_of(white) == state.actor else black
    steps = state.legal_plays()[0].steps
    services.game_move(game_id=game.pk, player=mover, moves=[s.to_dict() for s in steps])
    game.refresh_from_db()
    match.refresh_from_db()
    assert GameEvent.objects.filter(game=game, type="move").count() == 1
    return {"white": white, "black": black, "match": match, "game": game}


# -- every page renders -------------------------------------------------------------------


@pytest.mark.django_db
def test_every_changelist_and_change_page_renders(admin_client, played):
    game = played["game"]
    event = game.events.get(type="move")
    line = services.chat_post(match_id=played["match"].pk, player=played["white"], text="good luck")
    for model in (Player, Match, Game, GameEvent, ChatMessage):
        response = admin_client.get(changelist(model))
        assert response.status_code == 200, model
    assert "good luck" in admin_client.get(changelist(ChatMessage)).content.decode()
    for obj in (played["white"], played["match"], game, event, line):
        response = admin_client.get(change(obj))
        assert response.status_code == 200, obj
    response = admin_client.get(reverse("admin:auth_user_change", args=[played["white"].user_id]))
    assert response.status_code == 200
    assert "Walter W." in response.content.decode()  # the inline player profile
    assert admin_client.get(reverse("admin:auth_user_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:index")).status_code == 200


@pytest.mark.django_db
def test_changelists_show_the_data(admin_client, played):
    match = played["match"]
    page = admin_client.get(changelist(Match)).content.decode()
    assert "Walter W." in page and "Betty B." in page and "0–0" in page and "Playing" in page
    page = admin_client.get(changelist(Player)).content.decode()
    assert "Walter W." in page and "1500.0" in page
    page = admin_client.get(changelist(Game)).content.decode()
    assert str(match) in page
    response = admin_client.get(changelist(GameEvent) + "?type__exact=move")
    assert [e.type for e in response.context["cl"].result_list] == ["move"]


@pytest.mark.django_db
def test_searches_and_filters(admin_client, played):
    game = played["game"]
    for url, text in [
        (changelist(Player) + "?q=betty@example.com", "Betty B."),
        (changelist(Player) + "?q=walt", "Walter W."),
        (changelist(Player) + "?suspended__exact=0&is_bot__exact=0", "Walter W."),
        (changelist(Match) + "?q=Betty", f"#{played['match'].pk}"),
        (changelist(Match) + "?status__exact=playing&length=3", "Walter W."),
        (changelist(GameEvent) + f"?q={game.pk}", "game_start"),
    ]:
        response = admin_client.get(url)
        assert response.status_code == 200, url
        assert text in response.content.decode(), url
    assert "Walter W." not in admin_client.get(changelist(Player) + "?q=betty").content.decode()
    assert admin_client.get(changelist(Match) + "?status__exact=finished").context["cl"].result_count == 0
    assert admin_client.get(changelist(GameEvent) + "?q=abc").status_code == 200


@pytest.mark.django_db
def test_game_change_page_lists_its_events_in_order(admin_client, played):
    game = played["game"]
    page = admin_client.get(change(game)).content.decode()
    types = list(game.events.order_by("version").values_list("type", flat=True))
    assert types[0] == "game_start" and "move" in types
    # the inline lists every event, in version order
    shown = re.findall(r'<td class="field-version">\s*<p>(\d+)</p>\s*</td>\s*<td class="field-type">\s*<p>(\w+)</p>',
                       page)
    assert shown == [(str(v), t) for v, t in game.events.order_by("version").values_list("version", "type")]
    assert "(revealed when the game ends)" in page
    assert game.dice_seed not in page


# -- position ids ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_position_id_on_match_and_game_pages(admin_client, played):
    game = played["game"]
    ids = selectors.game_snapshot(game)  # the site's one serialiser: the admin must agree with it
    assert len(ids["positionId"]) == 14
    assert match_from_id(ids["gnubgId"].split(":")[1])["match_length"] == 3
    assert ids["positionId"] != "4HPwATDgc/ABMA"  # a move has been made: not the starting position
    for url in (change(played["match"]), change(game)):
        page = admin_client.get(url).content.decode()
        assert f"<code>{ids['positionId']}</code>" in page, url
        assert f"<code>{ids['gnubgId']}</code>" in page, url


# -- player actions -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_suspend_and_unsuspend_actions(admin_client, client, played):
    white, black = played["white"], played["black"]
    client.force_login(white.user)
    response = admin_client.post(changelist(Player), {
        "action": "suspend_players", "_selected_action": [white.pk]}, follow=True)
    assert response.status_code == 200
    white.refresh_from_db()
    black.refresh_from_db()
    assert white.suspended and not black.suspended
    assert any("Suspended 1 player(s): Walter W." in m for m in message_texts(response))
    # the service logged the player out
    assert not client.get("/").wsgi_request.user.is_authenticated

    response = admin_client.post(changelist(Player), {
        "action": "unsuspend_players", "_selected_action": [white.pk, black.pk]}, follow=True)
    white.refresh_from_db()
    assert not white.suspended
    assert not Player.objects.filter(suspended=True).exists()
    assert any("Unsuspended 2 player(s)" in m for m in message_texts(response))


@pytest.mark.django_db
def test_player_admin_is_read_only(admin_client, played):
    white = played["white"]
    assert admin_client.get(reverse("admin:games_player_add")).status_code == 403
    response = admin_client.post(change(white), {"display_name": "Hacked", "rating": "9999", "suspended": "on"})
    assert response.status_code == 403
    white.refresh_from_db()
    assert white.display_name == "Walter W." and white.rating == 1500.0 and not white.suspended


# -- match actions ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_abort_action_aborts_through_the_service(admin_client, played):
    match, game = played["match"], played["game"]
    version = game.version
    response = admin_client.post(changelist(Match), {
        "action": "abort_matches", "_selected_action": [match.pk]}, follow=True)
    assert response.status_code == 200
    match.refresh_from_db()
    game.refresh_from_db()
    assert match.status == Match.ABORTED
    assert match.winner_id is None
    assert game.status == Game.FINISHED
    abort = game.events.get(type="abort")
    assert abort.version == version + 1
    assert game.events.filter(type="game_end", version__gt=abort.version).exists()
    assert any(f"Aborted 1 match(es): #{match.pk}" in m for m in message_texts(response))
    # no rating change for an aborted match
    assert Player.objects.filter(rating=Player.DEFAULT_RATING).count() == 2


@pytest.mark.django_db
def test_abort_action_reports_errors_per_match(admin_client, played):
    done = played["match"]
    services.match_abort(match_id=done.pk)
    events_before = GameEvent.objects.count()
    open_match = services.match_create(creator=register("olga"), length=1)
    response = admin_client.post(changelist(Match), {
        "action": "abort_matches", "_selected_action": [done.pk, open_match.pk]}, follow=True)
    texts = message_texts(response)
    assert f"Match #{done.pk}: This match is over." in texts
    assert any(f"Aborted 1 match(es): #{open_match.pk}" in m for m in texts)
    open_match.refresh_from_db()
    assert open_match.status == Match.ABORTED
    assert GameEvent.objects.count() == events_before  # nothing written for the finished one


@pytest.mark.django_db
def test_match_admin_is_read_only(admin_client, played):
    match = played["match"]
    assert admin_client.get(reverse("admin:games_match_add")).status_code == 403
    assert admin_client.post(change(match), {"status": "finished", "white_score": "3"}).status_code == 403
    assert admin_client.get(reverse("admin:games_match_delete", args=[match.pk])).status_code == 403
    match.refresh_from_db()
    assert match.status == Match.PLAYING and match.white_score == 0
    actions = admin_client.get(changelist(Match)).context["action_form"].fields["action"].choices
    assert "delete_selected" not in [name for name, _ in actions]


# -- games and events ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_games_and_events_cannot_be_added_changed_or_deleted(admin_client, played):
    game = played["game"]
    event = game.events.get(type="move")
    state, version = game.state, game.version

    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403
    assert admin_client.get(reverse("admin:games_gameevent_add")).status_code == 403
    assert admin_client.get(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    assert admin_client.get(reverse("admin:games_gameevent_delete", args=[event.pk])).status_code == 403

    response = admin_client.post(change(game), {"status": "finished", "version": "99", "points": "3",
                                                 "state": "{}"})
    assert response.status_code == 403
    response = admin_client.post(change(event), {"type": "abort", "payload": "{}"})
    assert response.status_code == 403
    response = admin_client.post(changelist(GameEvent), {
        "action": "delete_selected", "_selected_action": [event.pk], "post": "yes"})
    assert GameEvent.objects.filter(pk=event.pk).exists()

    game.refresh_from_db()
    event.refresh_from_db()
    assert game.state == state and game.version == version and game.status == Game.PLAYING
    assert event.type == "move"
    # the change page is a view page: no save buttons
    page = admin_client.get(change(game)).content.decode()
    assert 'name="_save"' not in page
    assert not re.search(r'<(input|textarea|select)[^>]+name="state"', page)


@pytest.mark.django_db
def test_staff_without_permissions_cannot_see_or_act(client, django_user_model, played):
    staff = django_user_model.objects.create_user("clerk", password=PASSWORD, is_staff=True)
    client.force_login(staff)
    assert client.get(changelist(Match)).status_code == 403
    response = client.post(changelist(Match), {"action": "abort_matches", "_selected_action": [played["match"].pk]})
    assert response.status_code == 403
    played["match"].refresh_from_db()
    assert played["match"].status == Match.PLAYING


@pytest.mark.django_db
def test_view_only_staff_sees_matches_but_cannot_abort(client, django_user_model, played):
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user("viewer", password=PASSWORD, is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_match"))
    client.force_login(staff)
    response = client.get(changelist(Match))
    assert response.status_code == 200
    assert "abort_matches" not in response.content.decode()
    client.post(changelist(Match), {"action": "abort_matches", "_selected_action": [played["match"].pk]})
    played["match"].refresh_from_db()
    assert played["match"].status == Match.PLAYING


@pytest.mark.django_db(transaction=True)
def test_user_added_in_the_admin_gets_a_player(admin_client, django_user_model):
    response = admin_client.post(reverse("admin:auth_user_add"), {
        "username": "newbie", "password1": PASSWORD, "password2": PASSWORD, "usable_password": "true",
        "player-TOTAL_FORMS": "0", "player-INITIAL_FORMS": "0",
        "player-MIN_NUM_FORMS": "0", "player-MAX_NUM_FORMS": "1",
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    user = django_user_model.objects.get(username="newbie")
    assert Player.objects.get(user=user).display_name == "newbie"


@pytest.mark.django_db
def test_admin_password_change_page_renders(admin_client):
    response = admin_client.get(reverse("admin:password_change"))
    assert response.status_code == 200
    assert "new_password1" in response.content.decode()
