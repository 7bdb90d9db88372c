"""Persistent state of the site: player profiles, matches, games and their numbered events.

Nothing here yet; see the design's layout. Only games.services writes these models.
"""
