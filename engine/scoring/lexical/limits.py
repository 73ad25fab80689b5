"""The rules' version name and recall thresholds."""

from __future__ import annotations

from fractions import Fraction

RULES_VERSION = "lexical-54"
"""Bumped whenever a rule changes: a re-score under new rules is visible as such."""

YES_RECALL = Fraction(4, 5)
"""theta_1: share of the expected statement's elements found in the candidate for YES."""
PARTIAL_RECALL = Fraction(1, 2)
"""theta_2: ... below which nothing substantive matches (NO)."""
LENIENT_YES_RECALL = PARTIAL_RECALL
"""The lenient lexical judge's YES bar (theta_2 = 1/2)."""
LENIENT_PARTIAL_RECALL = Fraction(1, 4)
"""... and its PARTIAL bar."""
