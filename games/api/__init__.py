"""The HTTP JSON API through which bots ("agents") play: see docs/BOT_API.md (served at /api/guide).

Thin: parsing, authentication, rate limiting and shaping. Every write goes through
``games.services``; the agent view is shaped from ``games.selectors.games.game_snapshot``.
"""
