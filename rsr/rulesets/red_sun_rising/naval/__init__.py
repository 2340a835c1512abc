"""The Red Sun Rising Strategic Naval Sequence (RSR 4.1, 5.0-7.7, 15.0-16.0, 18.1-18.5, 18.82, 19.2).

battle.py is the one interface through which a battle is fought; the tactical battle (4.4, 8.x, 18.83:
tactical.py, from the battle plans of plans.py, reported by battle_report.py, with 19.3 in succession.py)
registers itself there (issue 13). Without a registered engine a search that could start a battle is refused.
"""
