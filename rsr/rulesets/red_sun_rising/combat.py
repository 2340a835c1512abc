"""Red Sun Rising land combat: assault rounds, odds, die modifiers, results, step losses (RSR 11.x).

Each function applies one case and cites it. Functions that change the state take the state (a private
copy made by the engine) and the :class:`~rsr.engine.Context` that holds the dice and the events.

The Land Combat Stage's steps (sequence.ASSAULT_ROUND) and two of its decisions are at the end: the attack
declaration (``land-combat-attacks``, RSR 11.2, RSR 4.24) and step losses (``step-losses``, RSR 11.5), with the
resolution of each attack and the end of the round between them. Retreat before combat, the round's first step
(``retreats``, RSR 11.1), is in retreat.py.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising import activation, reinforcements, supply
from rsr.rulesets.red_sun_rising.crt import Cell, odds_column
from rsr.rulesets.red_sun_rising.losses import eliminate, lose_step
from rsr.rulesets.red_sun_rising.sequence import ASSAULT_ROUNDS, STAGES, Go
from rsr.rulesets.red_sun_rising.state import Ask, Attack, PendingLoss, RoundRecord, RsrState, Unit

LOSS_RULES = ("reduce-first", "weakest-first", "ask")  # policy step-losses (RSR 11.5)


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
    """Why ``unit`` may not advance into ``hex_id`` (RSR 18.6, RSR 18.9), or None."""
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
    if not supply.currently_supplied(state, unit):  # RSR 10.36, RSR 11.2: traced at the attack, as the defender's
        return "it is out of supply (RSR 10.36); its line is traced when it attacks (11.2)"
    if unit.id in state.round.attacked:
        return "it has already attacked this assault round (RSR 11.22)"
    return None


def check_attack(state: RsrState, side: str, attack: Attack) -> None:
    """RSR 11.0, 11.2x, RSR 11.43-11.45: refuse an attack the rules do not allow, saying which case."""
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
    round, the one with the highest command value (ties: lowest id). RSR 11.44 gives the choice to the owner;
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
    """RSR 11.41 with RSR 9.46: the defender's terrain, and a river between the forces."""
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
    """RSR 11.42 and RSR 13.2: an intact fortress -2, and -1 per trench level; both count."""
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
    """RSR 11.2: total strengths as a ratio; all die modifiers of RSR 11.4 added together."""
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


# -- advance after combat (RSR 11.3); retreat before combat (RSR 11.1x) is in retreat.py ----------------------


def vacate(state: RsrState, ctx: Context, hex_id: str) -> None:
    """RSR 13.0: a fortress or trench left empty by combat is destroyed (the fortress kept in mind)."""
    if state.trenches.pop(hex_id, 0):
        ctx.emit("defences", f"the trench in {hex_id} is destroyed", "RSR 13.0", hex=hex_id)
    if state.static.is_fortress(hex_id) and hex_id not in state.destroyed_fortresses:
        state.destroyed_fortresses.append(hex_id)
        ctx.emit("defences", f"the fortress in {hex_id} is destroyed", "RSR 13.0", hex=hex_id)


def advance_after_combat(state: RsrState, ctx: Context, hex_id: str, unit_ids: list[str]) -> None:
    """RSR 11.3, RSR 11.13: attackers move into a hex left empty, after the round's attacks."""
    if not unit_ids or any(u.side != state.units[unit_ids[0]].side for u in state.units_in(hex_id)):
        return
    for unit_id in unit_ids:
        unit = state.units[unit_id]
        if unit.steps <= 0 or unit.hex is None or not state.static.grid.adjacent(unit.hex, hex_id):
            continue
        if check_may_advance(state, unit, hex_id):
            continue  # RSR 18.6, RSR 18.9: already refused when the order was given
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
    """Standing policy ``later-rounds: repeat`` (RSR 4.24, RSR 11.24, RSR 11.25): each attack of the round before,
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


# -- the Land Combat Stage: one assault round's steps and decisions (sequence.ASSAULT_ROUND) ---------------


def round_base(state: RsrState) -> str:
    """The start of the request ids of this assault round: ``t3/japan/combat/r2``."""
    return f"{state.request_base()}/r{state.assault_round}"


def run_attacks(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 11.2, RSR 4.24: the phasing player declares this round's attacks (``land-combat-attacks``)."""
    state.ask = Ask("land-combat-attacks", side, f"{round_base(state)}/attacks")
    return Go.ASKED


def attack_options(state: RsrState, side: str) -> dict[str, Any]:
    """Every unit that may attack now and the enemy hexes next to it (RSR 11.0, RSR 11.21)."""
    grid = state.static.grid
    options: dict[str, list[str]] = {}
    for unit_id, unit in sorted(state.units.items()):
        if unit.side != side or unit.steps <= 0 or unit.hex is None or may_attack(state, unit):
            continue
        targets = [h for h in grid.neighbours(unit.hex) if state.units_in(h, enemy_of(side))]
        if targets:
            options[unit_id] = targets
    return {"attackers": options}


def attacks_prompt(state: RsrState, ask: Ask) -> str:
    return (f"{STAGES[state.stage_key()].name}, assault round {state.assault_round} of {ASSAULT_ROUNDS}: declare "
            "attacks (none ends the stage)" + ("; later rounds follow your policy later-rounds (default: repeat "
                                               "at the same odds or better; set it to ask to be asked)"
                                               if state.assault_round == 1 else ""))


def declare_attacks(state: RsrState, ctx: Context, ask: Ask, answer: Any) -> None:
    """RSR 11.2, RSR 11.22-11.25, RSR 4.24: the phasing player's attacks for one assault round.

    Each attack may name the units that advance if the hex is left empty (RSR 11.3); ``advance_into`` names
    units to move into hexes the defender left by retreating before combat (RSR 11.13).
    """
    side = ask.side
    attacks: list[Attack] = []
    scratch = copy.deepcopy(state)
    for number, raw in enumerate(answer["attacks"], start=1):
        if not isinstance(raw, dict) or set(raw) - {"hex", "attackers", "command", "advance"}:
            raise RulesError(f"attack {number}: give hex, attackers and optionally command and advance")
        attackers = raw.get("attackers")
        advance = raw.get("advance") or []
        if not isinstance(raw.get("hex"), str) or not isinstance(attackers, list) or not all(
            isinstance(a, str) for a in attackers
        ) or not isinstance(advance, list):
            raise RulesError(f"attack {number}: hex is a hex number, attackers and advance lists of unit ids")
        attack = Attack(raw["hex"], list(attackers), raw.get("command"), [str(a) for a in advance])
        try:
            check_attack(scratch, side, attack)
        except RulesError as exc:
            raise RulesError(f"attack {number} on {attack.defender_hex}: {exc}") from exc
        if set(attack.advance) - set(attack.attackers):
            raise RulesError(f"attack {number}: only its attackers may advance into {attack.defender_hex} "
                             "(RSR 11.3)")
        for unit_id in attack.advance:
            why = check_may_advance(state, state.units[unit_id], attack.defender_hex)
            if why:
                raise RulesError(f"attack {number}: {unit_id} may not advance into {attack.defender_hex}: {why}")
        scratch.round.attacked += attack.attackers
        scratch.round.defended += [u.id for u in scratch.units_in(attack.defender_hex, enemy_of(side))]
        if attack.command:
            scratch.round.commands_used.append(attack.command)
        attacks.append(attack)
    into = answer.get("advance_into") or {}
    if not isinstance(into, dict):
        raise RulesError("advance_into is {hex: [unit ids]}")
    for hex_id, units in sorted(into.items()):
        if hex_id not in state.retreat_results:
            raise RulesError(f"{hex_id} was not left by a retreat before combat this round (RSR 11.13)")
        for unit_id in units:
            unit = state.units.get(unit_id)
            if unit is None or unit.side != side or not unit.hex or unit.steps <= 0 \
                    or not state.static.grid.adjacent(unit.hex, hex_id) or not unit.activated:
                raise RulesError(f"{unit_id} is not an activated {side} unit next to {hex_id} (RSR 11.13)")
            why = check_may_advance(state, unit, hex_id)
            if why:
                raise RulesError(f"{unit_id} may not advance into {hex_id}: {why}")
    state.advance_into = {h: [str(u) for u in units] for h, units in sorted(into.items())}
    state.declared_round = [declared_record(state, side, a) for a in attacks]
    state.attacks = attacks
    state.next_attack = 0
    state.last_round = bool(answer.get("last_round", False)) or not attacks
    if not attacks:
        ctx.emit("stage", f"{side} declares no attacks in assault round {state.assault_round}", "RSR 11.24")


ATTACKS = Decision(
    "land-combat-attacks", "t{turn}/{side}/combat/r{round}/attacks", "RSR 11.2", "the phasing player",
    prompt=attacks_prompt,
    options=lambda state, ask: attack_options(state, ask.side),
    template=lambda state, ask: {"attacks": [{"hex": "HHHH", "attackers": ["unit-id"], "command": None,
                                              "advance": []}],
                                 "advance_into": {h: [] for h in state.retreat_results}, "last_round": False},
    policy=Policy("later-rounds", ("repeat", "stop", "ask"), default="repeat",  # RSR 4.24, RSR 11.24-11.25
                  answer=lambda state, ask, request, rule: (
                      (repeated_attacks(state, request.side) if rule == "repeat" else {"attacks": []})
                      if rule in ("repeat", "stop") else None)),
    policy_applies=lambda state, ask: state.assault_round > 1,  # the first round's attacks are always asked
    schema={"type": "object", "required": ["attacks"], "additionalProperties": False,
            "properties": {"attacks": {"type": "array"}, "last_round": {}, "advance_into": {}}},
    shape="an attack order is {attacks: [{hex, attackers, command, advance}], advance_into, last_round}",
    apply=declare_attacks)


def run_resolve(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 11.2: the declared attacks, one after the other, each up to its step losses."""
    while state.next_attack < len(state.attacks):
        resolve_attack(state, ctx, state.next_attack)
        if state.ask is not None:
            return Go.WAIT  # step losses to choose (``step-losses``); then this attack goes on
    return Go.ON


def resolve_attack(state: RsrState, ctx: Context, index: int) -> None:
    """RSR 11.2: resolve attack ``index`` up to its result, then the losses on each side."""
    attack = state.attacks[index]
    side = state.units[attack.attackers[0]].side
    enemy = enemy_of(side)
    if attack.result is None:
        roll_attack(state, ctx, index, side, enemy)
        if attack.result is None:  # resolved without a die (RSR 11.53)
            state.next_attack += 1
            return
    assert attack.result is not None
    if not attack.defender_done:
        defenders = combat_units_in(state, attack.defender_hex, enemy)
        if not assign_losses(state, ctx, index, "defender", enemy, defenders, attack.result[1]):
            return
        attack.defender_done = True
    if not attack.attacker_done:
        attackers = [state.units[a] for a in attack.attackers if state.units[a].steps > 0]
        if not assign_losses(state, ctx, index, "attacker", side, attackers, attack.result[0]):
            return
        attack.attacker_done = True
    after_attack(state, ctx, attack, enemy)
    state.next_attack += 1


def roll_attack(state: RsrState, ctx: Context, index: int, side: str, enemy: str) -> None:
    """RSR 11.2, RSR 11.4: the defender's supply, the odds and modifiers, the die and the result."""
    attack = state.attacks[index]
    hex_id = attack.defender_hex
    state.round.attacked += attack.attackers
    state.round.defended += [u.id for u in state.units_in(hex_id, enemy)]
    defenders = combat_units_in(state, hex_id, enemy)
    if not defenders:
        command_unit_alone(state, ctx, hex_id, enemy)
        return
    # RSR 10.13: an attack on units supplied from Port Arthur or Vladivostok costs that fortress supply;
    # the source is the one the defender traces to now, at the attack (RSR 11.2)
    sources = {d.id: supply.source_now(state, d) if supply.plays_supply_stage(state, d.side) else
               state.supply_source.get(d.id) for d in defenders}
    state.attacked_sources += [src for d in defenders if (src := sources[d.id]) in supply.FORTRESS_SOURCES
                               and src is not None]
    # RSR 10.37 with RSR 11.2: the defender traces supply now (in scenarios without Supply Stages, as the scenario
    # states); a unit out of supply is eliminated, no die
    for unit in [d for d in defenders if not supply.currently_supplied(state, d)]:
        eliminate(state, ctx, unit, "out of supply when attacked", "RSR 10.37")
    defenders = [d for d in defenders if d.steps > 0]
    if not defenders:
        attack.result = [0, 0]
        return
    attacker_hq = state.units[attack.command] if attack.command else None
    defender_hq = defending_command(state, hex_id, enemy)
    for hq in (attacker_hq, defender_hq):
        if hq is not None:
            state.round.commands_used.append(hq.id)
    odds = compute_odds(state, attack, defenders, attacker_hq, defender_hq)
    die = None
    if odds.column is not None:
        die = ctx.roll(6, f"land combat die, attack {index + 1} on {hex_id}, RSR 11.2")
    cell = cell_for(state, odds, die)
    attack.result = [cell.attacker, cell.defender]
    modified = None if die is None else die + odds.total_modifier
    ctx.emit(
        "combat",
        f"attack {index + 1} on {hex_id}: {odds.attack} vs {odds.defence} -> "
        f"{odds.column or 'below 1-3'}; die {die if die is not None else '-'}"
        f"{'' if modified is None else f' modified {modified:+d}'.replace('+', '') if odds.modifiers else ''}"
        f" -> {cell.text}",
        "RSR 11.2",
        provisional=[f"land CRT {odds.column} row {modified}: {cell.provenance}"] if cell.provisional else [],
        attack=index + 1,
        hex=hex_id,
        attackers=[{"unit": a, "strength": strength(state, state.units[a])} for a in attack.attackers],
        defenders=[{"unit": d.id, "strength": strength(state, d)} for d in defenders],
        attack_strength=odds.attack,
        defence_strength=odds.defence,
        column=odds.column,
        modifiers=[{"value": m.value, "reason": m.reason, "case": m.case} for m in odds.modifiers],
        die=die,
        modified_die=modified,
        row=None if modified is None else min(max(modified, state.static.crt.die_low), state.static.crt.die_high),
        result=cell.text,
        cell_provenance=cell.provenance,
    )


def assign_losses(state: RsrState, ctx: Context, index: int, role: str, side: str,
                  units: list[Unit], steps: int) -> bool:
    """RSR 11.5: apply ``steps`` losses at once if there is no choice, else ask the owner (``step-losses``)."""
    if steps <= 0 or not units:
        return True
    available = sum(u.steps for u in units)
    if available <= steps or len(units) == 1:  # no choice to make: every step, or one unit's
        for _ in range(min(steps, available)):
            unit = next(u for u in units if u.steps > 0)
            lose_step(state, ctx, unit)
        return True
    hex_id = state.attacks[index].defender_hex
    state.ask = Ask("step-losses", side, f"{round_base(state)}/a{index + 1}/{role}-losses",
                    {"loss": PendingLoss(side, hex_id, steps, [u.id for u in units], index, role)})
    return False


def apply_losses(state: RsrState, ctx: Context, ask: Ask, answer: Any) -> None:
    pending: PendingLoss = ask.data["loss"]
    check_loss_choice(pending, state, answer["units"])
    for unit_id in answer["units"]:
        lose_step(state, ctx, state.units[unit_id])
    attack = state.attacks[pending.attack_index]
    if pending.role == "defender":
        attack.defender_done = True
    else:
        attack.attacker_done = True


def losses_by_policy(state: RsrState, ask: Ask, request: Any, rule: Any) -> Any:
    """Policy ``step-losses``: ``reduce-first`` (default) or ``weakest-first`` (loss_order); ``ask`` asks."""
    if rule not in ("reduce-first", "weakest-first"):
        return None
    pending: PendingLoss = ask.data["loss"]
    units = [state.units[u] for u in pending.units if state.units[u].steps > 0]
    return {"units": loss_order(state, units, rule)[: pending.steps]}


STEP_LOSSES = Decision(
    "step-losses", "t{turn}/{side}/combat/r{round}/a{attack}/{attacker|defender}-losses", "RSR 11.5",
    "the owner of the units that lose steps",
    prompt=lambda state, ask: f"choose {ask.data['loss'].steps} step loss(es) among your {ask.data['loss'].role} "
                              f"units in attack {ask.data['loss'].attack_index + 1}",
    options=lambda state, ask: {"steps": ask.data["loss"].steps, "units": list(ask.data["loss"].units)},
    template=lambda state, ask: {"units": ask.data["loss"].units[: ask.data["loss"].steps]},
    policy=Policy("step-losses", LOSS_RULES, default="reduce-first", answer=losses_by_policy),
    schema={"type": "object", "required": ["units"], "properties": {"units": {"type": "array"}}},
    shape="a step-loss answer is {units: [unit ids, one per step]}", apply=apply_losses)


def after_attack(state: RsrState, ctx: Context, attack: Attack, enemy: str) -> None:
    """RSR 11.56: no combat unit left in the hex takes its command units with it."""
    hex_id = attack.defender_hex
    if combat_units_in(state, hex_id, enemy):
        return
    for hq in command_units_in(state, hex_id, enemy):
        eliminate(state, ctx, hq, "every combat unit in its hex was eliminated", "RSR 11.56")
    if not state.units_in(hex_id, enemy):
        vacate(state, ctx, hex_id)
        if hex_id not in state.round.vacated:
            state.round.vacated.append(hex_id)


def command_unit_alone(state: RsrState, ctx: Context, hex_id: str, side: str) -> None:
    """RSR 11.53: a command unit attacked alone joins the nearest friendly supplied stack, or is lost.

    "Nearest" is counted in hexes; ties go to the lowest hex number (interpretations.md, RSR 11.53).
    """
    grid = state.static.grid
    for hq in command_units_in(state, hex_id, side):
        stacks = sorted({
            u.hex for u in state.units.values()
            if u.side == side and u.hex and u.hex != hex_id and u.steps > 0
            and not is_command(state, u) and supply.currently_supplied(state, u)
        })
        supplied = supply.currently_supplied(state, hq)
        if not supplied or not stacks:
            eliminate(state, ctx, hq, "attacked alone and not in supply" if not supplied
                      else "attacked alone with no friendly stack in supply", "RSR 11.53")
            continue
        target = min(stacks, key=lambda h: (grid.distance(hex_id, h), h))
        hq.hex = target
        ctx.emit("moved", f"{hq.id} attacked alone in {hex_id}: placed with the nearest friendly stack in "
                 f"supply, {target}", "RSR 11.53", unit=hq.id, frm=hex_id, to=target)
    if hex_id not in state.round.vacated:
        state.round.vacated.append(hex_id)


def run_end_round(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 11.3, RSR 4.24: advances into emptied hexes, then another round at the phasing player's option (at
    most three); at the end of the stage, fortress supply is spent (RSR 10.13)."""
    stage = STAGES[state.stage_key()]
    for attack in state.attacks:
        if attack.advance and attack.defender_hex in state.round.vacated + state.retreat_results:
            advance_after_combat(state, ctx, attack.defender_hex, attack.advance)
    for hex_id, units in sorted(state.advance_into.items()):
        advance_after_combat(state, ctx, hex_id, units)
    reinforcements.check_foreign_aid(state, ctx)
    finished_round = state.assault_round
    state.attacks = []
    state.next_attack = 0
    state.advance_into = {}
    state.retreat_results = []
    if state.last_round or finished_round >= ASSAULT_ROUNDS:
        ctx.emit("stage", f"{stage.name} ends after assault round {finished_round}", "RSR 4.24")
        supply.expend_fortress_supply(state, ctx)
        return Go.ON
    state.assault_round += 1
    state.round = RoundRecord()
    ctx.emit("round", f"assault round {state.assault_round} begins", "RSR 4.24")
    return Go.ROUND
