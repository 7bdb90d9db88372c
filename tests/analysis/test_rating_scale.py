"""The analysis page explains the rating words with a scale (static/js/analysis_core.mjs,
RATING_SCALE); the words come from games/analysis/marks.py RATINGS: both must agree."""
import re
from pathlib import Path

from games.analysis.marks import RATINGS, rating

ROOT = Path(__file__).resolve().parents[2]


def test_the_pages_scale_is_the_ratings_table():
    text = (ROOT / "static" / "js" / "analysis_core.mjs").read_text()
    block = text[text.index("export const RATING_SCALE"):]
    block = block[:block.index("];")]
    page = [(word, None if limit == "null" else float(limit) / 1000)
            for word, limit in re.findall(r"\['(\w+)', ([\d.]+|null)\]", block)]
    assert page == [(word, limit) for limit, word in RATINGS] + [("awful", None)]
    for word, limit in page[:-1]:  # each bound, in millipoints, is where the next word starts
        assert rating(limit - 1e-6) == word and rating(limit) != word
