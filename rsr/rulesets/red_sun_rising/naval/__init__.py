"""The Red Sun Rising Strategic Naval Sequence (RSR 4.1, 5.0-7.7, 15.0-16.0, 18.1-18.5, 18.82, 19.2).

The tactical battle (4.4, 8.x) is not here: battle.py is the one interface through which a battle is
fought, and until it exists a search that could start one is refused.
"""
