"""Red Sun Rising's side of the hooks every ruleset has (rsr/rulesets/base.py): its bot, its odds, its land and
naval maps, the display of its naval battles, and what a scenario needs before its title comes true.

:class:`RsrHooks` is the base of the ruleset class (rsr/rulesets/red_sun_rising/ruleset.py), which keeps the
rules; each hook imports what it draws on when it is called, so replaying a game imports no drawing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rsr.engine import Event, Request
from rsr.errors import BadInput
from rsr.rulesets.base import DecisionRuleset

if TYPE_CHECKING:
    from rsr.draw.hexmap import Scene


class RsrHooks(DecisionRuleset):
    """The hooks of Red Sun Rising."""

    def bot(self, state: Any, request: Request, boldness: str | None = None) -> list[dict[str, Any]]:
        """rsr/rulesets/red_sun_rising/bot.py: ``boldness`` is the lowest odds column it attacks at (1-1)."""
        from rsr.rulesets.red_sun_rising import bot

        return bot.answer(state, request, boldness or "1-1")

    def odds(self) -> Any:
        from rsr.rulesets.red_sun_rising import odds

        return odds

    def first_needs(self, scenario: Any, options: dict[str, Any]) -> list[str]:
        """The naval game's needs before its first battle (rsr/rulesets/red_sun_rising/naval/outlook.py)."""
        from rsr.rulesets.red_sun_rising.naval.outlook import first_needs

        return first_needs(self.initial_state(scenario, options))

    def map_scene(self, state: Any, before: Any, events: list[Event], title: str, subtitle: str,
                  map_data: dict[str, Any] | None = None,
                  declared: list[dict[str, Any]] | None = None) -> Scene:
        from rsr.rulesets.red_sun_rising.scenes import rsr_scene

        return rsr_scene(state, before, events, title, subtitle, declared)

    def has_naval_map(self, state: Any) -> bool:
        return state.naval_static is not None

    def is_naval_pass(self, events: list[Event]) -> bool:
        from rsr.rulesets.red_sun_rising.naval_map import is_naval_pass

        return is_naval_pass(events)

    def naval_scene(self, state: Any, events: list[Event], title: str, subtitle: str) -> Scene:
        from rsr.rulesets.red_sun_rising.naval_map import naval_scene

        return naval_scene(state, events, title, subtitle)

    def naval_cell(self, state: Any, around: str) -> str:
        static = state.naval_static
        if not around.isdigit() or int(around) not in static.hexes:
            raise BadInput(f"--around {around}: no such naval hex (1-{max(static.hexes)})")
        cell: str = static.hexes[int(around)].cell
        return cell

    def battle_svg(self, state: Any, events: list[Event], title: str, at_hex: str | None = None,
                   hour: int | None = None) -> str:
        from rsr.rulesets.red_sun_rising.battle_display import display_svg

        return display_svg(state.naval_static, events, title, at_hex, hour)

    def naval_transcription_svg(self, transcription: Any, scenario: Any) -> str:
        from rsr.rulesets.red_sun_rising.naval_map import transcription_svg

        return transcription_svg(transcription, scenario)
