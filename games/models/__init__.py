"""Persistent state of the site, one module per area (only ``games.services`` writes it):

- ``players``: Player (a person's or a program's profile), PushSubscription, PendingNotice, Agent, HouseBot, QueueEntry;
- ``matches``: Match, Game (the engine's state as JSON and its version), GameEvent
  (numbered, append-only), ChatMessage, Connection (a socket on a match);
- ``chouettes``: Chouette, ChouetteSeat, ChouetteGame, ChouetteEvent, ChouetteChat;
- ``work``: Counter, Job, PeriodicRun, Analysis;
- ``practice``: PracticeSession, PracticeExercise.
- ``tournaments``: Tournament, Entry, TournamentMatch (the match of each pairing), TournamentSeries,
  DirectorAction (the directors' log).
- ``clubs``: Club, Membership (role and ladder place), Challenge (a ladder match).
"""

from games.models.chouettes import Chouette, ChouetteChat, ChouetteEvent, ChouetteGame, ChouetteSeat
from games.models.matches import ChatMessage, Connection, Game, GameEvent, Match
from games.models.players import Agent, HouseBot, PendingNotice, Player, PushSubscription, QueueEntry
from games.models.clubs import Challenge, Club, Membership
from games.models.tournaments import DirectorAction, Entry, Tournament, TournamentMatch, TournamentSeries
from games.models.work import Analysis, Counter, Job, PeriodicRun
from games.models.practice import PracticeExercise, PracticeSession

__all__ = [
    "Player", "PushSubscription", "PendingNotice", "Agent", "HouseBot", "QueueEntry",
    "Match", "Game", "GameEvent", "ChatMessage", "Connection",
    "Chouette", "ChouetteSeat", "ChouetteGame", "ChouetteEvent", "ChouetteChat",
    "Counter", "Job", "PeriodicRun", "Analysis", "PracticeSession", "PracticeExercise",
    "Tournament", "Entry", "TournamentMatch", "TournamentSeries", "DirectorAction", "Club", "Membership", "Challenge",
]
