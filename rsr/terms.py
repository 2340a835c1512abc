"""The terms of a game as its invitation fixes them, for ``rsr accept`` to show."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rsr.keys import decode_public, fingerprint
from rsr.packet import Packet
from rsr.safetext import visible

#: replaced values listed before the rest is summed up (rsr data diff lists all)
SHOWN = 12


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


def read_invitation(source: Path | str) -> Packet:
    """The invitation in a file, an email, a game directory holding it, or ``-`` (stdin), checked as
    ``rsr accept`` checks it before answering (replayed alone: ruleset, scenario hash, transcription), with
    nothing signed or written. For ``rsr accept --preview`` and ``rsr data diff``."""
    from rsr.errors import BadInput
    from rsr.games import read_packet_text
    from rsr.log import replay
    from rsr.packet import read_packets

    if str(source) != "-" and Path(source).is_dir():
        found = sorted((Path(source) / "turns").glob("0000-*.rsr"))
        if not found:
            raise BadInput(f"{visible(source)} holds no invitation (turns/0000-*.rsr)")
        source = found[0]
    invite = read_packets(read_packet_text(source), None)[0]
    if invite.seq != 0 or "invite" not in invite.payload:
        raise BadInput(f"{visible(source)} holds packet {invite.seq}, not an invitation")
    replay([invite])
    return invite


def transcription_lines(invite: Packet, limit: int | None = SHOWN, list_provisional: bool = False) -> list[str]:
    """What the inviter's transcription of the printed sheets replaces, escaped and bounded: a
    heading, then rsr.transcription.describe. Empty for a game on rsr's own data."""
    from rsr import transcription
    from rsr.scenario import load_scenario

    spec = invite.payload["invite"]
    data = spec.get("data")
    if not data:
        return []
    scenario = load_scenario(spec["ruleset"], spec["scenario"])
    return ["played on the inviter's transcription of the printed sheets:",
            *transcription.describe(scenario, transcription.from_invite(spec["ruleset"], data), limit,
                                    list_provisional)]
