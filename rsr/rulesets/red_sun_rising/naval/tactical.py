"""The tactical naval battle (RSR 4.4, 8.0-8.87 with the 8.24 and 8.76-8.77 errata), fought from battle plans.

:func:`fight` is the engine registered with battle.py: a pure function of the fleets, the weather found by
the search, both sides' signed plans (plans.py) and the dice. Every hour is logged as events: the display,
the weather, the range and how it was reached, every gunnery and torpedo roll with its modifiers and result,
the morale track. Naval CRT cells that are not printed are provisional (NavalStatic.crt) and every event
that used one says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval import plans as battle_plans
from rsr.rulesets.red_sun_rising.naval.battle import BattleResult, BattleSetting, register_battle
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.search import search_limit, search_modifier
from rsr.rulesets.red_sun_rising.naval.state import Fleet

SIDES = ("russia", "japan")
MAX_SIGHTING = {"clear": 6, "fog": 4, "storm": 3}          # RSR 8.41, 8.81-8.83
WEATHER_MODIFIER = {"clear": 0, "fog": 1, "storm": 2}      # RSR 8.54 (2, 3)
MANEUVER = {1: 1, 2: -1, 3: -1, 4: -2, 5: -2, 6: -3}       # RSR 8.49
ZERO_MORALE_OPENING = 6                                     # RSR 8.77
BALTIC_ZERO_MORALE_OPENING = 5                              # RSR 8.77 errata (Rozhestvansky)
TORPEDO_COLUMN = 1                                          # RSR 8.61, 18.83


@dataclass
class Force:
    """One side on the Tactical Naval Display (8.2) and its morale track (8.23)."""

    side: str
    fleets: list[str]
    admiral: str
    morale: int
    plan: dict[str, Any]
    line: dict[str, int] = field(default_factory=dict)         # capital ship -> battleline box (8.2)
    secondary: list[str] = field(default_factory=list)        # capital ships in the Secondary Force (8.2, 8.53)
    flotillas: dict[str, int] = field(default_factory=dict)    # flotilla -> flotilla box (8.2)
    disabled: list[str] = field(default_factory=list)
    sunk: list[str] = field(default_factory=list)
    sunk_points: int = 0
    counted_points: int = 0                                    # sunk points already taken off morale (8.72)
    flagship: str | None = None
    admiral_wounded: bool = False
    admiral_killed: bool = False
    casualty_pending: str | None = None                        # wounded | killed, applied in the Morale Phase
    breaking: bool = False

    def afloat(self, ship: str) -> bool:
        return ship not in self.sunk

    def capital(self) -> list[str]:
        return sorted((s for s in self.line if self.afloat(s)), key=lambda s: (self.line[s], s))

    def boats(self) -> list[str]:
        return sorted((s for s in self.flotillas if self.afloat(s)), key=lambda s: (self.flotillas[s], s))


@dataclass
class Shot:
    """One roll on the Naval CRT and what it does to its target (8.52, 8.24)."""

    phase: str
    side: str
    firer: str
    target: str
    column: int
    die: int
    modifier: int
    result: int
    provisional: bool


# ---------------------------------------------------------------- set-up (8.2)

def commanding_fleet(static: NavalStatic, fleets: list[Fleet]) -> Fleet:
    """Several fleets of one side in the hex fight as one force under the admiral with the highest Initiative
    Rating (ties: fleet id). interpretations.md, 8.2."""
    return sorted(fleets, key=lambda f: (-static.admiral(f.admiral).initiative, f.id))[0]


def deploy(static: NavalStatic, force: Force, ships: list[str]) -> None:
    """RSR 8.2: battleships in boxes 1, 2, ...; then cruisers by Attack Strength, highest first; destroyer
    flotillas in flotilla boxes 1, 2, ..., torpedo flotillas after them."""
    battleships = [s for s in ships if static.ship(s).cls == "B"]
    cruisers = sorted((s for s in ships if static.ship(s).cls == "C"), key=lambda s: -static.ship(s).attack)
    for box, ship in enumerate(battleships + cruisers, start=1):
        force.line[ship] = box
    boats = [s for s in ships if static.ship(s).cls == "DF"] + [s for s in ships if static.ship(s).cls == "TF"]
    for box, ship in enumerate(boats, start=1):
        force.flotillas[ship] = box


def secondary_force(static: NavalStatic, forces: dict[str, Force]) -> None:
    """RSR 8.2: the side with more capital ships moves its excess, from the back of the battleline, to the
    Secondary Force; each keeps its box number (8.53; interpretations.md)."""
    ru, jp = len(forces["russia"].line), len(forces["japan"].line)
    larger = forces["russia"] if ru > jp else forces["japan"]
    excess = abs(ru - jp)
    if excess:
        back = sorted(larger.line, key=lambda s: -larger.line[s])[:excess]
        larger.secondary = sorted(back, key=lambda s: larger.line[s])
        place_secondary(static, larger, forces[enemy_of(larger.side)])


def place_secondary(static: NavalStatic, force: Force, enemy: Force,
                    asked: dict[str, int] | None = None) -> list[str]:
    """RSR 8.2, 8.48: the plan puts Secondary Force ships in the boxes it names, or each in the box of the
    enemy's weakest capital ship (no stacking limit in the Secondary Force); a plan that says ask takes the
    boxes the admiral answered this hour (ships not named stay)."""
    rule = force.plan["secondary"]
    if rule == battle_plans.ASK:
        wanted = dict(asked or {})
    elif rule == "weakest":
        targets = sorted(enemy.capital(), key=lambda s: (static.ship(s).defense, enemy.line[s], s))
        wanted = {ship: enemy.line[targets[0]] for ship in force.secondary} if targets else {}
    else:
        wanted = {ship: int(box) for ship, box in sorted(rule.items())}
    moved = []
    for ship, box in sorted(wanted.items()):
        if ship in force.secondary and force.afloat(ship) and force.line[ship] != box:
            force.line[ship] = box
            moved.append(ship)
    return moved


def flagship_of(static: NavalStatic, fleet: Fleet, ships: list[str]) -> str | None:
    """The admiral's flagship: the commanding fleet's first capital ship as listed (interpretations.md, 8.75)."""
    return next((s for s in fleet.ships if s in ships and static.ship(s).capital), None)


def display(force: Force) -> dict[str, Any]:
    return {"battleline": {str(b): s for s, b in sorted(force.line.items(), key=lambda x: x[1])
                           if force.afloat(s) and s not in force.secondary},
            "secondary": {str(b): sorted(s for s in force.secondary if force.afloat(s) and force.line[s] == b)
                          for b in sorted({force.line[s] for s in force.secondary if force.afloat(s)})},
            "flotillas": {str(b): s for s, b in sorted(force.flotillas.items(), key=lambda x: x[1]) if force.afloat(s)},
            "disabled": sorted(s for s in force.disabled if force.afloat(s))}


# ---------------------------------------------------------------- weather and range (8.3, 8.4)

def weather_change(weather: str, die: int) -> str:
    """RSR 8.31-8.33."""
    if weather == "clear":
        return "fog" if die == 6 else "clear"
    if weather == "fog":
        return "clear" if die <= 3 else ("storm" if die <= 5 else "fog")
    return "clear" if die <= 2 else ("fog" if die == 6 else "storm")


def opening_allowance(static: NavalStatic, force: Force) -> int:
    """RSR 8.42: a side moves the marker up to its morale; at zero morale it must open up to 6 (8.77), 5 for
    the Baltic fleet under Rozhestvansky (8.77 errata)."""
    if force.morale > 0:
        return force.morale
    return BALTIC_ZERO_MORALE_OPENING if static.admiral(force.admiral).name == "Rozhestvansky" \
        else ZERO_MORALE_OPENING


def range_move(current: int, wish: Any, allowance: int, breaking: bool) -> int:
    """One side's move of the Japanese Range marker (8.42, 8.47, 8.77)."""
    if breaking or wish == "open":
        return current + allowance
    target = 0 if wish == "close" else (current if wish == "hold" else int(wish))
    step = max(-allowance, min(allowance, target - current))
    return max(0, current + step)


def determine_range(ctx: Context, static: NavalStatic, forces: dict[str, Force], current: int,
                    history: list[int], hour: int) -> tuple[int, str]:
    """RSR 8.42-8.47: both sides move the marker, the Russian first; after two phases ending at the same
    range the Naval Maneuver Table decides instead (8.44-8.45; not while a fleet must break off, 8.77)."""
    if len(history) >= 2 and history[-1] == history[-2] and not any(f.morale == 0 for f in forces.values()):
        die = ctx.roll(6, f"Naval Maneuver Table, hour {hour}, RSR 8.49")
        new = max(0, current + MANEUVER[die])
        ctx.emit("naval-maneuver", f"hour {hour}: range unchanged twice, Naval Maneuver Table die {die}: "
                 f"{MANEUVER[die]:+d}, range {current} -> {new}", "RSR 8.44", hour=hour, die=die,
                 change=MANEUVER[die], range=new)
        return new, "maneuver"
    new = current
    for side in SIDES:  # RSR 8.42: the Russian first
        force = forces[side]
        forced = force.breaking or force.morale == 0  # RSR 8.77: at zero morale it opens, whatever its plan
        new = range_move(new, "open" if forced else force.plan["range"], opening_allowance(static, force), forced)
    return new, "plans"


# ---------------------------------------------------------------- gunnery (8.5)

def legal_targets(firer_box: int, enemy: Force) -> list[str]:
    """RSR 8.51, 8.53: the opposite number or the box one either side; Secondary Force ships count at their
    box number."""
    return [s for s in enemy.capital() if abs(enemy.line[s] - firer_box) <= 1]


def choose_target(static: NavalStatic, rule: str, box: int, enemy: Force) -> str | None:
    """The plan's target rule among the legal targets (8.51)."""
    legal = legal_targets(box, enemy)
    if not legal:
        return None
    if rule == "weakest":
        return sorted(legal, key=lambda s: (static.ship(s).defense, enemy.line[s], s))[0]
    if rule == "strongest":
        return sorted(legal, key=lambda s: (-static.ship(s).attack, enemy.line[s], s))[0]
    order = {box: 0, box - 1: 1, box + 1: 2}
    ranked = sorted(legal, key=lambda s: (order[enemy.line[s]], s))
    if rule == "disabled":
        hurt = [s for s in ranked if s in enemy.disabled]
        return hurt[0] if hurt else ranked[0]
    return ranked[0]


def gunnery_modifier(range_now: int, weather: str, disabled: bool) -> int:
    """RSR 8.54: -1 per Range Box, -2 storm, -1 fog, -3 for a disabled firing ship."""
    return -range_now - WEATHER_MODIFIER[weather] - (3 if disabled else 0)


def roll_shot(ctx: Context, static: NavalStatic, phase: str, side: str, firer: str, target: str, column: int,
              modifier: int, hour: int) -> Shot:
    die = ctx.roll(6, f"{phase}: {firer} at {target}, hour {hour}, RSR 8.52")
    result, provisional = static.crt(column, die + modifier)
    return Shot(phase, side, firer, target, column, die, modifier, result, provisional)


def effect(static: NavalStatic, target: Force, ship: str, result: int) -> str:
    """RSR 8.52, 8.24: disabled at the Defense Strength, sunk at twice it or when disabled again."""
    defense = static.ship(ship).defense
    if not target.afloat(ship):
        return "already sunk"
    if result >= 2 * defense:
        return "sunk"
    if result >= defense:
        return "sunk" if ship in target.disabled else "disabled"
    return "no effect"


def apply_shot(ctx: Context, static: NavalStatic, forces: dict[str, Force], shot: Shot, hour: int) -> str:
    """Apply one result and log the roll; the admiral's flagship hit calls for the Admiral Casualty Table."""
    target = forces[enemy_of(shot.side)]
    outcome = effect(static, target, shot.target, shot.result)
    if outcome == "sunk":
        target.sunk.append(shot.target)
        target.sunk_points += static.ship(shot.target).defense
    elif outcome == "disabled":
        target.disabled.append(shot.target)
    provisional = [f"Naval CRT column {shot.column} die {shot.die + shot.modifier}: provisional"] \
        if shot.provisional and shot.die + shot.modifier >= 1 else []
    ctx.emit("naval-" + shot.phase, f"hour {hour}: {shot.firer} fires at {shot.target} on the {shot.column} column: "
             f"die {shot.die} {shot.modifier:+d} -> {shot.result}: {outcome}", "RSR 8.52", provisional,
             hour=hour, side=shot.side, firer=shot.firer, target=shot.target, column=shot.column, die=shot.die,
             modifier=shot.modifier, result=shot.result, outcome=outcome)
    if shot.target == target.flagship and outcome in ("sunk", "disabled"):
        admiral_casualty(ctx, static, target, outcome, hour)
    return outcome


def admiral_casualty(ctx: Context, static: NavalStatic, force: Force, outcome: str, hour: int) -> None:
    """RSR 8.75: losing the flagship kills the admiral; a disabled flagship rolls on the Admiral Casualty
    Table (8.56: 1-3 nothing, 4 wounded, 5-6 killed). When to roll is not in the text: interpretations.md."""
    if force.admiral_killed or force.casualty_pending == "killed":
        return
    if outcome == "sunk":
        force.casualty_pending = "killed"
        ctx.emit("naval-admiral", f"hour {hour}: the flagship {force.flagship} is sunk: "
                 f"{static.admiral(force.admiral).name} is killed", "RSR 8.75", hour=hour, side=force.side,
                 admiral=force.admiral, result="killed", die=None)
        return
    die = ctx.roll(6, f"Admiral Casualty Table for {static.admiral(force.admiral).name}, RSR 8.56")
    result = "none" if die <= 3 else ("wounded" if die == 4 else "killed")
    if result != "none":
        force.casualty_pending = result if force.casualty_pending is None or result == "killed" \
            else force.casualty_pending
    ctx.emit("naval-admiral", f"hour {hour}: flagship {force.flagship} disabled: Admiral Casualty Table die {die}: "
             f"{static.admiral(force.admiral).name} {'unhurt' if result == 'none' else result}", "RSR 8.56",
             hour=hour, side=force.side, admiral=force.admiral, result=result, die=die)


def gunnery_phase(ctx: Context, static: NavalStatic, forces: dict[str, Force], range_now: int, weather: str,
                  hour: int, asked: dict[str, dict[str, Any]] | None = None) -> list[str]:
    """RSR 8.5: every capital ship fires once, the Russian first; all results apply after both have fired.
    ``asked``: a side asked hour by hour names each ship's target (ships left out fire by its ``rule``)."""
    shots: list[Shot] = []
    fired: list[str] = []
    for side in SIDES:
        force, enemy = forces[side], forces[enemy_of(side)]
        given = (asked or {}).get(side)
        for ship in force.capital():
            named = given["targets"].get(ship) if given else None
            target = named or choose_target(static, given["rule"] if given else force.plan["targets"],
                                            force.line[ship], enemy)
            if target is None:
                continue
            modifier = gunnery_modifier(range_now, weather, ship in force.disabled)
            shots.append(roll_shot(ctx, static, "gunnery", side, ship, target, static.ship(ship).attack,
                                   modifier, hour))
            fired.append(ship)
    for shot in shots:
        apply_shot(ctx, static, forces, shot, hour)
    return fired


# ---------------------------------------------------------------- torpedo attacks (8.6)

def torpedo_option_order(ctx: Context, forces: dict[str, Force], hour: int) -> list[str]:
    """RSR 8.6: the higher current morale has the first option; equal morale: a die, 1-3 Russian."""
    ru, jp = forces["russia"].morale, forces["japan"].morale
    if ru != jp:
        return ["russia", "japan"] if ru > jp else ["japan", "russia"]
    die = ctx.roll(6, f"first torpedo option, hour {hour}, RSR 8.6")
    return ["russia", "japan"] if die <= 3 else ["japan", "russia"]


def torpedo_target(force: Force, enemy: Force, static: NavalStatic, rule: str | None = None) -> str | None:
    """The plan's torpedo target (8.61: a capital ship or an enemy flotilla); asked hour by hour, the rule may
    be an enemy ship afloat, named."""
    planned = force.plan["torpedo"]["target"]
    rule = rule or (planned if isinstance(planned, str) else "capital")
    capital = sorted(enemy.capital(), key=lambda s: (static.ship(s).defense, enemy.line[s], s))
    if rule in capital or rule in enemy.boats():
        return rule
    if rule == "flagship" and enemy.flagship in capital:
        return enemy.flagship
    if rule == "flotilla" and enemy.boats():
        return enemy.boats()[0]
    return capital[0] if capital else (enemy.boats()[0] if enemy.boats() else None)


def plan_torpedo(force: Force, range_now: int) -> dict[str, Any]:
    """A side's torpedo decision as its plan gives it (8.6, 8.61)."""
    torpedo = force.plan["torpedo"]
    return {"attack": battle_plans.wants_torpedo_attack(force.plan, range_now), "flotillas": torpedo["flotillas"],
            "target": torpedo["target"]}


def torpedo_phase(ctx: Context, static: NavalStatic, forces: dict[str, Force], range_now: int, weather: str,
                  hour: int) -> str | None:
    """RSR 8.6-8.65: one side may attack; flotillas go in box order; flotillas facing an enemy flotilla fight
    it (both ways, range 0); the others torpedo a target that fires back first; all results at the end."""
    if not any(forces[side].boats() for side in SIDES):
        return None  # no flotilla on either side: nobody can attack, no die for the option
    order = torpedo_option_order(ctx, forces, hour)
    return torpedo_attacks(ctx, static, forces, order, {s: plan_torpedo(forces[s], range_now) for s in SIDES},
                           weather, hour)


def torpedo_attacks(ctx: Context, static: NavalStatic, forces: dict[str, Force], order: list[str],
                    decisions: dict[str, dict[str, Any]], weather: str, hour: int) -> str | None:
    """RSR 8.6-8.65 once the option order and each side's decision (plan or asked) are known."""
    attacker = None
    for side in order:
        force = forces[side]
        if force.boats() and decisions.get(side, {}).get("attack"):
            attacker = side
            break
        ctx.emit("naval-torpedo-option", f"hour {hour}: {side} declines a torpedo attack", "RSR 8.6", hour=hour,
                 side=side, attack=False)
    if attacker is None:
        return None
    force, enemy = forces[attacker], forces[enemy_of(attacker)]
    count = decisions[attacker]["flotillas"]
    going = force.boats() if count == "all" else force.boats()[:int(count)]  # RSR 8.61: in box order
    ctx.emit("naval-torpedo-option", f"hour {hour}: {attacker} attacks with {', '.join(going)}", "RSR 8.61",
             hour=hour, side=attacker, attack=True, flotillas=list(going))
    facing = {b: s for s, b in enemy.flotillas.items() if enemy.afloat(s)}
    shots: list[Shot] = []
    adjacent = [f for f in going if force.flotillas[f] in facing]
    for boat in adjacent:  # the attackers fire first, then the defenders (simultaneous, range 0)
        other = facing[force.flotillas[boat]]
        shots.append(roll_shot(ctx, static, "flotilla-gunnery", attacker, boat, other, static.ship(boat).attack,
                               gunnery_modifier(0, weather, boat in force.disabled), hour))
    for boat in adjacent:
        other = facing[force.flotillas[boat]]
        shots.append(roll_shot(ctx, static, "flotilla-gunnery", enemy.side, other, boat, static.ship(other).attack,
                               gunnery_modifier(0, weather, other in enemy.disabled), hour))
    wanted = decisions[attacker]["target"]
    for boat in [f for f in going if f not in adjacent]:
        rule = wanted.get(boat, "capital") if isinstance(wanted, dict) else wanted  # RSR 8.61: each its own target
        target = torpedo_target(force, enemy, static, rule)
        if target is None:
            break
        back = roll_shot(ctx, static, "return-fire", enemy.side, target, boat, static.ship(target).attack,
                         gunnery_modifier(0, weather, target in enemy.disabled), hour)
        shots.append(back)
        if effect(static, force, boat, back.result) != "no effect":  # RSR 8.61: the attack is aborted
            continue
        shots.append(roll_shot(ctx, static, "torpedo", attacker, boat, target, TORPEDO_COLUMN,
                               gunnery_modifier(0, weather, boat in force.disabled), hour))
    for shot in shots:
        apply_shot(ctx, static, forces, shot, hour)
    return attacker


# ---------------------------------------------------------------- morale (8.7)

def morale_phase(ctx: Context, static: NavalStatic, forces: dict[str, Force], hour: int) -> None:
    """RSR 8.72 (one per five Defense Strength Points sunk), 8.74 (wounded: -1), 8.75 (killed: zero)."""
    for side in SIDES:
        force = forces[side]
        before = force.morale
        steps = force.sunk_points // 5 - force.counted_points // 5
        force.counted_points = force.sunk_points
        force.morale = max(0, force.morale - steps)
        if force.casualty_pending == "wounded" and not force.admiral_wounded:
            force.admiral_wounded = True
            force.morale = max(0, force.morale - 1)
        elif force.casualty_pending == "killed":
            force.admiral_killed = True
            force.morale = 0
        force.casualty_pending = None
        if force.morale != before:
            ctx.emit("naval-morale", f"hour {hour}: {side} morale {before} -> {force.morale} "
                     f"({force.sunk_points} defense points sunk"
                     f"{', admiral killed' if force.admiral_killed else ''}"
                     f"{', admiral wounded' if force.admiral_wounded and not force.admiral_killed else ''})",
                     "RSR 8.72", hour=hour, side=side, before=before, morale=force.morale,
                     sunk_points=force.sunk_points)
        if force.morale == 0 and not force.breaking:
            force.breaking = True
            ctx.emit("naval-break-off", f"hour {hour}: {side} morale zero: the fleet must break off", "RSR 8.76",
                     hour=hour, side=side, reason="morale zero")


# ---------------------------------------------------------------- the battle (4.4)

def enemy_of(side: str) -> str:
    return "japan" if side == "russia" else "russia"


def _force(static: NavalStatic, side: str, fleets: list[Fleet], plan: dict[str, Any], disabled: list[str],
           sunk: list[str]) -> Force:
    chief = commanding_fleet(static, fleets)
    ships = [s for f in sorted(fleets, key=lambda f: f.id != chief.id) for s in f.ships if s not in sunk]
    force = Force(side, [f.id for f in sorted(fleets, key=lambda f: f.id)], chief.admiral, chief.morale, plan)
    deploy(static, force, ships)
    force.disabled = [s for s in ships if s in disabled]
    force.flagship = flagship_of(static, chief, ships)
    return force


def _search_roll(ctx: Context, static: NavalStatic, force: Force, hex_number: int, weather: str, hour: int) -> bool:
    """RSR 8.84, 6.22-6.24: one side's search with this hour's weather and its destroyer flotillas."""
    destroyers = sum(1 for s in force.boats() if static.ship(s).cls == "DF")
    die = ctx.roll(6, f"{force.side} search, hour {hour}, RSR 8.84")
    modifier = search_modifier(weather, destroyers)
    limit = search_limit(static, hex_number)
    found = die + modifier <= limit
    ctx.emit("naval-search", f"hour {hour}: {force.side} searches: {weather}, die {die} {modifier:+d} (limit {limit}) "
             f"-> {'sighted' if found else 'nothing'}", "RSR 8.84", hour=hour, side=force.side, die=die,
             modifier=modifier, limit=limit, found=found)
    return found


@dataclass
class Battle:
    """A tactical battle under way (issue 13), kept in the naval state between passes so that it may stop at
    an admiral's hourly request and go on in the next packet. ``step`` is where the current hour stands;
    ``answers`` holds this hour's asked answers by ``what:side``; ``asking`` the request the battle waits for."""

    hex: int
    weather: str
    hours: int
    range: int
    forces: dict[str, Force]
    fleets: list[Fleet]
    hour: int = 0
    history: list[int] = field(default_factory=list)
    in_sight: bool = True
    log: list[dict[str, Any]] = field(default_factory=list)
    ended: str = ""
    step: str = "hour"  # refuse | hour | search | range:<side> | sighting | secondary | targets | torpedo | morale
    how: str = "plans"
    asking: dict[str, Any] | None = None
    answers: dict[str, Any] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)   # this hour's torpedo option order (8.6), once rolled
    port_sides: list[str] = field(default_factory=list)  # sides to which the hex is a friendly port (8.1)


def asks(force: Force, what: str) -> bool:
    """Issue 13: the side's plan says ``ask`` for this choice, so the admiral is asked every hour."""
    if what == "torpedo":
        return bool(force.plan["torpedo"]["attack"] == battle_plans.ASK)
    return bool(force.plan[what] == battle_plans.ASK)


def begin(ctx: Context, static: NavalStatic, hex_number: int, russian: list[Fleet], japanese: list[Fleet],
          weather: str, setting: BattleSetting | None = None) -> Battle | BattleResult:
    """RSR 8.1, 8.2, 8.21-8.23: the plans, a refusal in port (the battle is then over), the display and the hours."""
    setting = setting or BattleSetting()
    side_plans = {side: battle_plans.check_plan(setting.plans.get(side), side) for side in SIDES}
    forces = {"russia": _force(static, "russia", russian, side_plans["russia"], list(setting.disabled),
                               list(setting.sunk)),
              "japan": _force(static, "japan", japanese, side_plans["japan"], list(setting.disabled),
                              list(setting.sunk))}
    for side in SIDES:
        ctx.emit("naval-plan", f"{side} battle plan{'' if side in setting.plans else ' (default, none signed)'}: "
                 f"{side_plans[side]}", "RSR 8.42", side=side, plan=side_plans[side],
                 default=side not in setting.plans)
    battle = Battle(hex_number, weather, 0, 0, forces, list(russian) + list(japanese), step="refuse",
                    port_sides=[side for side in SIDES if side in setting.port_sides])
    refused = _refuse(ctx, static, battle)
    return refused if refused is not None else battle


def _refuse(ctx: Context, static: NavalStatic, battle: Battle) -> BattleResult | None:
    """RSR 8.1, 8.73: in a port hex friendly to one side, that side may refuse (its plan says, or it is asked):
    its fleets turn to their in-Port side and lose one morale; otherwise the display is set up (8.2)."""
    for side in battle.port_sides:
        force = battle.forces[side]
        if asks(force, "refuse_in_port"):
            if f"refuse:{side}" not in battle.answers:
                battle.asking = {"kind": "naval-refuse", "side": side}
                return None
            refuse = battle.answers[f"refuse:{side}"]["refuse"]
        else:
            refuse = force.plan["refuse_in_port"]
        if refuse:
            ctx.emit("naval-refused", f"naval hex {battle.hex} is a {side} port: {side} refuses combat, turns to its "
                     "in-Port side and loses one morale", "RSR 8.1", hex=battle.hex, side=side)
            fleets = [f for f in battle.fleets if f.side == side]
            return BattleResult(morale={f.id: max(0, f.morale - 1) for f in fleets},  # RSR 8.73
                                to_port=[f.id for f in fleets], hours=[])
    _set_up(ctx, static, battle)
    return None


def _set_up(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.2, 8.21-8.23: the Secondary Force, the hours of combat (2d6), the range marker, the morale track."""
    forces, weather = battle.forces, battle.weather
    secondary_force(static, forces)
    dice = [ctx.roll(6, "hours of combat, RSR 8.22"), ctx.roll(6, "hours of combat, RSR 8.22")]
    battle.hours = sum(dice)
    battle.range = MAX_SIGHTING[weather]  # RSR 8.41: the Japanese marker starts at the maximum sighting range
    ctx.emit("naval-setup", f"naval battle in hex {battle.hex}: {battle.hours} hours ({dice[0]}+{dice[1]}), "
             f"{weather}, range {battle.range}", "RSR 8.2", hex=battle.hex, hours=battle.hours, weather=weather,
             range=battle.range, display={s: display(forces[s]) for s in SIDES},
             morale={s: forces[s].morale for s in SIDES}, flagships={s: forces[s].flagship for s in SIDES})
    battle.step = "hour"


def fight(ctx: Context, static: NavalStatic, hex_number: int, russian: list[Fleet], japanese: list[Fleet],
          weather: str, setting: BattleSetting | None = None) -> BattleResult:
    """RSR 4.4: the whole battle, hour by hour, from both plans (a missing plan is DEFAULT_PLAN). A plan that
    asks hour by hour needs the game's requests (flow.py): called directly, such a battle is refused."""
    started = begin(ctx, static, hex_number, russian, japanese, weather, setting)
    if isinstance(started, BattleResult):
        return started
    result = run(ctx, static, started)
    if result is None:
        raise RulesError("this battle plan asks hour by hour: the battle must be fought through the game's "
                         "requests (issue 13)")
    return result


def run(ctx: Context, static: NavalStatic, battle: Battle) -> BattleResult | None:
    """RSR 4.41-4.45, 8.3-8.86: fight on from where the battle stands until it is over (its result) or an
    admiral who asked to be asked must answer (None; ``battle.asking`` says what)."""
    forces = battle.forces
    while battle.asking is None:
        if battle.step == "refuse":
            refused = _refuse(ctx, static, battle)
            if refused is not None:
                return refused
        elif battle.step == "hour":
            if battle.ended or battle.hour >= battle.hours:
                battle.ended = battle.ended or "hours of combat over (RSR 8.85)"
                return _result(ctx, static, forces, battle.fleets, battle.hex, battle.ended, battle.log)
            _start_hour(ctx, static, battle)
        elif battle.step.startswith("range:"):
            _range_move(ctx, static, battle, battle.step.split(":")[1])
        elif battle.step == "search":
            _search(ctx, static, battle)
        elif battle.step == "sighting":
            _sighting(ctx, static, battle)
        elif battle.step == "secondary":
            _secondary(ctx, static, battle)
        elif battle.step == "targets":
            _targets(ctx, static, battle)
        elif battle.step == "torpedo":
            _torpedo(ctx, static, battle)
        else:  # morale
            morale_phase(ctx, static, forces, battle.hour)
            battle.log.append(_hour(ctx, forces, battle.hour, battle.weather, battle.range, battle.how,
                                    battle.answers.get("attacker")))
            if not any(forces[s].capital() or forces[s].boats() for s in SIDES[:1]) or \
                    not any(forces[s].capital() or forces[s].boats() for s in SIDES[1:]):
                battle.ended = "a side has no ships left"
            battle.step, battle.answers, battle.order = "hour", {}, []
    return None


def _start_hour(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 4.41 (weather), the plans' break-off conditions, 8.84 (out of sight: search), 8.44 (maneuver)."""
    forces = battle.forces
    battle.hour += 1
    hour = battle.hour
    if hour > 1:  # RSR 4.41, 8.3
        battle.weather = weather_change(battle.weather, ctx.roll(6, f"weather, hour {hour}, RSR 8.3"))
    for side in SIDES:
        force = forces[side]
        if not force.breaking and battle_plans.wants_break_off(force.plan, force.morale, force.sunk_points, hour):
            force.breaking = True
            ctx.emit("naval-break-off", f"hour {hour}: {side} breaks off as its plan says", "RSR 8.8",
                     hour=hour, side=side, reason="plan")
        if not force.breaking and force.morale == 0:  # RSR 8.76: a fleet that comes to battle at zero morale
            force.breaking = True
            ctx.emit("naval-break-off", f"hour {hour}: {side} morale zero: the fleet must break off", "RSR 8.76",
                     hour=hour, side=side, reason="morale zero")
    if battle.in_sight and battle.range > MAX_SIGHTING[battle.weather]:
        _weather_loses_sight(ctx, battle)
        return
    if not battle.in_sight:
        if battle.range > MAX_SIGHTING[battle.weather]:
            battle.step = "search"  # RSR 8.84: still out of sight, each side may search
            return
        battle.in_sight = True
    _range_phase(ctx, static, battle)


def _weather_loses_sight(ctx: Context, battle: Battle) -> None:
    """RSR 4.42, 8.81-8.83, flow chart step A: the hour's new weather alone puts a range the fleets were in sight
    at beyond the maximum sighting range. The action is broken off for now, so this hour has a Search Phase
    (8.84) in place of a Range Determination Phase (for good when a fleet is at zero morale, 8.76 errata);
    losing sight clears the count of ranges for the Naval Maneuver Table (8.46). interpretations.md, 8.84."""
    forces, hour = battle.forces, battle.hour
    battle.in_sight, battle.history = False, []
    limit = MAX_SIGHTING[battle.weather]
    ctx.emit("naval-lost-sight", f"hour {hour}: {battle.weather}: range {battle.range} is beyond the sighting "
             f"range of {limit}: the action is broken off for now", "RSR 4.42", hour=hour, weather=battle.weather,
             range=battle.range, max_sighting=limit, cause="weather")
    if any(f.morale == 0 for f in forces.values()):  # RSR 8.76: the fleet at zero morale is gone
        battle.log.append(_hour(ctx, forces, hour, battle.weather, battle.range, "weather, beyond sighting", None))
        battle.ended = "broken off (morale zero)"
        battle.step, battle.answers = "hour", {}
        return
    battle.step = "search"


def _search(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.84: out of sight, the Japanese then the Russian may search (plan or asked this hour; never while
    breaking off); a sighting puts the fleets at the maximum sighting range (8.41), else the hour passes."""
    forces, hour = battle.forces, battle.hour
    for side in ("japan", "russia"):
        force = forces[side]
        if f"searched:{side}" in battle.answers or force.breaking:
            continue
        if asks(force, "search"):
            if f"search:{side}" not in battle.answers:
                battle.asking = {"kind": "naval-search-again", "side": side}
                return
            wanted = battle.answers[f"search:{side}"]["search"]
        else:
            wanted = force.plan["search"]
        battle.answers[f"searched:{side}"] = True
        if wanted and _search_roll(ctx, static, force, battle.hex, battle.weather, hour):
            battle.in_sight, battle.range, battle.history = True, MAX_SIGHTING[battle.weather], []  # 8.84 -> 8.41
            _range_phase(ctx, static, battle)
            return
    battle.log.append(_hour(ctx, forces, hour, battle.weather, battle.range, "out of sight", None))
    battle.step, battle.answers = "hour", {}


def _range_phase(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.42-8.45: the Naval Maneuver Table after two phases at one range, else both sides move."""
    forces, hour = battle.forces, battle.hour
    history = battle.history
    if len(history) >= 2 and history[-1] == history[-2] and not any(f.morale == 0 for f in forces.values()):
        battle.range, battle.how = determine_range(ctx, static, forces, battle.range, history, hour)  # 8.44
        battle.step = "sighting"
        return
    battle.how, battle.step = "plans", "range:russia"  # RSR 8.42: the Russian first


def _range_move(ctx: Context, static: NavalStatic, battle: Battle, side: str) -> None:
    """RSR 8.42, 8.47, 8.77: one side moves the Japanese Range marker, from its plan or asked this hour (the
    Japanese sees the Russian move first: 8.42 makes them one after the other, not simultaneous)."""
    force = battle.forces[side]
    forced = force.breaking or force.morale == 0
    allowance = opening_allowance(static, force)
    if asks(force, "range") and not forced:
        key = f"range:{side}"
        if key not in battle.answers:
            battle.asking = {"kind": "naval-range", "side": side}
            return
        wish = battle.answers[key]
        before = battle.range
        battle.range = range_move(before, wish, allowance, False)
        battle.how = "asked"
        ctx.emit("naval-range-choice", f"hour {battle.hour}: {side} moves the range {before} -> {battle.range} "
                 f"({wish})", "RSR 8.42", hour=battle.hour, side=side, wish=wish, before=before, range=battle.range)
    else:
        battle.range = range_move(battle.range, "open" if forced else force.plan["range"], allowance, forced)
    battle.step = "range:japan" if side == "russia" else "sighting"


def _sighting(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.43, 8.81-8.83: beyond the maximum sighting range the action is broken off for now (8.76: for
    good if a fleet is at zero morale); else the Secondary Force may move (8.48)."""
    forces, hour = battle.forces, battle.hour
    if battle.range > MAX_SIGHTING[battle.weather]:
        battle.in_sight, battle.history = False, []
        battle.log.append(_hour(ctx, forces, hour, battle.weather, battle.range, battle.how + ", beyond sighting",
                                None))
        if any(f.morale == 0 for f in forces.values()):  # RSR 8.76: the fleet at zero morale is gone
            battle.ended = "broken off (morale zero)"
        battle.step, battle.answers = "hour", {}
        return
    battle.history.append(battle.range)
    battle.step = "secondary"


def _secondary(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.48: after the new range, each side's Secondary Force may move (plan, or asked this hour)."""
    forces, hour = battle.forces, battle.hour
    for side in SIDES:
        force = forces[side]
        if asks(force, "secondary") and any(force.afloat(s) for s in force.secondary) \
                and f"secondary:{side}" not in battle.answers:
            battle.asking = {"kind": "naval-secondary", "side": side}
            return
    for side in SIDES:
        asked = battle.answers.get(f"secondary:{side}", {}).get("boxes")
        for ship in place_secondary(static, forces[side], forces[enemy_of(side)], asked):
            ctx.emit("naval-secondary", f"hour {hour}: {side} moves {ship} to Secondary Force box "
                     f"{forces[side].line[ship]}", "RSR 8.48", hour=hour, side=side, ship=ship,
                     box=forces[side].line[ship])
    battle.step = "targets"


def target_options(battle: Battle, side: str) -> dict[str, list[str]]:
    """RSR 8.51, 8.53: each capital ship of ``side`` and its legal targets."""
    force, enemy = battle.forces[side], battle.forces[enemy_of(side)]
    return {ship: legal for ship in force.capital() if (legal := legal_targets(force.line[ship], enemy))}


TARGET_ORDER = ("japan", "russia")  # issue 13: the side that answered the range last names its targets first


def _targets(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.5: the targets are chosen as if at once (the text calls gunnery simultaneous): of two admirals
    asked, the first may seal his choice, the other answers, then the first unseals (interpretations.md, 8.5)."""
    asked = [s for s in TARGET_ORDER if asks(battle.forces[s], "targets") and target_options(battle, s)]
    for side in asked:
        if f"targets:{side}" not in battle.answers:
            battle.asking = {"kind": "naval-targets", "side": side,
                             "sealable": side == asked[0] and len(asked) == 2}
            return
    for side in asked:
        if battle.answers[f"targets:{side}"] == "sealed":
            battle.asking = {"kind": "naval-targets-unseal", "side": side}
            return
    orders = {side: battle.answers[f"targets:{side}"] for side in asked}
    for side in asked:
        ctx.emit("naval-targets-choice", f"hour {battle.hour}: {side} names its targets: "
                 + (", ".join(f"{a} at {b}" for a, b in sorted(orders[side]['targets'].items())) or "none")
                 + f"; the others by rule {orders[side]['rule']}", "RSR 8.51", hour=battle.hour, side=side,
                 targets=dict(orders[side]["targets"]), rule=orders[side]["rule"])
    gunnery_phase(ctx, static, battle.forces, battle.range, battle.weather, battle.hour, orders)
    battle.step = "torpedo"


def _torpedo(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.6: the option goes in order (higher morale, else a die); a side asked hour by hour decides when its
    option comes; the first side that attacks ends the options."""
    forces = battle.forces
    if not any(forces[side].boats() for side in SIDES):
        battle.answers["attacker"] = None
        battle.step = "morale"
        return
    if not battle.order:
        battle.order = torpedo_option_order(ctx, forces, battle.hour)
    decisions: dict[str, dict[str, Any]] = {}
    for side in battle.order:
        force = forces[side]
        if not force.boats():
            continue
        if asks(force, "torpedo"):
            key = f"torpedo:{side}"
            if key not in battle.answers:
                battle.asking = {"kind": "naval-torpedo", "side": side}
                return
            decisions[side] = battle.answers[key]
        else:
            decisions[side] = plan_torpedo(force, battle.range)
        if decisions[side]["attack"]:
            break
    battle.answers["attacker"] = torpedo_attacks(ctx, static, forces, battle.order, decisions, battle.weather,
                                                 battle.hour)
    battle.step = "morale"


def check_answer(static: NavalStatic, battle: Battle, kind: str, side: str, answer: Any) -> Any:
    """An hourly answer checked against the display (RSR 8.42, 8.51, 8.61); the value the battle keeps."""
    force, enemy = battle.forces[side], battle.forces[enemy_of(side)]
    if not isinstance(answer, dict):
        raise RulesError(f"hour {battle.hour}: the {side} answer to {kind} is a mapping")
    if kind == "naval-range":
        wish = answer.get("range")
        if set(answer) != {"range"} or not (wish in ("close", "hold", "open")
                                            or (isinstance(wish, int) and not isinstance(wish, bool))):
            raise RulesError(f"hour {battle.hour}: a range answer is {{range: close | hold | open | N}} (RSR 8.42)")
        allowance = opening_allowance(static, force)
        if isinstance(wish, int) and (wish < 0 or abs(wish - battle.range) > allowance):
            raise RulesError(f"hour {battle.hour}: {side} may move the range from {battle.range} by at most "
                             f"{allowance} boxes (its morale), to no less than 0: not to {wish} (RSR 8.42, 8.47)")
        return wish
    if kind == "naval-targets":
        targets, rule = answer.get("targets", {}), answer.get("rule", "opposite")
        if set(answer) - {"targets", "rule"} or not isinstance(targets, dict) or rule not in battle_plans.TARGET_RULES:
            raise RulesError(f"hour {battle.hour}: a target answer is {{targets: {{ship: enemy ship}}, rule: "
                             f"{' | '.join(battle_plans.TARGET_RULES)}}} (RSR 8.51)")
        legal = target_options(battle, side)
        for ship, target in sorted(targets.items()):
            if ship not in legal:
                raise RulesError(f"hour {battle.hour}: {ship} is not a {side} capital ship that can fire (RSR 8.51)")
            if target not in legal[ship]:
                raise RulesError(f"hour {battle.hour}: {ship} in box {force.line[ship]} may fire only at "
                                 f"{', '.join(legal[ship])} (RSR 8.51, 8.53)")
        return {"targets": {str(k): str(v) for k, v in sorted(targets.items())}, "rule": rule}
    if kind == "naval-torpedo":
        attack, count, target = answer.get("attack"), answer.get("flotillas", "all"), answer.get("target", "capital")
        if set(answer) - {"attack", "flotillas", "target"} or not isinstance(attack, bool):
            raise RulesError(f"hour {battle.hour}: a torpedo answer is {{attack: true | false, flotillas: N | all, "
                             "target: capital | flotilla | flagship | enemy ship, or {flotilla: target}} (RSR 8.6, "
                             "8.61)")
        if count != "all" and (not isinstance(count, int) or isinstance(count, bool) or count < 1):
            raise RulesError(f"hour {battle.hour}: flotillas is all or a number, 1 or more, taken in box order "
                             "(RSR 8.61)")
        per_boat = target if isinstance(target, dict) else {"": target}  # RSR 8.61: one target per flotilla
        for boat, aim in sorted(per_boat.items()):
            if boat and boat not in force.boats():
                raise RulesError(f"hour {battle.hour}: {boat} is not a {side} flotilla afloat (RSR 8.61)")
            if not isinstance(aim, str) or (aim not in battle_plans.TORPEDO_TARGETS
                                            and aim not in enemy.capital() + enemy.boats()):
                raise RulesError(f"hour {battle.hour}: torpedo target {aim!r} is not an enemy ship afloat nor one of "
                                 f"{', '.join(battle_plans.TORPEDO_TARGETS)} (RSR 8.61)")
        return {"attack": attack, "flotillas": count,
                "target": dict(sorted(target.items())) if isinstance(target, dict) else target}
    if kind == "naval-refuse":
        if set(answer) != {"refuse"} or not isinstance(answer["refuse"], bool):
            raise RulesError("a refusal answer is {refuse: true | false} (RSR 8.1)")
        return {"refuse": answer["refuse"]}
    if kind == "naval-search-again":
        if set(answer) != {"search"} or not isinstance(answer["search"], bool):
            raise RulesError(f"hour {battle.hour}: a search answer is {{search: true | false}} (RSR 8.84)")
        return {"search": answer["search"]}
    if kind == "naval-secondary":
        boxes = answer.get("boxes", {})
        if set(answer) - {"boxes"} or not isinstance(boxes, dict):
            raise RulesError(f"hour {battle.hour}: a Secondary Force answer is {{boxes: {{ship: box}}}} (RSR 8.48)")
        for ship, box in sorted(boxes.items()):
            if ship not in force.secondary or not force.afloat(ship):
                raise RulesError(f"hour {battle.hour}: {ship} is not a {side} ship afloat in the Secondary Force "
                                 "(RSR 8.2, 8.48)")
            if not isinstance(box, int) or isinstance(box, bool) or box < 1:
                raise RulesError(f"hour {battle.hour}: Secondary Force boxes are numbers from 1 (RSR 8.48)")
        return {"boxes": {str(k): int(v) for k, v in sorted(boxes.items())}}
    raise RulesError(f"no hourly battle request of kind {kind!r}")


def take_answer(static: NavalStatic, battle: Battle, kind: str, side: str, answer: Any, sealed: bool) -> None:
    """Keep an hourly answer (or the mark of a sealed one) and let the battle go on (issue 13)."""
    if kind == "naval-targets-unseal":
        battle.answers[f"targets:{side}"] = check_answer(static, battle, "naval-targets", side, answer)
    elif sealed:
        battle.answers[f"targets:{side}"] = "sealed"
    else:
        battle.answers[f"{ANSWER_KEYS[kind]}:{side}"] = check_answer(static, battle, kind, side, answer)
    battle.asking = None


ANSWER_KEYS = {"naval-range": "range", "naval-targets": "targets", "naval-torpedo": "torpedo",
               "naval-search-again": "search", "naval-secondary": "secondary", "naval-refuse": "refuse"}


def request_options(static: NavalStatic, battle: Battle, side: str) -> dict[str, Any]:
    """What an admiral asked hour by hour sees: the hour, weather, range, morale, the display (8.2)."""
    force = battle.forces[side]
    allowance = opening_allowance(static, force)
    return {"hex": battle.hex, "hour": battle.hour, "hours": battle.hours, "weather": battle.weather,
            "range": battle.range, "max_sighting": MAX_SIGHTING[battle.weather],
            "morale": {s: battle.forces[s].morale for s in SIDES}, "allowance": allowance,
            "reach": [max(0, battle.range - allowance), battle.range + allowance],
            "display": {s: display(battle.forces[s]) for s in SIDES},
            "moves": [dict(side=k.split(":")[1], range=v) for k, v in sorted(battle.answers.items())
                      if k.startswith("range:")],
            "targets": target_options(battle, side), "flotillas": force.boats(),
            "secondary": {ship: force.line[ship] for ship in force.secondary if force.afloat(ship)},
            "enemy": sorted(battle.forces[enemy_of(side)].capital() + battle.forces[enemy_of(side)].boats())}


def _hour(ctx: Context, forces: dict[str, Force], hour: int, weather: str, range_now: int, how: str,
          attacker: str | None) -> dict[str, Any]:
    row: dict[str, Any] = {"hour": hour, "weather": weather, "range": range_now, "how": how, "torpedo": attacker,
                           "morale": {s: forces[s].morale for s in SIDES},
                           "sunk": {s: list(forces[s].sunk) for s in SIDES}}
    ctx.emit("naval-hour", f"hour {hour}: {weather}, range {range_now} ({how}); morale Russian "
             f"{forces['russia'].morale}, Japanese {forces['japan'].morale}", "RSR 4.4", **row,
             display={s: display(forces[s]) for s in SIDES})
    return row


def _result(ctx: Context, static: NavalStatic, forces: dict[str, Force], fleets: list[Fleet], hex_number: int,
            ended: str, log: list[dict[str, Any]]) -> BattleResult:
    sunk = [s for side in SIDES for s in forces[side].sunk]
    disabled = [s for side in SIDES for s in forces[side].disabled if forces[side].afloat(s)]
    morale: dict[str, int] = {}
    withdraws: list[str] = []
    killed: dict[str, str] = {}
    for fleet in sorted(fleets, key=lambda f: f.id):
        force = forces[fleet.side]
        # every fleet of a side leaves with the force's morale, never above its own admiral's rating (8.71)
        morale[fleet.id] = min(force.morale, static.admiral(fleet.admiral).initiative)
        if morale[fleet.id] == 0:
            withdraws.append(fleet.id)  # RSR 8.76 errata: to the nearest friendly port
        if force.admiral_killed and fleet.admiral == force.admiral:
            killed[fleet.id] = fleet.admiral
    ctx.emit("naval-battle-over", f"naval battle in hex {hex_number} over: {ended}; sunk {', '.join(sunk) or 'none'}",
             "RSR 8.85", hex=hex_number, ended=ended, sunk=sunk, disabled=disabled, morale=dict(morale),
             withdraws=list(withdraws), hours=len(log), admirals_killed=dict(killed))
    return BattleResult(sunk=sunk, disabled=disabled, morale=morale, withdraws=withdraws, hours=log,
                        admirals_killed=killed)


def surprise_torpedo_attack(ctx: Context, static: NavalStatic, targets: dict[str, str],
                            disabled: list[str]) -> BattleResult:
    """RSR 18.83: each Japanese torpedo flotilla (not destroyers) torpedoes one Russian capital ship on the 1
    column; the target does not fire back; results apply at once."""
    sunk: list[str] = []
    hurt = list(disabled)
    for boat, target in sorted(targets.items()):
        die = ctx.roll(6, f"surprise torpedo attack by {boat} on {target}, RSR 18.83")
        result, provisional = static.crt(TORPEDO_COLUMN, die)
        defense = static.ship(target).defense
        if target in sunk:
            outcome = "already sunk"
        elif result >= 2 * defense or (result >= defense and target in hurt):
            outcome = "sunk"
            sunk.append(target)
        elif result >= defense:
            outcome = "disabled"
            hurt.append(target)
        else:
            outcome = "no effect"
        ctx.emit("naval-torpedo", f"surprise torpedo attack: {boat} at {target}: die {die} -> {result}: {outcome}",
                 "RSR 18.83", [f"Naval CRT column 1 die {die}: provisional"] if provisional else [],
                 side="japan", firer=boat, target=target, column=TORPEDO_COLUMN, die=die, modifier=0,
                 result=result, outcome=outcome, surprise=True)
    return BattleResult(sunk=sunk, disabled=[s for s in hurt if s not in sunk and s not in disabled])


def register() -> None:
    """Issue 13: the tactical battle becomes the naval game's battle engine."""
    register_battle(fight)
