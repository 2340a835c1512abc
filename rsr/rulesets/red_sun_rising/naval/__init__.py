"""The Red Sun Rising Strategic Naval Sequence (RSR 4.1, RSR 5.0-7.7, RSR 15.0-16.0, RSR 18.1-18.5, RSR 18.82,
RSR 19.2).

flow.py holds the Naval Sequence as a table of stages and the table of the naval decisions; each decision is
declared in the rule module that raises it (orders.py, plans.py, movement.py, raid.py, surprise.py,
transport.py, ports.py, battle_flow.py). battle.py is the one interface through which a battle is fought;
the tactical battle (RSR 4.4, RSR 8.0-8.87, RSR 18.83: the rules in tactical.py, the hours and the admirals'
decisions in battle_flow.py, from the battle plans of plans.py, reported by battle_report.py, with RSR 19.3 in
succession.py) registers itself there. Without a registered engine a search that could start a battle is refused.
"""
