"""Red Sun Rising (SPI 1977): ruleset id ``red-sun-rising``, citations ``RSR n.nn``."""

from rsr.rulesets.red_sun_rising.ruleset import RedSunRising

__all__ = ["RedSunRising"]
