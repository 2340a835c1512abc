"""Red Sun/Red Star (S&T 158, 1993): ruleset id ``red-star``, citations ``RS/RS n.nn``."""

from rsr.rulesets.red_star.ruleset import RedStar

__all__ = ["RedStar"]
