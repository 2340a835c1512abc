"""Deadlines and signed overdue claims (docs/protocol.md, "Abandonment").

No two-party protocol can stop a player from walking away when the dice go against him (the resolver
sees the dice of his opponent's packet before he signs his own). What rsr can do is make it visible and
settle it: every packet carries its signed time, an invite may set a deadline in hours for every packet,
``rsr status`` says who owes a packet and since when, and once the deadline has passed the waiting player
can sign a claim that anyone holding the game can check against the log.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from rsr.canonical import canonical_bytes, strict_loads
from rsr.errors import BadInput
from rsr.keys import KeyPair, verify_signature
from rsr.log import Replay, my_side
from rsr.packet import armor_lines, unarmor

CLAIM_PREFIX = b"rsr-claim-v1\x00"
BEGIN = "-----BEGIN RSR CLAIM-----"
END = "-----END RSR CLAIM-----"
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def parse_time(text: str) -> datetime.datetime:
    """A signed time, read strictly (rsr/times.py): BadInput, never a traceback, for an impossible one."""
    from rsr.times import parse_time as strict

    return strict(text)


def counted_from(result: Replay, seq: int) -> datetime.datetime | None:
    """When the wait for packet ``seq + 1`` began: the later of packet ``seq``'s signed time and the time this
    machine stored it (rsr/arrivals.py), so a backdated packet does not start the clock early. None when the
    packet has no readable signed time."""
    from rsr import arrivals

    packet = result.packets[seq]
    try:
        signed = parse_time(packet.payload["time"]) if "time" in packet.payload else None
    except BadInput:
        signed = None
    if signed is None:
        return None
    stored = arrivals.arrived(result.game_id, seq)
    return max(signed, stored) if stored is not None else signed


def deadline_hours(result: Replay) -> int | None:
    value = result.packets[0].payload["invite"].get("deadline_hours")
    return int(value) if value is not None else None


@dataclass(frozen=True)
class Owed:
    """Who owes the next packet, since when (the signed time of the last packet), and the deadline."""

    side: str
    seq: int
    since: datetime.datetime | None
    due: datetime.datetime | None

    def describe(self, now: datetime.datetime, me: str | None = None) -> str:
        text = f"your packet {self.seq} is awaited" if me == self.side else \
            f"waiting for {self.side}'s packet {self.seq}"
        if self.since is None:
            return text
        text += f" since {self.since.strftime('%Y-%m-%d %H:%M')} UTC ({_ago(now - self.since)} ago)"
        if self.due is not None:
            if now > self.due:
                text += f"; the deadline passed {_ago(now - self.due)} ago ('rsr claim make' signs a claim)"
            else:
                text += f"; deadline {self.due.strftime('%Y-%m-%d %H:%M')} UTC"
        return text


def owed(result: Replay) -> Owed:
    since = counted_from(result, result.last.seq)
    hours = deadline_hours(result)
    due = since + datetime.timedelta(hours=hours) if since is not None and hours is not None else None
    return Owed(result.next_author(), len(result.packets), since, due)


def _ago(delta: datetime.timedelta) -> str:
    hours = int(delta.total_seconds() // 3600)
    if hours >= 48:
        return f"{hours // 24} days"
    if hours >= 1:
        return f"{hours} h"
    return f"{max(0, int(delta.total_seconds() // 60))} min"


def make_claim(result: Replay, key: KeyPair, now: datetime.datetime) -> str:
    """The armored, signed claim that the opponent let the deadline pass."""
    side = my_side(result, key)
    due = owed(result)
    if due.side == side:
        raise BadInput(f"the next packet ({due.seq}) is yours to write; there is nothing to claim")
    if deadline_hours(result) is None:
        raise BadInput("this game set no deadline (start games with 'rsr new --deadline-hours N')")
    if due.since is None or due.due is None:
        raise BadInput(f"packet {due.seq - 1} carries no signed time, so no deadline can be counted from it")
    if now <= due.due:
        raise BadInput(f"the deadline for packet {due.seq} is {due.due.strftime(TIME_FORMAT)}; it has not passed")
    payload = {"claim": "overdue", "game": result.game_id, "side": side, "owed_by": due.side, "owed_seq": due.seq,
               "last_hash": result.last.hash_hex, "last_time": result.last.payload["time"],
               "deadline_hours": deadline_hours(result), "time": now.strftime(TIME_FORMAT)}
    data = canonical_bytes(payload)
    return "\n".join(armor_lines(BEGIN, END, [f"Game: {result.game_id}", f"Claim: {side} against {due.side}"],
                                 data, key.sign(CLAIM_PREFIX + data))) + "\n"


def check_claim(result: Replay, text: str) -> list[str]:
    """Check a claim against the log; return what it shows, line by line. Raises BadInput if it is not valid."""
    payload_bytes, signature = unarmor(text, BEGIN, END, "claim")
    payload: Any = strict_loads(payload_bytes)
    fields = {"claim", "game", "side", "owed_by", "owed_seq", "last_hash", "last_time", "deadline_hours", "time"}
    if not isinstance(payload, dict) or set(payload) != fields or payload["claim"] != "overdue":
        raise BadInput("not an overdue claim of rsr")
    if payload["game"] != result.game_id:
        raise BadInput(f"the claim is about game {str(payload['game'])[:8]}, not this game {result.game_id[:8]}")
    side = payload["side"]
    if not isinstance(side, str) or side not in result.keys or \
            not verify_signature(result.keys[side], signature, CLAIM_PREFIX + payload_bytes):
        raise BadInput("the claim's signature does not verify against the claimant's key in this game")
    seq = payload["owed_seq"]
    if not isinstance(seq, int) or not 1 <= seq <= len(result.packets):
        raise BadInput(f"the claim names packet {seq}, which this log cannot check")
    before = result.packets[seq - 1]
    if before.hash_hex != payload["last_hash"] or before.payload.get("time") != payload["last_time"]:
        raise BadInput(f"the claim's packet {seq - 1} is not the one in this log")
    if payload["deadline_hours"] != deadline_hours(result):
        raise BadInput("the claim's deadline is not the one the invitation set")
    try:  # signed by a player of the game, but not necessarily by rsr
        due = parse_time(payload["last_time"]) + datetime.timedelta(hours=payload["deadline_hours"])
        claimed = parse_time(payload["time"])
    except (TypeError, ValueError, OverflowError, BadInput) as exc:
        raise BadInput(f"the claim's times cannot be read ({exc})") from exc
    lines = [f"valid claim signed by {side} at {payload['time']}: {payload['owed_by']} owed packet {seq} since "
             f"{payload['last_time']}, due {due.strftime(TIME_FORMAT)}"]
    start = counted_from(result, seq - 1)
    if start is not None and start > parse_time(payload["last_time"]):
        due = start + datetime.timedelta(hours=payload["deadline_hours"])
        lines.append(f"this copy of rsr stored packet {seq - 1} at {start.strftime(TIME_FORMAT)}, after its signed "
                     f"time: the deadline counts from then, to {due.strftime(TIME_FORMAT)}")
    lines.append("the deadline had passed when the claim was signed" if claimed > due else
                 "the claim was signed BEFORE the deadline passed: it does not hold")
    if len(result.packets) > seq:
        answer = result.packets[seq]
        when = answer.payload.get("time", "an unsigned time")
        lines.append(f"packet {seq} has since arrived, signed at {when}")
    else:
        lines.append(f"packet {seq} is still missing from this log")
    return lines
