"""The terms of a game as its invitation fixes them, for ``rsr accept`` to show (issue 20 section 3)."""

from __future__ import annotations

import json
from typing import Any

from rsr.keys import decode_public, fingerprint
from rsr.packet import Packet
from rsr.safetext import visible


def terms_lines(invite: Packet) -> list[str]:
    """Ruleset, scenario, contract version, every rules option with its exact value, deadline, inviter."""
    payload: dict[str, Any] = invite.payload
    spec = payload["invite"]
    lines = [f"terms: {spec['ruleset']} {spec['ruleset_version']}, scenario {spec['scenario']}, "
             f"contract version {payload['v']}"]
    options = spec.get("options") or {}
    if options:
        shown = ", ".join(f"{visible(name, 80)}={visible(json.dumps(value), 80)}"
                          for name, value in sorted(options.items()))
        lines.append(f"  rules options: {shown}")
    else:
        lines.append("  rules options: none (the scenario's own)")
    hours = spec.get("deadline_hours")
    lines.append(f"  deadline: {hours} h per packet" if hours is not None else "  deadline: none")
    side = invite.side
    name = spec.get("names", {}).get(side, "")
    key = spec.get("keys", {}).get(side)
    print_key = fingerprint(decode_public(key)) if key else "?"
    lines.append(f"  invited by {visible(name, 80)} playing {side}, key {print_key} (compare it by another "
                 "channel)")
    return lines
