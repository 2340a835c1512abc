"""rsr: an adjudicator for Red Sun Rising and Red Sun/Red Star played by email or git.

The protocol (signed packets, fair dice, sealed choices) lives in :mod:`rsr.protocol`;
the pure rules engine in :mod:`rsr.engine`; the rulesets under :mod:`rsr.rulesets`.
"""

__version__ = "0.1.0"
