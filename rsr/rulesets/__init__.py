"""Built-in rulesets; importing this package registers them."""

from rsr.rulesets import red_star, red_sun_rising  # noqa: F401
