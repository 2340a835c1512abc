"""The whole war, February 1904 to December 1905: the Turn Record Track and the campaign's pure rules.

Data: ``scenarios/red-sun-rising/turns.yaml`` (the track: seasons, the RSR 19.4 cities, and per Game-Turn the
arrivals and withdrawals, Russian command points, Japanese replacement steps and cities required) and
``campaign.yaml`` (the calendar, the RSR 19.0-19.2 set-up, the 18.8x rules of February 1904, the RSR 19.2 Baltic
fleet). :func:`campaign_from_parts` reads them from a combined scenario document (the parts ``track``
and ``campaign``), :func:`load_campaign` from the folder; both validate against their schemas and check
that the two files agree with each other and with the rules they implement.

Everything here is a pure function of that data and its arguments: the season of a turn, the cities
required at a season's end, the RSR 19.4 end of the game, a turn's arrivals and withdrawals, command points
and replacement steps, the Baltic fleet's arrival, the February 1904 rules in force, and the set-up as
placement lists. No state, no dice. The sequence of play calls them.

The Turn Record Track was printed on the map sheet, which we do not have: most of its values are
provisional, each with its reasoning in turns.yaml; :func:`provisional_values` lists those of a turn so
reports can say so (docs/red-sun-rising/interpretations.md, "The campaign").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rsr.errors import BadInput
from rsr.rulesets.red_sun_rising.victory import is_decisive_victory, level_for, seasonal_check_fails

SEASONS: tuple[str, ...] = ("winter", "spring", "summer", "autumn")  # RSR 5.0, RSR 9.17, 15.1x: four seasons
SEASON_DIE_MODIFIER: dict[str, int] = {  # RSR 5.0, RSR 9.17, RSR 15.12-15.14: added to the die by season
    "winter": 2,  # RSR 5.0, RSR 9.17, RSR 15.14
    "spring": 1,  # RSR 5.0, RSR 9.17, RSR 15.13
    "summer": 0,  # RSR 5.0, RSR 15.12
    "autumn": 1,  # RSR 5.0, RSR 9.17, RSR 15.13 ("fall")
}
TRACK_FIELDS: tuple[str, ...] = (  # the values of one Game-Turn that carry provenance
    "month", "season", "japanese_replacement_step", "russian_command_points", "arrive", "withdraw",
    "admirals_arrive", "admirals_withdraw", "cities_required", "special_rules",
)


# -- the data ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TrackTurn:
    """One Game-Turn of the Turn Record Track."""

    number: int
    month: str                                  # "1904-02"
    season: str
    japanese_replacement_step: bool             # RSR 17.22
    russian_command_points: int                 # RSR 17.13
    arrive: tuple[str, ...]                     # RSR 17.11: command unit ids
    withdraw: tuple[str, ...]                   # RSR 17.3: command unit ids
    admirals_arrive: tuple[str, ...] = ()       # admiral names as the track prints them (RSR 19.3)
    admirals_withdraw: tuple[str, ...] = ()
    cities_required: int | None = None          # RSR 19.4: at the end of a season only
    special_rules: tuple[str, ...] = ()         # case numbers in force this turn only (RSR 18.8)
    provenance: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class City:
    """A city counted by RSR 19.4; ``hex`` only where the track names it (the map names the others)."""

    name: str
    hex: str | None


@dataclass(frozen=True)
class SurpriseRule:
    """One February 1904 rule (18.8x)."""

    case: str
    effect: str
    attackers: str | None = None
    targets: tuple[str, ...] = ()
    column: int | None = None
    target_fires: bool = True


@dataclass(frozen=True)
class BalticFleet:
    """RSR 19.2: the Russian naval reinforcement."""

    fleet: str
    month: str
    round: int
    entry_hexes: tuple[int, ...]
    command_initiative: bool
    admiral: str
    ships: tuple[str, ...]


@dataclass(frozen=True)
class NavalStack:
    """Japanese land units and merchant fleets in one strategic naval hex at the start (RSR 19.1)."""

    hex: int
    units: tuple[str, ...]
    merchant_fleets: int


@dataclass(frozen=True)
class LandStack:
    """Russian units in one land hex at the start (RSR 19.2), with the leader they are stacked with."""

    hex: str
    units: tuple[str, ...]
    leader: str | None


@dataclass(frozen=True)
class FleetStart:
    fleet: str
    hex: int
    admiral: str
    ships: tuple[str, ...] | None  # None: the player splits the side's ships (RSR 19.1)


@dataclass(frozen=True)
class Campaign:
    """The track and the campaign data, checked against each other."""

    turns: tuple[TrackTurn, ...]
    seasons: Mapping[int, str]                  # calendar month -> season
    cities: tuple[City, ...]
    first_month: str
    last_month: str
    replacement_months: tuple[int, ...]
    february_month: str
    february_rules: tuple[SurpriseRule, ...]
    baltic: BalticFleet
    japanese_stacks: tuple[NavalStack, ...]
    japanese_fleets: tuple[FleetStart, ...]
    russian_stacks: tuple[LandStack, ...]
    russian_fleets: tuple[FleetStart, ...]
    sunk_before_play: tuple[str, ...]
    default_provenance: str = ""
    season_provenance: str = ""


# -- loading ----------------------------------------------------------------------------------------------

def load_campaign(folder: Path) -> Campaign:
    """Read ``turns.yaml`` and ``campaign.yaml`` of a Red Sun Rising scenario folder."""
    from rsr.yamlio import load_yaml_file

    return campaign_from_parts(load_yaml_file(folder / "turns.yaml"), load_yaml_file(folder / "campaign.yaml"),
                               str(folder))


def campaign_from_parts(track: Any, campaign: Any, where: str = "campaign") -> Campaign:
    """Validate the two parts against their schemas, build the :class:`Campaign` and check it."""
    from rsr.schemas import validate

    validate("red-sun-rising.turn-track", track, f"{where}: turns.yaml")
    validate("red-sun-rising.campaign", campaign, f"{where}: campaign.yaml")
    if len(track["turns"]) != int(campaign["calendar"]["turns"]):  # RSR 19.4: 23 monthly Game-Turns
        raise BadInput(f"{where}: turns.yaml has {len(track['turns'])} Game-Turns, the calendar "
                       f"{campaign['calendar']['turns']} (RSR 19.4)")
    built = _build(track, campaign)
    problems = consistency_problems(built)
    if problems:
        raise BadInput(f"{where}: {problems[0]}")
    return built


def _build(track: dict[str, Any], data: dict[str, Any]) -> Campaign:
    seasons = {month: name for name in SEASONS for month in track["seasons"][name]}
    turns = tuple(
        TrackTurn(int(t["turn"]), str(t["month"]), str(t["season"]), bool(t["japanese_replacement_step"]),
                  int(t["russian_command_points"]), tuple(t["arrive"]), tuple(t["withdraw"]),
                  tuple(t.get("admirals_arrive", [])), tuple(t.get("admirals_withdraw", [])),
                  None if t.get("cities_required") is None else int(t["cities_required"]),
                  tuple(t.get("special_rules", [])), dict(t.get("provenance", {})))
        for t in track["turns"])
    cities = tuple(City(str(c["name"]), c.get("hex")) for c in track["cities"])
    feb = data["february_1904"]
    rules = tuple(SurpriseRule(str(r["case"]), str(r["effect"]), r.get("attackers"), tuple(r.get("targets", [])),
                               r.get("column"), bool(r.get("target_fires", True)))
                  for r in feb["rules"])
    b = data["baltic_fleet"]
    baltic = BalticFleet(str(b["fleet"]), str(b["month"]), int(b["round"]), tuple(int(h) for h in b["entry_hexes"]),
                         bool(b["command_initiative"]), str(b["admiral"]), tuple(b["ships"]))
    setup = data["setup"]
    japan, russia = setup["japan"], setup["russia"]
    return Campaign(
        turns=turns,
        seasons=seasons,
        cities=cities,
        first_month=str(data["calendar"]["first_month"]),
        last_month=str(data["calendar"]["last_month"]),
        replacement_months=tuple(int(m) for m in data["replacement_months"]["months"]),
        february_month=str(feb["month"]),
        february_rules=rules,
        baltic=baltic,
        japanese_stacks=tuple(NavalStack(int(s["hex"]), tuple(s["units"]), int(s["merchant_fleets"]))
                              for s in japan["land"]),
        japanese_fleets=tuple(FleetStart(str(f["fleet"]), int(f["hex"]), str(f["admiral"]), None)
                              for f in japan["fleets"]),
        russian_stacks=tuple(LandStack(str(s["hex"]), tuple(s["units"]), s.get("leader")) for s in russia["land"]),
        russian_fleets=tuple(FleetStart(str(f["fleet"]), int(f["hex"]), str(f["admiral"]), tuple(f["ships"]))
                             for f in russia["fleets"]),
        sunk_before_play=tuple(setup["sunk_before_play"]),
        default_provenance=str(track["default_provenance"]),
        season_provenance=str(track["seasons"]["provenance"]),
    )


def consistency_problems(c: Campaign) -> list[str]:
    """What in the two files disagrees with itself or with the rules; empty when all is well."""
    problems: list[str] = []
    if sorted(c.seasons) != list(range(1, 13)):  # RSR 19.4: the twelve months each in one season
        problems.append("turns.yaml seasons: every calendar month must have exactly one season")
    expected = months_between(c.first_month, c.last_month)  # RSR 18.8, RSR 19.4
    if [t.month for t in c.turns] != expected:
        problems.append(f"turns.yaml turns: the months must run {c.first_month} to {c.last_month} one by one "
                        "(RSR 18.8, 19.4)")
    for index, t in enumerate(c.turns):
        where = f"turns.yaml turn {t.number} ({t.month})"
        if t.number != index + 1:
            problems.append(f"{where}: turns must be numbered 1, 2, 3 ... in order")
        if c.seasons.get(month_number(t.month)) != t.season:
            problems.append(f"{where}: season {t.season} is not the season of its month")
        if t.japanese_replacement_step != replacement_step_due(c.replacement_months, month_number(t.month)):
            problems.append(f"{where}: japanese_replacement_step disagrees with RSR 17.22")
        if (t.cities_required is not None) != is_season_end(c, t.number):
            problems.append(f"{where}: cities_required belongs to the last turn of each season, only (RSR 19.4)")
        for name in TRACK_FIELDS:
            if name in t.provenance and not _is_provenance(t.provenance[name]):
                problems.append(f"{where}: provenance of {name} must start rulebook:, derived: or provisional:")
    if turn_of_month(c, c.february_month) is None:
        problems.append("campaign.yaml february_1904: the month is not a Game-Turn of the track")
    if turn_of_month(c, c.baltic.month) is None:
        problems.append("campaign.yaml baltic_fleet: the month is not a Game-Turn of the track")
    return problems


def _is_provenance(text: str) -> bool:
    return text.split(":", 1)[0] in ("rulebook", "errata", "derived", "provisional", "overlay")


def reference_problems(c: Campaign, counters: Mapping[str, Mapping[str, Any]],
                       naval: Mapping[str, Any]) -> list[str]:
    """Ids the campaign names that counters.yaml or naval.yaml lack, or that sit on the wrong side."""
    problems: list[str] = []
    ships = {s["id"]: s for s in naval.get("ships", [])}
    admirals = {a["id"]: a for a in naval.get("admirals", [])}
    admiral_names = {a["name"] for a in naval.get("admirals", [])}

    def need(unit: str, side: str, where: str, table: Mapping[str, Mapping[str, Any]], what: str) -> None:
        if unit not in table:
            problems.append(f"{where}: no {what} {unit!r}")
        elif table[unit].get("side") != side:
            problems.append(f"{where}: {unit} is not {side}'s")

    for t in c.turns:
        for unit in t.arrive + t.withdraw:
            if unit not in counters:
                problems.append(f"turns.yaml turn {t.number}: no command unit {unit!r}")
        for name in t.admirals_arrive + t.admirals_withdraw:
            if name not in admiral_names:
                problems.append(f"turns.yaml turn {t.number}: no admiral named {name!r} in naval.yaml")
    for stack in c.japanese_stacks:
        for unit in stack.units:
            need(unit, "japan", f"campaign.yaml set-up hex {stack.hex}", counters, "unit")
    for land in c.russian_stacks:
        for unit in land.units + ((land.leader,) if land.leader else ()):
            need(unit, "russia", f"campaign.yaml set-up hex {land.hex}", counters, "unit")
    for fleet in c.japanese_fleets + c.russian_fleets + (_baltic_start(c),):
        side = "japan" if fleet.fleet.startswith("jp-") else "russia"
        need(fleet.admiral, side, f"campaign.yaml fleet {fleet.fleet}", admirals, "admiral")
        for ship in fleet.ships or ():
            need(ship, side, f"campaign.yaml fleet {fleet.fleet}", ships, "ship")
    return problems


def _baltic_start(c: Campaign) -> FleetStart:
    return FleetStart(c.baltic.fleet, 0, c.baltic.admiral, c.baltic.ships)  # RSR 19.2: off the map until May 1905


# -- the calendar and the seasons -----------------------------------------------------------------------

def month_number(month: str) -> int:
    """The calendar month (1-12) of "YYYY-MM"."""
    return int(month[5:7])


def months_between(first: str, last: str) -> list[str]:
    """RSR 19.4: the months of the Game-Turns, one a month, ``first`` to ``last`` inclusive."""
    year, month = int(first[:4]), month_number(first)
    out: list[str] = []
    while f"{year:04d}-{month:02d}" <= last:
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)  # RSR 19.4: one turn a month
    return out


def turn_info(c: Campaign, turn: int) -> TrackTurn:
    """The track's entry for Game-Turn ``turn``; BadInput for a turn outside the war."""
    if not 1 <= turn <= len(c.turns):
        raise BadInput(f"Game-Turn {turn} is outside the war (1-{len(c.turns)}, RSR 19.4)")
    return c.turns[turn - 1]


def turn_of_month(c: Campaign, month: str) -> int | None:
    """The Game-Turn played in ``month`` ("1905-05"), or None."""
    return next((t.number for t in c.turns if t.month == month), None)


def season_of_month(c: Campaign, month: int) -> str:
    """The season of a calendar month (the track's seasons, provisional: interpretations.md)."""
    return c.seasons[month]


def season_of_turn(c: Campaign, turn: int) -> str:
    """The season of a Game-Turn: RSR 5.0, RSR 7.5, RSR 9.17, RSR 10.22-10.23 and 15.1x-15.2x depend on it."""
    return turn_info(c, turn).season


def season_die_modifier(season: str) -> int:
    """RSR 5.0, RSR 9.17, RSR 15.11-15.14: +2 in winter, +1 in spring and autumn, 0 in summer."""
    return SEASON_DIE_MODIFIER[season]


def is_season_end(c: Campaign, turn: int) -> bool:
    """RSR 19.4: the turn is the last of its season within the war (the next turn is of another season).

    December 1905 is not: its winter runs on past the end of the war, which ends it by the December rule.
    """
    info = turn_info(c, turn)
    return turn < len(c.turns) and c.turns[turn].season != info.season


def is_last_turn(c: Campaign, turn: int) -> bool:
    """RSR 19.4: the December 1905 Game-Turn, after which the war ends."""
    return turn_info(c, turn).month == c.last_month


# -- victory (RSR 19.4) ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    """How the war ended: the winner and level of the RSR 19.4 schedule, and the case that ended it."""

    winner: str
    level: str
    decided_by: str
    cities: int
    turn: int


def cities_required(c: Campaign, turn: int) -> int | None:
    """RSR 19.4: the cities Japan must control at the end of this turn; None unless it ends a season."""
    return turn_info(c, turn).cities_required


def campaign_end(c: Campaign, turn: int, held: int) -> Outcome | None:
    """RSR 19.4 at the end of Game-Turn ``turn`` with Japan controlling ``held`` cities: the outcome if the
    war ends now, else None. The seasonal shortfall is checked first, then the early decisive victory, then
    the end of December 1905; in every case the schedule gives the winner and level."""
    required = cities_required(c, turn)
    if seasonal_check_fails(required, held):
        why = f"RSR 19.4: end of season, Japan controls {held} of the {required} cities required"
    elif is_decisive_victory(held):
        why = f"RSR 19.4: Japan controls {held} cities, a decisive victory"
    elif is_last_turn(c, turn):
        why = "RSR 19.4: the December 1905 Game-Turn is over"
    else:
        return None
    winner, level = level_for(held)
    return Outcome(winner, level, why, held, turn)


def city_hexes(c: Campaign, places_by_name: Mapping[str, str]) -> tuple[str, ...]:
    """RSR 19.4: the hexes of the counted cities: the track's hex, else the map's place of that name."""
    found = []
    for city in c.cities:
        hex_id = city.hex or places_by_name.get(city.name)
        if hex_id is None:
            raise BadInput(f"turns.yaml cities: {city.name} has no hex and the map has no place of that name")
        found.append(hex_id)
    return tuple(sorted(found))


# -- arrivals, withdrawals, points ----------------------------------------------------------------------

def arrivals(c: Campaign, turn: int) -> tuple[str, ...]:
    """RSR 17.11: the command units the track brings in this turn."""
    return turn_info(c, turn).arrive


def withdrawals(c: Campaign, turn: int) -> tuple[str, ...]:
    """RSR 17.3: the command units the track removes from play this turn."""
    return turn_info(c, turn).withdraw


def admirals_arriving(c: Campaign, turn: int) -> tuple[str, ...]:
    """RSR 19.3 (the track's order of admirals): the admirals the track brings in this turn, by name."""
    return turn_info(c, turn).admirals_arrive


def admirals_withdrawn(c: Campaign, turn: int) -> tuple[str, ...]:
    """RSR 17.3 (for admirals): the admirals the track withdraws this turn, by name."""
    return turn_info(c, turn).admirals_withdraw


def command_points(c: Campaign, turn: int) -> int:
    """RSR 17.13: the command points Russia receives in this turn's Reinforcement Stage."""
    return turn_info(c, turn).russian_command_points


def command_points_through(c: Campaign, turn: int) -> int:
    """RSR 17.13: the command points received from the first turn through ``turn`` (they may be kept)."""
    return sum(command_points(c, t) for t in range(1, turn + 1))


def replacement_step_due(months: Iterable[int], month: int) -> bool:
    """RSR 17.22: a Japanese Replacement Step arrives in January, April, July and October."""
    return month in tuple(months)


def replacement_steps(c: Campaign, turn: int) -> int:
    """RSR 17.22: the replacement steps Japan receives at the start of this turn's Reinforcement Stage."""
    return 1 if turn_info(c, turn).japanese_replacement_step else 0  # RSR 17.22: one step


def replacement_steps_through(c: Campaign, turn: int) -> int:
    """RSR 17.22: the steps received from the first turn through ``turn`` (they may be accumulated)."""
    return sum(replacement_steps(c, t) for t in range(1, turn + 1))


# -- the Baltic fleet (RSR 19.2) -------------------------------------------------------------------------

def baltic_fleet_turn(c: Campaign) -> int:
    """RSR 19.2: the Game-Turn of May 1905."""
    found = turn_of_month(c, c.baltic.month)
    if found is None:
        raise BadInput(f"campaign.yaml baltic_fleet: {c.baltic.month} is not a Game-Turn")
    return found


def baltic_fleet_arrives(c: Campaign, turn: int) -> bool:
    """RSR 19.2: the Baltic fleet arrives in this turn."""
    return turn == baltic_fleet_turn(c)


def baltic_fleet_entry_allowed(c: Campaign, turn: int, naval_round: int, hex_id: int) -> bool:
    """RSR 19.2: the fleet enters in its turn's first round of naval movement on one of hexes 12-19."""
    return baltic_fleet_arrives(c, turn) and naval_round == c.baltic.round and hex_id in c.baltic.entry_hexes


def baltic_fleet_has_initiative(c: Campaign, turn: int) -> bool:
    """RSR 19.2: the Baltic fleet has Command Initiative in its arrival turn without a roll."""
    return c.baltic.command_initiative and baltic_fleet_arrives(c, turn)


# -- February 1904 (RSR 18.8) ---------------------------------------------------------------------------

def february_1904_rules(c: Campaign, turn: int) -> tuple[str, ...]:
    """RSR 18.8: the case numbers of the surprise rules in force this turn (February 1904 only)."""
    if turn_info(c, turn).month != c.february_month:
        return ()
    return tuple(r.case for r in c.february_rules)


def _surprise(c: Campaign) -> SurpriseRule:
    rule = next((r for r in c.february_rules if r.effect == "surprise-torpedo-attack"), None)
    if rule is None:
        raise BadInput("campaign.yaml february_1904: no surprise-torpedo-attack rule (RSR 18.83)")
    return rule


def surprise_torpedo_attackers(c: Campaign, classes: Mapping[str, str]) -> tuple[str, ...]:
    """RSR 18.83: the Japanese flotillas that make the surprise attack: torpedo flotillas, not destroyers.
    ``classes`` maps each Japanese ship or flotilla id to its class (B, C, DF, TF)."""
    rule = _surprise(c)
    return tuple(sorted(s for s, cls in classes.items() if cls == rule.attackers))


def surprise_torpedo_targets(c: Campaign, classes: Mapping[str, str]) -> tuple[str, ...]:
    """RSR 18.83: the Russian ships a surprise attack may choose: any capital ship in the game."""
    rule = _surprise(c)
    return tuple(sorted(s for s, cls in classes.items() if cls in rule.targets))


def surprise_torpedo_column(c: Campaign) -> int:
    """RSR 18.83: the Naval CRT column every surprise attack uses."""
    column = _surprise(c).column
    if column is None:
        raise BadInput("campaign.yaml february_1904: the surprise attack has no column (RSR 18.83)")
    return column


# -- the set-up (RSR 19.0-19.2) --------------------------------------------------------------------------

def starting_steps(side: str, printed_steps: int) -> int:
    """RSR 19.1-19.2: Japanese land units start at full strength; Russian ones one step down, which a
    one-step unit (a garrison, RSR 11.5) cannot be, so it starts as printed (interpretations.md)."""
    if side == "russia" and printed_steps > 1:  # RSR 11.5: a one-step unit cannot be reduced
        return printed_steps - 1  # RSR 19.2: one step down
    return printed_steps


def russian_setup_entries(c: Campaign, printed_steps: Mapping[str, int]) -> list[dict[str, Any]]:
    """RSR 19.2: the Russian land set-up as placement entries ({unit, hex[, steps][, assigned_to]}): each
    leader first, then his stack assigned to him; units with no leader in their hex start unassigned and
    get their army in the first Russian Reinforcement Stage."""
    entries: list[dict[str, Any]] = []
    for stack in c.russian_stacks:
        if stack.leader:
            entries.append({"unit": stack.leader, "hex": stack.hex})
        for unit in stack.units:
            entry: dict[str, Any] = {"unit": unit, "hex": stack.hex}
            steps = printed_steps[unit]
            if starting_steps("russia", steps) != steps:
                entry["steps"] = starting_steps("russia", steps)
            if stack.leader:
                entry["assigned_to"] = stack.leader
            entries.append(entry)
    return entries


def japanese_units_at_sea(c: Campaign) -> dict[str, int]:
    """RSR 19.1: each Japanese land unit and the strategic naval hex it starts in (full strength)."""
    return {unit: stack.hex for stack in c.japanese_stacks for unit in stack.units}


def japanese_merchant_fleet_hexes(c: Campaign) -> list[int]:
    """RSR 19.1: the strategic hex of each Japanese merchant fleet at the start, one entry per fleet."""
    return [stack.hex for stack in c.japanese_stacks for _ in range(stack.merchant_fleets)]


def russian_fleets_at_start(c: Campaign) -> dict[str, tuple[int, str, tuple[str, ...]]]:
    """RSR 19.2: each Russian fleet on the map at the start: (strategic hex, admiral, ships)."""
    return {f.fleet: (f.hex, f.admiral, f.ships or ()) for f in c.russian_fleets}


def japanese_fleets_at_start(c: Campaign) -> dict[str, tuple[int, str]]:
    """RSR 19.1: each Japanese fleet at the start: (strategic hex, admiral); the ships are the player's to
    split between them."""
    return {f.fleet: (f.hex, f.admiral) for f in c.japanese_fleets}


def japanese_split_problems(c: Campaign, split: Mapping[str, Iterable[str]],
                            japanese_ships: Iterable[str]) -> list[str]:
    """RSR 19.1: the player's split of the Japanese ships between the set-up fleets: every Japanese ship in
    exactly one of them, nothing else. (A fleet left empty is simply not on the map, RSR 7.7.)"""
    fleets = {f.fleet for f in c.japanese_fleets}
    problems = [f"{name} is not a Japanese set-up fleet (RSR 19.1)" for name in sorted(set(split) - fleets)]
    counted: dict[str, int] = {}
    for name in sorted(split):
        for ship in split[name]:
            counted[ship] = counted.get(ship, 0) + 1
    expected = set(japanese_ships)
    problems += [f"{ship} is in no fleet (RSR 19.1: every Japanese ship starts in one)"
                 for ship in sorted(expected - set(counted))]
    problems += [f"{ship} is in {n} fleets" for ship, n in sorted(counted.items()) if n > 1]
    problems += [f"{ship} is not a Japanese ship" for ship in sorted(set(counted) - expected)]
    return problems


# -- provenance ------------------------------------------------------------------------------------------

def provenance_of(c: Campaign, turn: int, name: str) -> str:
    """Where the value ``name`` of Game-Turn ``turn`` comes from (turns.yaml, else its default)."""
    info = turn_info(c, turn)
    if name == "season":
        return info.provenance.get("season", c.season_provenance)
    return info.provenance.get(name, c.default_provenance)


def provisional_values(c: Campaign, turn: int) -> list[str]:
    """The values this turn's play uses that are not printed in the rulebook, for reports to say so."""
    info = turn_info(c, turn)
    used = ["season", "russian_command_points", "cities_required" if info.cities_required is not None else "",
            "arrive" if info.arrive else "", "withdraw" if info.withdraw else "",
            "admirals_arrive" if info.admirals_arrive else "", "admirals_withdraw" if info.admirals_withdraw else ""]
    return [name for name in used if name and provenance_of(c, turn, name).startswith("provisional:")]


# -- what the track does in a turn, for the sequence of play and the reports ------------------------------

RUSSIAN_ARRIVAL_HEXES: tuple[str, ...] = ("3316", "3337")  # RSR 17.11 (the rail supply sources of RSR 10.11)


def arrival_hexes(side: str, japanese_home_ports: Iterable[int]) -> tuple[str, ...]:
    """RSR 17.11: where an arriving command unit is placed: Russian ones in 3316 or 3337 on the land map,
    Japanese ones in any Japanese home port of the strategic naval map (hex numbers as strings)."""
    if side == "russia":
        return RUSSIAN_ARRIVAL_HEXES
    return tuple(str(h) for h in sorted(set(japanese_home_ports)))


@dataclass(frozen=True)
class TrackEvent:
    """One thing the Turn Record Track or the campaign data does in a Game-Turn."""

    kind: str            # arrive | withdraw | admiral-arrives | admiral-withdrawn | command-points |
                         # replacement-step | baltic-fleet | special-rules | cities-required | last-turn
    case: str            # the case that gives the event its effect
    value: Any
    provisional: bool    # the value is ours, not printed: reports say so


def track_events(c: Campaign, turn: int) -> list[TrackEvent]:
    """Everything the campaign data does in Game-Turn ``turn``, in the order of the turn: the surprise
    rules, the Baltic fleet (naval movement), reinforcements and replacements (RSR 4.22, RSR 4.32), and in the End
    Stage the season's city count and the last turn (RSR 19.4). Empty kinds are left out."""
    info = turn_info(c, turn)

    def flag(name: str) -> bool:
        return provenance_of(c, turn, name).startswith("provisional:")

    events: list[TrackEvent] = []
    if february_1904_rules(c, turn):
        events.append(TrackEvent("special-rules", "RSR 18.8", february_1904_rules(c, turn), False))
    if baltic_fleet_arrives(c, turn):
        events.append(TrackEvent("baltic-fleet", "RSR 19.2", c.baltic.fleet, False))
    events += [TrackEvent("arrive", "RSR 17.11", unit, flag("arrive")) for unit in info.arrive]
    events += [TrackEvent("withdraw", "RSR 17.3", unit, flag("withdraw")) for unit in info.withdraw]
    events += [TrackEvent("admiral-arrives", "RSR 19.3", name, flag("admirals_arrive"))
               for name in info.admirals_arrive]
    events += [TrackEvent("admiral-withdrawn", "RSR 17.3", name, flag("admirals_withdraw"))
               for name in info.admirals_withdraw]
    if info.russian_command_points:
        events.append(TrackEvent("command-points", "RSR 17.13", info.russian_command_points,
                                 flag("russian_command_points")))
    if replacement_steps(c, turn):
        events.append(TrackEvent("replacement-step", "RSR 17.22", 1, False))
    if info.cities_required is not None:
        events.append(TrackEvent("cities-required", "RSR 19.4", info.cities_required, flag("cities_required")))
    if is_last_turn(c, turn):
        events.append(TrackEvent("last-turn", "RSR 19.4", info.month, False))
    return events
