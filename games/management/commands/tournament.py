"""``python manage.py tournament create|show|start|series|pause|resume|withdraw|disqualify|award|repair``:
a tournament for directors and scripts.

``create --name NAME --format knockout|swiss|roundrobin|arena|double|groups --length N
[--rounds N] [--start now|ISO time] [--round-deadline HOURS] [--bots LEVEL:COUNT]`` prints
the new tournament's id; ``--start now`` makes the draw at once, an ISO time leaves it to
the workers' periodic work. ``show ID`` prints its standings as JSON. ``series ... --start
ISO --every RRULE [--lead HOURS]`` repeats a tournament on a schedule (prints the series id).
Registration: ``--max-entrants N`` (then a waiting list), ``--rating-band LOW:HIGH``,
``--check-in MINUTES``, ``--late-entries``; over days: ``--corr-days D [--corr-bank-days B]``;
a live clock for every match: ``--clock PRESET`` (a name of ``games.clock.CLOCK_PRESETS``).
The director's actions, done as the site (logged without a name): ``pause ID``, ``resume
ID``, ``withdraw ID PLAYER``, ``disqualify ID PLAYER``, ``award ID KEY WINNER``, ``repair ID``
(``--reason TEXT`` for each); players by id."""

import json
from datetime import datetime, timezone as dt_timezone

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import services
from games.clock import CLOCK_PRESETS
from games.errors import ServiceError
from games.models import Tournament
from games.selectors.tournaments import standings_json


def parse_start(value: str):
    if value == "now":
        return None
    try:
        at = datetime.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--start is 'now' or an ISO time, not {value!r}.") from None
    return at if at.tzinfo else at.replace(tzinfo=dt_timezone.utc)


def parse_bots(value: str) -> tuple:
    level, _, count = value.partition(":")
    if not level or not count.isdigit():
        raise CommandError(f"--bots is LEVEL:COUNT (e.g. random:8), not {value!r}.")
    return level, int(count)


def parse_band(value) -> tuple:
    if value is None:
        return None, None
    low, sep, high = value.partition(":")
    if not sep or not all(v == "" or v.isdigit() for v in (low, high)):
        raise CommandError(f"--rating-band is LOW:HIGH (e.g. 1400:1700 or :1600), not {value!r}.")
    return (int(low) if low else None), (int(high) if high else None)


# The director's subcommands: their positional fields (as the services name them).
DIRECTOR = {"pause": (), "resume": (), "withdraw": ("player",), "disqualify": ("player",),
            "award": ("key", "winner"), "repair": ()}
DIRECTOR_SERVICES = {"pause": "tournament_pause", "resume": "tournament_resume",
                     "withdraw": "tournament_director_withdraw", "disqualify": "tournament_disqualify",
                     "award": "tournament_award", "repair": "tournament_repair"}
ARGUMENTS = {"player": "player_id", "winner": "winner_id", "key": "key"}


class Command(BaseCommand):
    help = "Create a tournament (prints its id), start it, or show its standings as JSON."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="create a tournament and print its id")
        create.add_argument("--name", required=True)
        create.add_argument("--format", required=True,
                            choices=["knockout", "swiss", "roundrobin", "arena", "double", "groups"])
        create.add_argument("--length", type=int, required=True, help="match length in points")
        create.add_argument("--rounds", type=int, help="Swiss: the number of rounds")
        create.add_argument("--minutes", type=int, help="arena: how long it lasts")
        create.add_argument("--start", default=None, help="'now' (the draw at once) or an ISO time")
        create.add_argument("--round-deadline", type=int, default=0, help="hours each match has")
        create.add_argument("--bots", action="append", default=[], help="LEVEL:COUNT house bots to enter")
        create.add_argument("--seeding", choices=["rating", "random", "given"], default=None)
        create.add_argument("--max-entrants", type=int, default=None, help="the entry limit (then a waiting list)")
        create.add_argument("--rating-band", default=None, help="LOW:HIGH (either may be empty)")
        create.add_argument("--check-in", type=int, default=0, help="minutes before the start to check in")
        create.add_argument("--late-entries", action="store_true", help="Swiss, arena: entries once running")
        create.add_argument("--corr-days", type=int, default=0, help="correspondence: days per move")
        create.add_argument("--corr-bank-days", type=int, default=0, help="correspondence: the bank in days")
        create.add_argument("--clock", default=None, metavar="PRESET",
                            help=f"a live clock for every match: {', '.join(CLOCK_PRESETS)}")
        series = sub.add_parser("series", help="a tournament repeated on a schedule; prints the series id")
        series.add_argument("--name", required=True)
        series.add_argument("--format", required=True,
                            choices=["knockout", "swiss", "roundrobin", "arena", "double", "groups"])
        series.add_argument("--length", type=int, required=True)
        series.add_argument("--rounds", type=int)
        series.add_argument("--start", required=True, help="the first occurrence, an ISO time")
        series.add_argument("--every", required=True, help="an iCalendar RRULE, e.g. FREQ=WEEKLY;BYDAY=TU")
        series.add_argument("--lead", type=int, default=24, help="hours before each start it opens for entries")
        series.add_argument("--round-deadline", type=int, default=0)
        series.add_argument("--clock", default=None, metavar="PRESET", help="a live clock preset for every match")
        show = sub.add_parser("show", help="print a tournament's standings as JSON")
        show.add_argument("id", type=int)
        start = sub.add_parser("start", help="make the draw now")
        start.add_argument("id", type=int)
        for name, fields in DIRECTOR.items():
            action = sub.add_parser(name, help=f"a director's action: {name} (logged)")
            action.add_argument("id", type=int)
            for field in fields:
                action.add_argument(field, type=str if field == "key" else int)
            action.add_argument("--reason", default="")

    def handle(self, *args, **opts):
        try:
            if opts["action"] in DIRECTOR:
                self.direct(opts)
            else:
                getattr(self, f"do_{opts['action']}")(opts)
        except ServiceError as exc:
            raise CommandError(f"{exc.code}: {exc}") from None

    def do_create(self, opts):
        options = {}
        if opts["rounds"] is not None:
            options["rounds"] = opts["rounds"]
        if opts["minutes"] is not None:
            options["minutes"] = opts["minutes"]
        if opts["seeding"]:
            options["seeding"] = opts["seeding"]
        bots = [parse_bots(b) for b in opts["bots"]]
        starts_at = parse_start(opts["start"]) if opts["start"] else None
        with transaction.atomic():  # all or nothing: a refused start leaves no tournament behind
            self.create(opts, options, bots, starts_at)

    def create(self, opts, options, bots, starts_at):
        low, high = parse_band(opts["rating_band"])
        tournament = services.tournament_create(
            by=None, name=opts["name"], format=opts["format"], length=opts["length"], options=options,
            starts_at=starts_at, round_deadline_hours=opts["round_deadline"], max_entrants=opts["max_entrants"],
            min_rating=low, max_rating=high, check_in_minutes=opts["check_in"], late_entries=opts["late_entries"],
            corr_days=opts["corr_days"], corr_bank_days=opts["corr_bank_days"], clock_preset=opts["clock"])
        for level, count in bots:
            services.tournament_add_bots(tournament_id=tournament.pk, level=level, count=count)
        if opts["start"] == "now":
            services.tournament_start(tournament_id=tournament.pk)
        self.stdout.write(str(tournament.pk))

    def do_series(self, opts):
        start = parse_start(opts["start"])
        if start is None:
            raise CommandError("--start of a series is the first occurrence, an ISO time.")
        options = {"rounds": opts["rounds"]} if opts["rounds"] is not None else {}
        if opts["clock"] is not None:
            options["clock"] = opts["clock"]
        series = services.tournament_series_create(
            by=None, name=opts["name"], format=opts["format"], length=opts["length"], options=options,
            rrule=opts["every"], first_start=start, lead_hours=opts["lead"],
            round_deadline_hours=opts["round_deadline"])
        self.stdout.write(str(series.pk))

    def do_start(self, opts):
        services.tournament_start(tournament_id=opts["id"])
        self.stdout.write(str(opts["id"]))

    def do_show(self, opts):
        tournament = Tournament.objects.filter(pk=opts["id"]).first()
        if tournament is None:
            raise CommandError(f"tournament_not_found: there is no tournament {opts['id']}.")
        self.stdout.write(json.dumps(standings_json(tournament), indent=2))

    def direct(self, opts):
        fn = getattr(services, DIRECTOR_SERVICES[opts["action"]])
        fn(tournament_id=opts["id"], by=None, reason=opts["reason"],
           **{ARGUMENTS[field]: opts[field] for field in DIRECTOR[opts["action"]]})
        self.stdout.write(str(opts["id"]))
