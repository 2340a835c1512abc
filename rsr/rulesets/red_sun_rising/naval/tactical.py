"""The rules of the tactical naval battle (RSR 4.4, RSR 8.0-8.87 with the RSR 8.24 and RSR 8.76-8.77 errata), as
pure functions.

Each function is named after the rule it carries out: the display (RSR 8.2), weather (RSR 8.3), range (RSR 8.4),
gunnery (RSR 8.5), torpedo attacks (RSR 8.6), morale (RSR 8.7), the search out of sight (RSR 8.84), the battle's result
(RSR 8.85) and the surprise attack of RSR 18.83. The battle's flow, hour by hour, with the admirals' hourly
decisions, is battle_flow.py. Every roll is logged as an event with its modifiers and result; Naval CRT cells
that are not printed are provisional (NavalStatic.crt) and every event that used one says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rsr.engine import Context
from rsr.rulesets.red_sun_rising.naval import plans as battle_plans
from rsr.rulesets.red_sun_rising.naval.battle import BattleResult
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.search import search_limit, search_modifier
from rsr.rulesets.red_sun_rising.naval.state import Fleet

SIDES = ("russia", "japan")
MAX_SIGHTING = {"clear": 6, "fog": 4, "storm": 3}          # RSR 8.41, RSR 8.81-8.83
WEATHER_MODIFIER = {"clear": 0, "fog": 1, "storm": 2}      # RSR 8.54 (2, 3)
MANEUVER = {1: 1, 2: -1, 3: -1, 4: -2, 5: -2, 6: -3}       # RSR 8.49
ZERO_MORALE_OPENING = 6                                     # RSR 8.77
BALTIC_ZERO_MORALE_OPENING = 5                              # RSR 8.77 errata (Rozhestvansky)
TORPEDO_COLUMN = 1                                          # RSR 8.61, RSR 18.83


@dataclass
class Force:
    """One side on the Tactical Naval Display (RSR 8.2) and its morale track (RSR 8.23)."""

    side: str
    fleets: list[str]
    admiral: str
    morale: int
    plan: dict[str, Any]
    line: dict[str, int] = field(default_factory=dict)         # capital ship -> battleline box (RSR 8.2)
    secondary: list[str] = field(default_factory=list)        # capital ships in the Secondary Force (RSR 8.2, RSR 8.53)
    flotillas: dict[str, int] = field(default_factory=dict)    # flotilla -> flotilla box (RSR 8.2)
    disabled: list[str] = field(default_factory=list)
    sunk: list[str] = field(default_factory=list)
    sunk_points: int = 0
    counted_points: int = 0                                    # sunk points already taken off morale (RSR 8.72)
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
    """One roll on the Naval CRT and what it does to its target (RSR 8.52, RSR 8.24)."""

    phase: str
    side: str
    firer: str
    target: str
    column: int
    die: int
    modifier: int
    result: int
    provisional: bool


# ---------------------------------------------------------------- set-up (RSR 8.2)

def commanding_fleet(static: NavalStatic, fleets: list[Fleet]) -> Fleet:
    """Several fleets of one side in the hex fight as one force under the admiral with the highest Initiative
    Rating (ties: fleet id). interpretations.md, RSR 8.2."""
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
    Secondary Force; each keeps its box number (RSR 8.53; interpretations.md)."""
    ru, jp = len(forces["russia"].line), len(forces["japan"].line)
    larger = forces["russia"] if ru > jp else forces["japan"]
    excess = abs(ru - jp)
    if excess:
        back = sorted(larger.line, key=lambda s: -larger.line[s])[:excess]
        larger.secondary = sorted(back, key=lambda s: larger.line[s])
        place_secondary(static, larger, forces[enemy_of(larger.side)])


def place_secondary(static: NavalStatic, force: Force, enemy: Force,
                    asked: dict[str, int] | None = None) -> list[str]:
    """RSR 8.2, RSR 8.48: the plan puts Secondary Force ships in the boxes it names, or each in the box of the
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
    """The admiral's flagship: the commanding fleet's first capital ship as listed (interpretations.md, RSR 8.75)."""
    return next((s for s in fleet.ships if s in ships and static.ship(s).capital), None)


def display(force: Force) -> dict[str, Any]:
    return {"battleline": {str(b): s for s, b in sorted(force.line.items(), key=lambda x: x[1])
                           if force.afloat(s) and s not in force.secondary},
            "secondary": {str(b): sorted(s for s in force.secondary if force.afloat(s) and force.line[s] == b)
                          for b in sorted({force.line[s] for s in force.secondary if force.afloat(s)})},
            "flotillas": {str(b): s for s, b in sorted(force.flotillas.items(), key=lambda x: x[1]) if force.afloat(s)},
            "disabled": sorted(s for s in force.disabled if force.afloat(s))}


# ---------------------------------------------------------------- weather and range (RSR 8.3, RSR 8.4)

def weather_change(weather: str, die: int) -> str:
    """RSR 8.31-8.33."""
    if weather == "clear":
        return "fog" if die == 6 else "clear"
    if weather == "fog":
        return "clear" if die <= 3 else ("storm" if die <= 5 else "fog")
    return "clear" if die <= 2 else ("fog" if die == 6 else "storm")


def opening_allowance(static: NavalStatic, force: Force) -> int:
    """RSR 8.42: a side moves the marker up to its morale; at zero morale it must open up to 6 (RSR 8.77), 5 for
    the Baltic fleet under Rozhestvansky (RSR 8.77 errata)."""
    if force.morale > 0:
        return force.morale
    return BALTIC_ZERO_MORALE_OPENING if static.admiral(force.admiral).name == "Rozhestvansky" \
        else ZERO_MORALE_OPENING


def range_move(current: int, wish: Any, allowance: int, breaking: bool) -> int:
    """One side's move of the Japanese Range marker (RSR 8.42, RSR 8.47, RSR 8.77)."""
    if breaking or wish == "open":
        return current + allowance
    target = 0 if wish == "close" else (current if wish == "hold" else int(wish))
    step = max(-allowance, min(allowance, target - current))
    return max(0, current + step)


def determine_range(ctx: Context, static: NavalStatic, forces: dict[str, Force], current: int,
                    history: list[int], hour: int) -> tuple[int, str]:
    """RSR 8.42-8.47: both sides move the marker, the Russian first; after two phases ending at the same
    range the Naval Maneuver Table decides instead (RSR 8.44-8.45; not while a fleet must break off, RSR 8.77)."""
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


# ---------------------------------------------------------------- gunnery (RSR 8.5)

def legal_targets(firer_box: int, enemy: Force) -> list[str]:
    """RSR 8.51, RSR 8.53: the opposite number or the box one either side; Secondary Force ships count at their
    box number."""
    return [s for s in enemy.capital() if abs(enemy.line[s] - firer_box) <= 1]


def choose_target(static: NavalStatic, rule: str, box: int, enemy: Force) -> str | None:
    """The plan's target rule among the legal targets (RSR 8.51)."""
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
    """RSR 8.52, RSR 8.24: disabled at the Defense Strength, sunk at twice it or when disabled again."""
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
    Table (RSR 8.56: 1-3 nothing, 4 wounded, 5-6 killed). When to roll is not in the text: interpretations.md."""
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


# ---------------------------------------------------------------- torpedo attacks (RSR 8.6)

def torpedo_option_order(ctx: Context, forces: dict[str, Force], hour: int) -> list[str]:
    """RSR 8.6: the higher current morale has the first option; equal morale: a die, 1-3 Russian."""
    ru, jp = forces["russia"].morale, forces["japan"].morale
    if ru != jp:
        return ["russia", "japan"] if ru > jp else ["japan", "russia"]
    die = ctx.roll(6, f"first torpedo option, hour {hour}, RSR 8.6")
    return ["russia", "japan"] if die <= 3 else ["japan", "russia"]


def torpedo_target(force: Force, enemy: Force, static: NavalStatic, rule: str | None = None) -> str | None:
    """The plan's torpedo target (RSR 8.61: a capital ship or an enemy flotilla); asked hour by hour, the rule may
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
    """A side's torpedo decision as its plan gives it (RSR 8.6, RSR 8.61)."""
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


# ---------------------------------------------------------------- morale (RSR 8.7)

def morale_phase(ctx: Context, static: NavalStatic, forces: dict[str, Force], hour: int) -> None:
    """RSR 8.72 (one per five Defense Strength Points sunk), RSR 8.74 (wounded: -1), RSR 8.75 (killed: zero)."""
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


# ---------------------------------------------------------------- the battle (RSR 4.4)

def enemy_of(side: str) -> str:
    return "japan" if side == "russia" else "russia"


def build_force(static: NavalStatic, side: str, fleets: list[Fleet], plan: dict[str, Any], disabled: list[str],
           sunk: list[str]) -> Force:
    chief = commanding_fleet(static, fleets)
    ships = [s for f in sorted(fleets, key=lambda f: f.id != chief.id) for s in f.ships if s not in sunk]
    force = Force(side, [f.id for f in sorted(fleets, key=lambda f: f.id)], chief.admiral, chief.morale, plan)
    deploy(static, force, ships)
    force.disabled = [s for s in ships if s in disabled]
    force.flagship = flagship_of(static, chief, ships)
    return force


def search_roll(ctx: Context, static: NavalStatic, force: Force, hex_number: int, weather: str, hour: int) -> bool:
    """RSR 8.84, RSR 6.22-6.24: one side's search with this hour's weather and its destroyer flotillas."""
    destroyers = sum(1 for s in force.boats() if static.ship(s).cls == "DF")
    die = ctx.roll(6, f"{force.side} search, hour {hour}, RSR 8.84")
    modifier = search_modifier(weather, destroyers)
    limit = search_limit(static, hex_number)
    found = die + modifier <= limit
    ctx.emit("naval-search", f"hour {hour}: {force.side} searches: {weather}, die {die} {modifier:+d} (limit {limit}) "
             f"-> {'sighted' if found else 'nothing'}", "RSR 8.84", hour=hour, side=force.side, die=die,
             modifier=modifier, limit=limit, found=found)
    return found


def target_options(force: Force, enemy: Force) -> dict[str, list[str]]:
    """RSR 8.51, RSR 8.53: each capital ship of ``force`` and its legal targets."""
    return {ship: legal for ship in force.capital() if (legal := legal_targets(force.line[ship], enemy))}


def asks(force: Force, what: str) -> bool:
    """RSR 8.42 (plans.py): the side's plan says ``ask`` for this choice, so the admiral is asked every hour."""
    if what == "torpedo":
        return bool(force.plan["torpedo"]["attack"] == battle_plans.ASK)
    return bool(force.plan[what] == battle_plans.ASK)


# ---------------------------------------------------------------- the record of an hour, the result (RSR 4.4, RSR 8.85)

def hour_record(ctx: Context, forces: dict[str, Force], hour: int, weather: str, range_now: int, how: str,
          attacker: str | None) -> dict[str, Any]:
    row: dict[str, Any] = {"hour": hour, "weather": weather, "range": range_now, "how": how, "torpedo": attacker,
                           "morale": {s: forces[s].morale for s in SIDES},
                           "sunk": {s: list(forces[s].sunk) for s in SIDES}}
    ctx.emit("naval-hour", f"hour {hour}: {weather}, range {range_now} ({how}); morale Russian "
             f"{forces['russia'].morale}, Japanese {forces['japan'].morale}", "RSR 4.4", **row,
             display={s: display(forces[s]) for s in SIDES})
    return row


def battle_result(ctx: Context, static: NavalStatic, forces: dict[str, Force], fleets: list[Fleet], hex_number: int,
            ended: str, log: list[dict[str, Any]]) -> BattleResult:
    sunk = [s for side in SIDES for s in forces[side].sunk]
    disabled = [s for side in SIDES for s in forces[side].disabled if forces[side].afloat(s)]
    morale: dict[str, int] = {}
    withdraws: list[str] = []
    killed: dict[str, str] = {}
    for fleet in sorted(fleets, key=lambda f: f.id):
        force = forces[fleet.side]
        # every fleet of a side leaves with the force's morale, never above its own admiral's rating (RSR 8.71)
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


# ---------------------------------------------------------------- the surprise attack (RSR 18.83)

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
