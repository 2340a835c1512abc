"""Red Sun Rising land combat: assault rounds, odds, die modifiers, results, step losses (RSR 11.x).

Each function applies one case and cites it. Functions that change the state take the state (a private
copy made by the engine) and the :class:`~rsr.engine.Context` that holds the dice and the events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising import activation, supply
from rsr.rulesets.red_sun_rising.crt import Cell, odds_column
from rsr.rulesets.red_sun_rising.losses import eliminate as eliminate  # (RSR 11.5: ruleset.py calls combat.eliminate)
from rsr.rulesets.red_sun_rising.losses import lose_step as lose_step
from rsr.rulesets.red_sun_rising.state import Attack, PendingLoss, RsrState, Unit


@dataclass
class Modifier:
    value: int
    reason: str
    case: str
    provenance: str = ""


@dataclass
class CombatOdds:
    attack: int
    defence: int
    column: str | None
    modifiers: list[Modifier] = field(default_factory=list)

    @property
    def total_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)


def is_command(state: RsrState, unit: Unit) -> bool:
    return state.static.counter(unit.id).command_unit


def combat_units_in(state: RsrState, hex_id: str, side: str) -> list[Unit]:
    return [u for u in state.units_in(hex_id, side) if not is_command(state, u)]


def command_units_in(state: RsrState, hex_id: str, side: str) -> list[Unit]:
    return [u for u in state.units_in(hex_id, side) if is_command(state, u)]


def strength(state: RsrState, unit: Unit) -> int:
    return state.static.counter(unit.id).values(unit.steps).strength


def command_value(state: RsrState, unit: Unit) -> int:
    return activation.command_value(state, unit)


def is_garrison(state: RsrState, unit: Unit) -> bool:
    return state.static.counter(unit.id).type == "garrison"


def is_siege_artillery(state: RsrState, unit: Unit) -> bool:
    return state.static.counter(unit.id).type == "siege-artillery"


def off_rail_hex(state: RsrState, path: list[str]) -> str | None:
    """RSR 18.9: the first hex of ``path`` that is not a rail hex (siege artillery may be in no such hex)."""
    return next((h for h in path if h not in state.static.rail_hexes), None)


def check_may_advance(state: RsrState, unit: Unit, hex_id: str) -> str | None:
    """Why ``unit`` may not advance into ``hex_id`` (RSR 18.6, 18.9), or None."""
    if is_garrison(state, unit):
        return "a garrison never leaves its hex (RSR 18.6)"
    if is_siege_artillery(state, unit) and off_rail_hex(state, [hex_id]):
        return f"siege artillery moves only on rail hexes and {hex_id} is not one (RSR 18.9)"
    return None


def enemy_of(side: str) -> str:
    return "japan" if side == "russia" else "russia"


def may_attack(state: RsrState, unit: Unit) -> str | None:
    """Why ``unit`` may not attack this round, or None if it may."""
    counter = state.static.counter(unit.id)
    if counter.command_unit:
        return "command units do not attack (11.0: combat is between combat units)"
    if counter.type == "garrison":
        return "garrisons never attack (RSR 18.6)"
    if unit.assigned_to is None:
        return "it is not assigned to a command unit (RSR 14.0)"
    if not unit.activated:
        return "it is not activated (RSR 11.0)"
    if not supply.currently_supplied(state, unit):  # RSR 10.36, 11.2: traced at the attack, as the defender's
        return "it is out of supply (RSR 10.36); its line is traced when it attacks (11.2)"
    if unit.id in state.round.attacked:
        return "it has already attacked this assault round (RSR 11.22)"
    return None


def check_attack(state: RsrState, side: str, attack: Attack) -> None:
    """RSR 11.0, 11.2x, 11.43-11.45: refuse an attack the rules do not allow, saying which case."""
    grid = state.static.grid
    defenders = combat_units_in(state, attack.defender_hex, enemy_of(side))
    if not state.units_in(attack.defender_hex, enemy_of(side)):
        raise RulesError(f"no enemy unit in {attack.defender_hex} to attack (RSR 11.0)")
    if not defenders and not command_units_in(state, attack.defender_hex, enemy_of(side)):
        raise RulesError(f"no enemy unit in {attack.defender_hex} to attack (RSR 11.0)")
    if any(u.id in state.round.defended for u in state.units_in(attack.defender_hex, enemy_of(side))):
        raise RulesError(f"the units in {attack.defender_hex} have already defended this round (RSR 11.23)")
    if not attack.attackers:
        raise RulesError(f"the attack on {attack.defender_hex} names no attacking unit")
    if len(set(attack.attackers)) != len(attack.attackers):
        raise RulesError(f"the attack on {attack.defender_hex} names a unit twice (RSR 11.22)")
    for unit_id in attack.attackers:
        unit = state.units.get(unit_id)
        if unit is None or unit.steps <= 0 or unit.hex is None:
            raise RulesError(f"{unit_id} is not a unit on the map")
        if unit.side != side:
            raise RulesError(f"{unit_id} is not a {side} unit")
        reason = may_attack(state, unit)
        if reason:
            raise RulesError(f"{unit_id} may not attack: {reason}")
        if not grid.adjacent(unit.hex, attack.defender_hex):
            raise RulesError(f"{unit_id} in {unit.hex} is not adjacent to {attack.defender_hex} (RSR 11.0)")
    if attack.command is not None:
        check_attack_command(state, side, attack)


def check_attack_command(state: RsrState, side: str, attack: Attack) -> None:
    """RSR 11.43-11.45: the named command unit must be stacked with an attacker and command one of them."""
    hq = state.units.get(attack.command or "")
    if hq is None or hq.steps <= 0 or hq.side != side or not is_command(state, hq):
        raise RulesError(f"{attack.command} is not a {side} command unit on the map")
    attackers = [state.units[a] for a in attack.attackers]
    if not any(a.hex == hq.hex for a in attackers):
        raise RulesError(f"{hq.id} is not stacked with any attacking unit (RSR 11.43)")
    if not any(a.assigned_to == hq.id for a in attackers):
        raise RulesError(f"no attacking unit is assigned to {hq.id} (RSR 11.43)")
    if hq.id in state.round.commands_used:
        raise RulesError(f"{hq.id} has already modified a die this assault round (RSR 11.45)")


def defending_command(state: RsrState, hex_id: str, side: str) -> Unit | None:
    """RSR 11.43-11.44: the defender's command unit that modifies the die.

    Of the command units in the hex that command a defending unit and have not modified a die this
    round, the one with the highest command value (ties: lowest id). 11.44 gives the choice to the owner;
    choosing the best one is the only sensible choice, so it is made for him (interpretations.md).
    """
    defenders = combat_units_in(state, hex_id, side)
    eligible = [
        hq for hq in command_units_in(state, hex_id, side)
        if hq.id not in state.round.commands_used and any(d.assigned_to == hq.id for d in defenders)
    ]
    if not eligible:
        return None
    return sorted(eligible, key=lambda hq: (-command_value(state, hq), hq.id))[0]


def terrain_modifiers(state: RsrState, attack: Attack) -> list[Modifier]:
    """RSR 11.41 with 9.46: the defender's terrain, and a river between the forces."""
    static = state.static
    terrain = static.terrain.get(attack.defender_hex, "clear")
    effect = static.terrain_effects.get(terrain)
    mods: list[Modifier] = []
    if effect and effect.die:
        mods.append(Modifier(effect.die, f"defender in {terrain}", "RSR 11.41", effect.provenance))
    river = static.feature_effects.get("river")
    attackers = [state.units[a] for a in attack.attackers]
    if river and river.die and attackers and all(
        "river" in static.side_features(a.hex or "", attack.defender_hex) for a in attackers
    ):
        mods.append(Modifier(river.die, "every attacker attacks across a river", "RSR 11.41", river.provenance))
    return mods


def defensive_position_modifiers(state: RsrState, hex_id: str) -> list[Modifier]:
    """RSR 11.42 and 13.2: an intact fortress -2, and -1 per trench level; both count."""
    mods: list[Modifier] = []
    static = state.static
    if static.is_fortress(hex_id) and hex_id not in state.destroyed_fortresses:
        effect = static.feature_effects["fortress"]
        mods.append(Modifier(effect.die or 0, "fortress", "RSR 13.2", effect.provenance))
    level = state.trenches.get(hex_id, 0)
    if level:
        effect = static.feature_effects["trench"]
        mods.append(Modifier((effect.die or 0) * level, f"level {level} trench", "RSR 13.2", effect.provenance))
    return mods


def command_modifier(state: RsrState, attacker_hq: Unit | None, defender_hq: Unit | None) -> Modifier | None:
    """RSR 11.43: one in favour of the side whose command unit present has the higher command value."""
    att = command_value(state, attacker_hq) if attacker_hq else None
    dfn = command_value(state, defender_hq) if defender_hq else None
    if att is None and dfn is None:
        return None
    if dfn is None or (att is not None and att > dfn):
        assert attacker_hq is not None
        return Modifier(+1, f"attacker's command unit {attacker_hq.id} ({att}) vs {dfn or 'none'}", "RSR 11.43")
    if att is None or dfn > att:
        assert defender_hq is not None
        return Modifier(-1, f"defender's command unit {defender_hq.id} ({dfn}) vs {att or 'none'}", "RSR 11.43")
    return Modifier(0, f"command units equal ({att} vs {dfn})", "RSR 11.43")


def compute_odds(state: RsrState, attack: Attack, defenders: list[Unit],
                 attacker_hq: Unit | None, defender_hq: Unit | None) -> CombatOdds:
    """RSR 11.2: total strengths as a ratio; all die modifiers of 11.4 added together."""
    total_attack = sum(strength(state, state.units[a]) for a in attack.attackers)
    total_defence = sum(strength(state, d) for d in defenders)
    odds = CombatOdds(total_attack, total_defence, odds_column(total_attack, total_defence))
    odds.modifiers += terrain_modifiers(state, attack)
    odds.modifiers += defensive_position_modifiers(state, attack.defender_hex)
    cmd = command_modifier(state, attacker_hq, defender_hq)
    if cmd is not None and cmd.value:
        odds.modifiers.append(cmd)
    return odds


def cell_for(state: RsrState, odds: CombatOdds, die: int | None) -> Cell:
    """RSR 11.57: the result cell; ratios worse than 1-3 give 1/- without a die."""
    if odds.column is None or die is None:
        return state.static.crt.below_lowest
    return state.static.crt.lookup(die + odds.total_modifier, odds.column)


def loss_order(state: RsrState, units: list[Unit], rule: str) -> list[str]:
    """The order in which a standing policy takes step losses (one entry per step).

    ``reduce-first`` (default): flip full-strength divisions before removing any one-step unit, the
    strongest first; ``weakest-first``: remove the weakest steps first.
    """
    steps: list[tuple[tuple[int, int, str], str]] = []
    for unit in units:
        counter = state.static.counter(unit.id)
        for step in range(unit.steps, 0, -1):
            value = counter.values(step).strength
            if rule == "weakest-first":
                key = (value, step, unit.id)
            else:
                key = (0 if step >= 2 else 1, -value, unit.id)
            steps.append((key, unit.id))
    return [unit_id for _, unit_id in sorted(steps)]


def check_loss_choice(pending: PendingLoss, state: RsrState, chosen: list[str]) -> None:
    """RSR 11.5: the owner names one unit per step lost, each among the units that must take losses."""
    available = {u: state.units[u].steps for u in pending.units if state.units[u].steps > 0}
    needed = min(pending.steps, sum(available.values()))
    if len(chosen) != needed:
        raise RulesError(f"name exactly {needed} step(s) to lose among {sorted(available)} (RSR 11.5)")
    for unit_id in chosen:
        if available.get(unit_id, 0) <= 0:
            raise RulesError(f"{unit_id} cannot lose a step here (RSR 11.5)")
        available[unit_id] -= 1


# -- retreat before combat (11.1x) and advance after combat (11.3) ---------------------------------------


def retreat_candidates(state: RsrState, side: str) -> dict[str, list[list[str]]]:
    """RSR 11.11, 11.15: each unit adjacent to an enemy unit, with every legal 1- and 2-hex retreat path.

    A path may pass through enemy zones of control but not through enemy units; it stays on land and
    does not cross impassable hexsides (our reading: retreating units move overland).
    """
    static = state.static
    enemies = {u.hex for u in state.units.values() if u.side != side and u.hex and u.steps > 0}

    def open_hex(frm: str, to: str) -> bool:
        return (static.is_land(to) and to not in enemies
                and "impassable" not in static.side_features(frm, to))

    options: dict[str, list[list[str]]] = {}
    for unit_id, unit in sorted(state.units.items()):
        if unit.side != side or not unit.hex or unit.steps <= 0 or is_garrison(state, unit):
            continue  # RSR 18.6: a garrison never leaves its hex, not even by retreat before combat
        if not any(h in enemies for h in static.grid.neighbours(unit.hex)):
            continue
        paths: list[list[str]] = []
        for first in static.grid.neighbours(unit.hex):
            if not open_hex(unit.hex, first):
                continue
            paths.append([first])
            paths += [[first, second] for second in static.grid.neighbours(first)
                      if second != unit.hex and open_hex(first, second)]
        if is_siege_artillery(state, unit):  # RSR 18.9: only paths that stay on the rail are offered
            paths = [p for p in paths if off_rail_hex(state, p) is None]
        if paths:
            options[unit_id] = paths
    return options


def retreat_by_rule(state: RsrState, side: str, rule: Any) -> list[dict[str, Any]]:
    """Policy ``retreat``: ``{adjacent-to-cp: N}`` retreats, one hex away from the enemy, every unit of a hex
    next to an enemy stack of N or more command points (a condition the player could know when signing)."""
    if not isinstance(rule, dict):
        return []
    threshold = int(rule["adjacent-to-cp"])
    grid = state.static.grid
    orders = []
    for unit_id, paths in retreat_candidates(state, side).items():
        unit = state.units[unit_id]
        assert unit.hex is not None
        stacks = [sum(command_value(state, u) for u in combat_units_in(state, h, enemy_of(side)))
                  for h in grid.neighbours(unit.hex)]
        if max(stacks, default=0) < threshold:
            continue
        enemies = sorted({u.hex for u in state.units.values() if u.side != side and u.hex and u.steps > 0})
        singles = [p for p in paths if len(p) == 1]
        if not singles:
            continue
        best = max(singles, key=lambda p: (min(grid.distance(p[0], e) for e in enemies), [-ord(c) for c in p[0]]))
        orders.append({"unit": unit_id, "path": best})
    return orders


def retreat_before_combat(state: RsrState, ctx: Context, side: str, orders: list[Any]) -> None:
    """RSR 11.11-11.15, 18.9: each unit rolls against its command value; two hexes risk a step."""
    candidates = retreat_candidates(state, side)
    seen: set[str] = set()
    for number, item in enumerate(orders, start=1):
        if not isinstance(item, dict) or set(item) != {"unit", "path"} or not isinstance(item["path"], list):
            raise RulesError(f"retreat {number}: give unit and path (one or two hexes)")
        unit_id, path = str(item["unit"]), [str(h) for h in item["path"]]
        if unit_id in seen:
            raise RulesError(f"retreat {number}: {unit_id} may attempt once per assault round (RSR 11.12)")
        seen.add(unit_id)
        unit = state.units.get(unit_id)
        if unit is not None and unit.side == side and is_garrison(state, unit):
            raise RulesError(f"retreat {number}: {unit_id} is a garrison and never leaves its hex (RSR 18.6)")
        off_rail = off_rail_hex(state, path) if unit is not None and is_siege_artillery(state, unit) else None
        if off_rail is not None:  # RSR 18.9: a voluntary retreat is a move, and it moves only on rail hexes
            raise RulesError(f"retreat {number}: {unit_id} is siege artillery and moves only on rail hexes; {off_rail} "
                             "is not one (RSR 18.9)")
        if unit_id not in candidates:
            raise RulesError(f"retreat {number}: {unit_id} is not a {side} unit next to an enemy unit (RSR 11.11)")
        if path not in candidates[unit_id]:
            raise RulesError(f"retreat {number}: {unit_id} cannot retreat by {path}: one or two adjacent land hexes, "
                             "never through an enemy unit (RSR 11.14, 11.15)")
    for item in orders:
        unit = state.units[str(item["unit"])]
        path = [str(h) for h in item["path"]]
        if unit.steps <= 0 or unit.hex is None:
            continue
        value = command_value(state, unit)
        die = ctx.roll(6, f"retreat before combat of {unit.id}, command value {value}, RSR 11.11")
        if die > value:
            ctx.emit("retreat", f"{unit.id} fails to retreat from {unit.hex} (die {die} > command value {value})",
                     "RSR 11.11", unit=unit.id, frm=unit.hex, success=False, die=die)
            continue
        start = unit.hex
        taken = path  # RSR 18.9: siege artillery paths off the rail were refused above
        unit.hex = taken[-1]
        state.moved.append(unit.id)
        ctx.emit("retreat", f"{unit.id} retreats {' -> '.join([start, *taken])} before combat (die {die} <= {value})",
                 "RSR 11.11", unit=unit.id, frm=start, path=taken, success=True, die=die)
        for hex_id in taken:  # RSR 19.4: every city the retreating combat unit passes through, not only the last
            if not is_command(state, unit):
                take_control(state, ctx, hex_id, unit.side)
        if len(path) == 2:
            risk = ctx.roll(6, f"two-hex retreat of {unit.id}, RSR 11.14")
            if risk >= 4:
                ctx.emit("retreat-loss", f"{unit.id} loses a step retreating two hexes (die {risk})", "RSR 11.14",
                         unit=unit.id, die=risk)
                lose_step(state, ctx, unit, "RSR 11.14")
        if not state.units_in(start, side):
            vacate(state, ctx, start)
            state.retreat_results.append(start)


def vacate(state: RsrState, ctx: Context, hex_id: str) -> None:
    """RSR 13.0: a fortress or trench left empty by combat is destroyed (the fortress kept in mind)."""
    if state.trenches.pop(hex_id, 0):
        ctx.emit("defences", f"the trench in {hex_id} is destroyed", "RSR 13.0", hex=hex_id)
    if state.static.is_fortress(hex_id) and hex_id not in state.destroyed_fortresses:
        state.destroyed_fortresses.append(hex_id)
        ctx.emit("defences", f"the fortress in {hex_id} is destroyed", "RSR 13.0", hex=hex_id)


def advance_after_combat(state: RsrState, ctx: Context, hex_id: str, unit_ids: list[str]) -> None:
    """RSR 11.3, 11.13: attackers move into a hex left empty, after the round's attacks."""
    if not unit_ids or any(u.side != state.units[unit_ids[0]].side for u in state.units_in(hex_id)):
        return
    for unit_id in unit_ids:
        unit = state.units[unit_id]
        if unit.steps <= 0 or unit.hex is None or not state.static.grid.adjacent(unit.hex, hex_id):
            continue
        if check_may_advance(state, unit, hex_id):
            continue  # RSR 18.6, 18.9: already refused when the order was given
        start, unit.hex = unit.hex, hex_id
        state.moved.append(unit.id)
        ctx.emit("advance", f"{unit.id} advances {start} -> {hex_id}", "RSR 11.3", unit=unit.id, frm=start, to=hex_id)
        take_control(state, ctx, hex_id, unit.side)


def take_control(state: RsrState, ctx: Context, hex_id: str, side: str) -> None:
    """RSR 19.4: a city is controlled by the side whose combat unit was last in it or passed through it."""
    place = state.static.places.get(hex_id)
    if place and place.city and state.control.get(hex_id) != side:
        state.control[hex_id] = side
        ctx.emit("control", f"{side} now controls {place.name} ({hex_id})", "RSR 19.4", hex=hex_id, side=side)


def column_rank(column: str | None) -> int:
    """The place of an odds column on the Land CRT, lowest first; below 1-3 ranks lowest (RSR 11.57)."""
    from rsr.rulesets.red_sun_rising.crt import COLUMNS

    return -1 if column is None else COLUMNS.index(column)


def declared_record(state: RsrState, side: str, attack: Attack) -> dict[str, Any]:
    """An attack as declared, with its odds column then: what a standing order to repeat it compares with."""
    defenders = combat_units_in(state, attack.defender_hex, enemy_of(side))
    total = sum(strength(state, state.units[a]) for a in attack.attackers)
    column = odds_column(total, sum(strength(state, d) for d in defenders))
    return {"hex": attack.defender_hex, "attackers": list(attack.attackers), "command": attack.command,
            "advance": list(attack.advance), "column": column}


def repeated_attacks(state: RsrState, side: str) -> dict[str, Any]:
    """Standing policy ``later-rounds: repeat`` (RSR 4.24, 11.24, 11.25): each attack of the round before,
    again, by those of its attackers still able to make it, while the odds stay at or above the column it
    was declared at; an attack that can no longer be made so is dropped, and none left ends the stage.
    The player's own order: he set the odds in the first round and may set the policy to ask or stop."""
    attacks: list[dict[str, Any]] = []
    scratch_attacked: list[str] = []
    for record in state.declared_round:
        hex_id = record["hex"]
        able = [a for a in record["attackers"] if a not in scratch_attacked and _can_repeat(state, side, a, hex_id)]
        defenders = combat_units_in(state, hex_id, enemy_of(side))
        if not able or not defenders:
            continue
        total = sum(strength(state, state.units[a]) for a in able)
        if column_rank(odds_column(total, sum(strength(state, d) for d in defenders))) < column_rank(record["column"]):
            continue
        attack = Attack(hex_id, able, record["command"], [a for a in record["advance"] if a in able])
        if attack.command in [a["command"] for a in attacks] or not _command_still_fits(state, side, attack):
            attack.command = None  # RSR 11.43-11.45: stacked with an attacker it commands, once a round
        attacks.append({"hex": hex_id, "attackers": able, "command": attack.command, "advance": attack.advance})
        scratch_attacked += able
    return {"attacks": attacks}


def _command_still_fits(state: RsrState, side: str, attack: Attack) -> bool:
    if attack.command is None:
        return True
    try:
        check_attack_command(state, side, attack)
    except RulesError:
        return False
    return True


def _can_repeat(state: RsrState, side: str, unit_id: str, hex_id: str) -> bool:
    unit = state.units.get(unit_id)
    return (unit is not None and unit.side == side and unit.steps > 0 and unit.hex is not None
            and may_attack(state, unit) is None and state.static.grid.adjacent(unit.hex, hex_id))
