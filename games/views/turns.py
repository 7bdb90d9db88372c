"""A player's matches by whose turn it is: the "your turn" list on every page (a context
processor), the ``/matches/`` page with its filters and the "next match" button's redirect.
Thin: the reads are ``games.selectors.turns``."""

from __future__ import annotations

from functools import cached_property

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from games.selectors import turns
from games.selectors.players import player_of

SHOWN = 10  # matches listed in the header's drop-down


class YourTurn:
    """The header's list, read only if a page shows it."""

    def __init__(self, user):
        self.user = user

    @cached_property
    def items(self) -> list:
        player = player_of(self.user) if self.user.is_authenticated else None
        return turns.your_turn(player) if player is not None else []

    @property
    def count(self) -> int:
        return len(self.items)

    @property
    def shown(self) -> list:
        return self.items[:SHOWN]


def your_turn(request) -> dict:
    """Context processor: ``your_turn`` on every page (``templates/base.html``)."""
    return {"your_turn": YourTurn(request.user)}


@login_required
def my_matches(request):
    """``GET /matches/?turn=mine|theirs|finished``: the player's matches (400 for another filter)."""
    player = player_of(request.user)
    which = request.GET.get("turn") or "mine"
    if which not in turns.FILTERS:
        return render(request, "matches.html", {"which": "mine", "filters": turns.FILTERS, "rows": [],
                                                "error": gettext("Unknown filter %(filter)s: use mine, theirs or finished.")
                                                % {"filter": repr(which[:20])}},
                      status=400)
    if which == "finished":
        rows = turns.finished(player)
    else:
        mine, theirs = turns.split(player)
        rows = mine if which == "mine" else theirs
    return render(request, "matches.html", {"which": which, "filters": turns.FILTERS, "rows": rows, "me": player})


@login_required
def next_match(request):
    """``GET /matches/next/?from=<game id>``: the oldest game waiting for the player (not the
    one just left), else the list of matches."""
    try:
        after = int(request.GET.get("from") or 0)
    except ValueError:
        after = 0
    game_id = turns.next_waiting(player_of(request.user), after_game=after)
    if game_id is None:
        return redirect(f"{reverse('my_matches')}?turn=mine")
    return redirect("game_page", game_id=game_id)
