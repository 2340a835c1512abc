"""The Red Sun/Red Star ruleset (RS/RS 3.0-3.2): set-up, result, bot, views; the play itself is declared data.

The sequence of play runs in ``turn.py`` (one stage per segment of :data:`sequence.TURN`); every question a
player answers is a declared decision in ``choices.py``; the generic driver (rsr/decisions.py) turns the
pending question into a request and applies the answer. See docs/architecture.md.
"""

from __future__ import annotations

from typing import Any

from rsr.decisions import DecisionDriver
from rsr.engine import Context, Event, Request
from rsr.errors import BadInput
from rsr.fairdice import NoDice
from rsr.rulesets import register
from rsr.rulesets.base import DecisionRuleset
from rsr.rulesets.red_star import choices, turn, victory
from rsr.rulesets.red_star.data import load_static
from rsr.rulesets.red_star.sequence import TURN, find_segment, segment_side
from rsr.rulesets.red_star.state import ARRIVING, ON_MAP, REPLACEMENTS, RsState, Unit, enemy_of

# The other readings of cases the printed rules leave open (docs/red-star/interpretations.md, "Readings the text
# leaves open"), each off by default. Declared here rather than in tables.yaml: the scenario data, and with it the
# hash every game in progress pins, stay the same when one is added.
READING_OPTIONS: dict[str, str] = {
    "counterbattery-x-only-flips": "RS/RS 5.41: a gun flipped by a counterbattery X is not suppressed and still "
                                   "fires its announced mission or support, reduced (default: X also suppresses)",
    "morale-no-check-as-6-62": "RS/RS 6.62 against the Morale Option Table: an attacking unit that makes no morale "
                               "check retreats with every unit of its side in its hex, beneath a \"1\" (default: "
                               "the table, the target unit alone, beneath a \"2\")",
    "night-defensive-support": "RS/RS 5.32 with RS/RS 5.31 and RS/RS 6.92: the defender's guns give defensive "
                               "support in a night combat (default: no Weapons class fire at night, guns included)",
    "defender-fires-free": "RS/RS 6.1 against RS/RS 4.3: the defender spends no support point to fire in a combat "
                           "(default: one point per combat in which he fires)",
}


def rule_options(static: Any, chosen: dict[str, Any], where: str) -> dict[str, bool]:
    """The rule options of a game: each one the tables list (tables.yaml) or :data:`READING_OPTIONS`, on or off;
    any other is refused."""
    known = {**static.rule_options, **{name: False for name in READING_OPTIONS}}
    options: dict[str, bool] = {}
    for name, value in sorted(chosen.items()):
        if name not in known:
            raise BadInput(f"{where}: Red Sun/Red Star has no rule option {name!r} (known: "
                           f"{', '.join(sorted(known)) or 'none'})")
        if not isinstance(value, bool):
            raise BadInput(f"{where}: rule option {name!r} is true or false, not {value!r}")
        options[name] = value
    return options


# fields of RsState left out of the state digest: the scenario's fixed data (pinned by its hash), the
# static tables, and the opening events (reported, not state) -- as RsState.to_json leaves out the last two
FIXED_STATE = ("dates", "turn_track", "restrictions", "static", "opening_events")

DRIVER = DecisionDriver("Red Sun/Red Star", choices.DECISIONS, turn.advance)


class RedStar(DecisionRuleset):
    """Red Sun/Red Star (S&T 158). See docs/red-star/coverage.md for what is implemented."""

    id = "red-star"
    version = "0.4"  # 0.2: the state digest leaves out the fixed scenario data (FIXED_STATE); 0.3: the rules
    # (RS/RS 7.61-7.63, RS/RS 11.2: reserves settled before markers come off, reserve markers kept by default, ...)
    # (artillery as written: no defensive support at night, guns count toward RS/RS 6.32, support per firefight)
    # 0.4: (RS/RS 5.2: one fire mission at a time, numbered on; policy fire-missions plans)
    sides = ("japan", "soviet")
    turn_record_in_scenarios = True  # rsr keeps the Turn Record per scenario (RS/RS 13.1-13.4 each give their turns)
    driver = DRIVER
    policy_defaults = DRIVER.policy_defaults()

    # -- set-up -------------------------------------------------------------------------------------------

    def initial_state(self, scenario: Any, options: dict[str, Any]) -> RsState:
        data = scenario.data
        static = load_static(data)
        spec = data["scenario"]
        first = spec["first_player"]
        second = enemy_of(first)
        turns = list(spec["turns"])
        state = RsState(static=static, scenario_key=str(spec["scenario"]), first=first, second=second,
                        dates=[str(t["date"]) for t in turns], turn_track=turns,
                        options=rule_options(static, {**spec.get("options", {}), **options}, scenario.name))
        state.support = {side: int(spec.get("support_points", {}).get(side, 0)) for side in (first, second)}
        state.replacement_points = {side: {k: int(v) for k, v in sorted(spec.get("replacement_points", {}).get(
            side, {}).items())} for side in (first, second)}
        state.restrictions = list(spec.get("restrictions", []))
        for item in spec["setup"]:
            unit_id = item["unit"]
            counter = static.counter(unit_id)
            if unit_id in state.units:
                raise BadInput(f"scenario {scenario.name}: unit {unit_id} is set up twice")
            if item.get("status") == "replacements":
                state.units[unit_id] = Unit(unit_id, counter.side, REPLACEMENTS, None)
                continue
            hex_id = item.get("hex", "")
            if hex_id not in static.terrain:
                raise BadInput(f"scenario {scenario.name}: {unit_id} is set up in {hex_id!r}, not a hex of the map")
            state.units[unit_id] = Unit(unit_id, counter.side, ON_MAP, hex_id,
                                        reduced=bool(item.get("reduced", False)) and counter.reduced is not None,
                                        disruption=int(item.get("disruption", 0)), fired=bool(item.get("fired")),
                                        reserve=bool(item.get("reserve", False)))
            if item.get("with"):
                state.carriers[unit_id] = item["with"]
        for number, entry in enumerate(turns, start=1):
            for unit_id in entry.get("reinforcements", []):
                counter = static.counter(unit_id)
                if unit_id in state.units:
                    raise BadInput(f"scenario {scenario.name}: {unit_id} is both set up and a reinforcement")
                state.units[unit_id] = Unit(unit_id, counter.side, ARRIVING, None, arrives=number)
        for unit_id in state.carriers:
            state.units[unit_id].side = static.counter(unit_id).side
        for hex_id in sorted(static.victory_points):
            sides = {u.side for u in state.units_in(hex_id)}
            if len(sides) == 1:
                state.victory_hexes[hex_id] = sides.pop()
        start = spec.get("start")
        if start:
            try:
                state.segment = find_segment(start, first, second)
            except ValueError:
                raise BadInput(f"scenario {scenario.name}: no segment {start!r} in the sequence of play") from None
        state.turn = int(spec.get("start_turn", 1))
        opening = Context(NoDice())
        turn.advance(state, opening)
        state.opening_events = opening.events
        return state

    # -- the result ---------------------------------------------------------------------------------------

    def result(self, state: RsState) -> dict[str, Any] | None:
        """RS/RS 13.1: once the scenario has ended, ``{"winner", "level", "case", ...}``; None before that.

        ``winner`` is ``japan``, ``soviet`` or None (a draw); ``level`` ``decisive``, ``significant``,
        ``marginal`` or ``draw``; ``title`` the rulebook's name of the level; ``points`` each side's total.
        """
        if not state.finished:
            return None
        return victory.outcome(state)

    # -- the bot ------------------------------------------------------------------------------------------

    def bot(self, state: RsState, request: Request, boldness: str | None = None) -> list[dict[str, Any]]:
        """Legal inputs for ``request`` in orders-file form (rsr.rulesets.red_star.bot; no odds threshold)."""
        from rsr.rulesets.red_star import bot

        if request.kind == "fire-missions":  # RS/RS 5.2: the bot's artillery plan, one mission at a time
            return bot.fire_plan(state, request)
        inputs = bot.answer(state, request)
        if request.kind == "attack-choices":  # offensive support (RS/RS 5.31)
            inputs = bot.support_for_attacks(state, request, inputs)
        return inputs

    def odds(self) -> Any:
        from rsr.rulesets.red_star import odds

        return odds

    def prepared_questions(self) -> dict[str, Any]:
        from rsr.rulesets.red_star.prepared import PREPARED

        return PREPARED

    def map_scene(self, state: RsState, before: Any, events: list[Event], title: str, subtitle: str,
                  map_data: dict[str, Any] | None = None, declared: list[dict[str, Any]] | None = None) -> Any:
        from rsr.rulesets.red_star.scenes import rs_scene

        return rs_scene(state, before, events, title, subtitle, map_data)

    # -- views --------------------------------------------------------------------------------------------

    def report_tables(self, events: list[Event]) -> list[tuple[str, list[str]]]:
        from rsr.rulesets.red_star.report import tables

        return tables(events)

    def state_json(self, state: RsState) -> Any:
        """The state that the digest covers: not the scenario's fixed turn track, dates and restrictions,
        which the scenario hash in the invitation already pins (and which would make every digest cost
        as much as the scenario is long)."""
        from rsr.engine import to_jsonable

        return {k: to_jsonable(v) for k, v in self.state_fields(state).items()}

    def state_fields(self, state: RsState) -> dict[str, Any]:
        """The state's fields that the digest covers, as they are (``state_json`` is their JSON form)."""
        return {k: v for k, v in state.__dict__.items() if k not in FIXED_STATE}

    def describe(self, state: RsState) -> list[str]:
        segment = TURN[state.segment]
        side = segment_side(state.segment, state.first, state.second)
        lines = [f"{state.date()} (turn {state.turn} of {len(state.dates)}), {segment.name}"
                 + (f" ({side})" if side else ""),
                 "support points: " + ", ".join(f"{s} {v}" for s, v in sorted(state.support.items())),
                 "replacement points: " + "; ".join(
                     f"{s} " + (", ".join(f"{k} {v}" for k, v in sorted(p.items()) if v) or "none")
                     for s, p in sorted(state.replacement_points.items()))]
        by_hex: dict[str, list[str]] = {}
        for unit in state.on_map():
            counter = state.counter(unit.id)
            marks = unit.markers()
            values = counter.face(unit.reduced).printed()
            by_hex.setdefault(unit.hex or "?", []).append(
                f"{unit.id} {values}{' r' if unit.reduced else ''}" + (f" [{' '.join(marks)}]" if marks else ""))
        for hex_id in sorted(by_hex):
            lines.append(f"  {hex_id} [{state.static.terrain.get(hex_id, '?')}]: " + ", ".join(by_hex[hex_id]))
        waiting = [u.id for u in state.units.values() if u.status == ARRIVING]
        if waiting:
            lines.append("arriving: " + ", ".join(sorted(waiting)))
        return lines


register(RedStar.id)(RedStar)
