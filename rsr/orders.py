"""Orders: reading and checking an orders file (shapes, sealed content, the rules without dice), the orders
template of a pass or a whole turn, and submitting them (play, resign) as a signed packet."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rsr import journal, lookahead, progress
from rsr import keys as keystore
from rsr.engine import Position, Request, dry_run
from rsr.errors import BadInput
from rsr.fairdice import seal
from rsr.fileio import atomic_write, game_locked, read_limited
from rsr.gamedir import write_packets
from rsr.games import (
    MAX_INPUT_BYTES,
    checked_before_signing,
    choose_key,
    load_game,
    read_packet_text,
    read_text_file_limited,
    remember,
    utc_now,
)
from rsr.log import (
    Replay,
    build_packet,
    check_orders,
    position_for_author,
)
from rsr.packet import Packet
from rsr.reports import write_reports
from rsr.yamlio import dump_yaml, load_yaml_text

SAFE_INT = 2**53 - 1


def _seal_path(game_id: str, request_id: str) -> Path:
    digest = hashlib.sha256(request_id.encode()).hexdigest()[:24]
    return keystore.home() / "seals" / game_id / f"{digest}.json"


def seal_inputs(game_id: str, inputs: list[dict[str, Any]], keep: bool) -> list[dict[str, Any]]:
    """Turn ``{request, answer, seal: true}`` into a sealed input (docs/protocol.md, "Sealed choices").

    The salt and the choice stay on this machine (in the rsr home, never in the game directory) until the
    game asks to unseal; with ``keep`` False (checking orders) nothing is stored.
    """
    out = []
    for item in inputs:
        if not item.get("seal"):
            out.append(item)
            continue
        if set(item) != {"request", "answer", "seal"} or item["seal"] is not True:
            raise BadInput("a sealed order is {request, answer, seal: true}")
        salt = os.urandom(16)
        out.append({"request": item["request"], "sealed": seal(salt, item["answer"])})
        if keep:
            record = {"request": item["request"], "salt": salt.hex(), "choice": item["answer"]}
            atomic_write(_seal_path(game_id, item["request"]), json.dumps(record, sort_keys=True).encode(), mode=0o600)
    return out


def unseal_input(game_id: str, request: Request) -> dict[str, Any] | None:
    """The unsealing of a choice this machine sealed earlier, if the game now asks for it."""
    if request.unseals is None:
        return None
    path = _seal_path(game_id, request.unseals)
    if not path.exists():
        return None
    try:
        record = json.loads(read_limited(path, MAX_INPUT_BYTES, "sealed choice"))
        return {"unseal": record["request"], "salt": record["salt"], "choice": record["choice"]}
    except (ValueError, KeyError, TypeError) as exc:
        raise BadInput(f"{path}: the sealed choice kept on this machine is damaged ({type(exc).__name__})") from exc


def seal_hides_anything(result: Replay, position: Position, side: str, item: dict[str, Any]) -> bool:
    """Whether sealing ``item`` keeps anything from the opponent (docs/protocol.md, "Sealed choices").

    A seal matters only while the opponent still has a choice of his own to make before the sealed one is
    revealed. Run the rules with the answer sealed and no dice: when they come straight to asking this side
    to unseal it, the opponent's part was answered by his standing policies, which are public and fixed
    before this packet, so the seal hides nothing and only costs a packet each way. Anything else (a die
    first, a question to either side) keeps the seal.
    """
    try:
        run = dry_run(result.ruleset, position, side, len(result.packets),
                      seal_inputs(result.game_id, [item], keep=False))
    except BadInput:
        return True
    waiting = run.next_request
    return bool(run.stopped_at_die) or waiting is None or waiting.side != side or waiting.unseals != item["request"]


def unsealed_where_useless(result: Replay, position: Position, side: str,
                           answer: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``answer`` with ``seal: true`` dropped from every choice whose seal hides nothing (see above)."""
    return [{k: v for k, v in item.items() if k != "seal"}
            if item.get("seal") and not seal_hides_anything(result, position, side, item) else item
            for item in answer]


def check_sealed_content(result: Replay, key: keystore.KeyPair, inputs: list[dict[str, Any]]) -> None:
    """A sealed choice must be one that can be unsealed legally: the author knows its content, so each is
    checked in the clear (the other inputs as they will be signed) before anything is sealed. A choice that
    could never be unsealed would leave the game stuck forever at the reveal."""
    for index, item in enumerate(inputs):
        if not item.get("seal"):
            continue
        clear = [({"request": item["request"], "answer": item["answer"]} if i == index else other)
                 for i, other in enumerate(inputs)]
        try:
            check_orders(result, key, seal_inputs(result.game_id, clear, keep=False))
        except BadInput as exc:
            raise BadInput(f"input {index + 1}: the sealed choice for {item['request']} is not legal, so it could "
                           f"never be unsealed: {exc}") from exc


def check_input_shapes(inputs: list[dict[str, Any]], where: str = "orders") -> None:
    """Each input has one of the shapes a packet may carry (the packet schema's ``input``), before the rules
    see it: a policy without its rule, say, is refused here with its place, not met by the rules code."""
    if len(inputs) > 1 and any(isinstance(item, dict) and "resign" in item for item in inputs):
        raise BadInput(f"{where}: a resignation goes alone in its packet (rsr resign GAME signs it)")
    for number, item in enumerate(inputs, start=1):
        if isinstance(item, dict) and item.get("seal") is True and set(item) == {"request", "answer", "seal"}:
            item = {"request": item["request"], "answer": item["answer"]}  # sealed when signed
        if not _input_validator().is_valid(item):
            shown = repr(item) if len(repr(item)) <= 120 else repr(item)[:120] + "..."
            raise BadInput(f"{where}: input {number} {shown} is none of: {{request, answer}}, {{request, answer, "
                           "seal: true}, {unseal, salt, choice}, {policy, rule}, {resign: true}")


@functools.cache
def _input_validator() -> Any:
    """The packet schema's ``input`` definition, on its own."""
    import jsonschema

    from rsr.schemas import SCHEMA_DIR

    schema = json.loads((SCHEMA_DIR / "packet.schema.json").read_text())
    alone = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/input"}
    return jsonschema.validators.validator_for(schema)(alone)


def check_all_orders(result: Replay, key: keystore.KeyPair, inputs: list[dict[str, Any]]) -> Any:
    """Every check ``submit`` makes before signing, without signing: plain data, input shapes, sealed content,
    the dry run."""
    plain_json(inputs, "orders")
    check_input_shapes(inputs)
    check_sealed_content(result, key, inputs)
    return check_orders(result, key, seal_inputs(result.game_id, inputs, keep=False))


@dataclass
class Orders:
    """An orders file: the inputs to sign and an optional message to the opponent (signed with them)."""

    inputs: list[dict[str, Any]]
    message: str | None = None


def read_orders(path: Path | str) -> Orders:
    """An orders file: ``inputs:`` a list of answers and policies, and an optional ``message:``
    (docs/red-sun-rising/orders.md). Every value must be plain JSON data: text, whole numbers, true/false,
    null, lists and mappings with text keys; YAML's floats, dates and binary are refused with their place."""
    if str(path) == "-":
        data = load_yaml_text(read_packet_text(path), "orders from standard input", hexes=True)
    else:
        data = load_yaml_text(read_text_file_limited(Path(path), MAX_INPUT_BYTES, "orders file"), str(path),
                              hexes=True)
    if data is None:
        return Orders([])
    if not isinstance(data, dict) or not isinstance(data.get("inputs", []), list):
        raise BadInput(f"{path}: an orders file is a mapping with a list 'inputs:'")
    extra = sorted(str(k) for k in data if k not in ("inputs", "message"))
    if extra:
        raise BadInput(f"{path}: unknown key {extra[0]!r} (an orders file has 'inputs:' and 'message:')")
    inputs = data.get("inputs") or []
    for number, item in enumerate(inputs, start=1):
        if not isinstance(item, dict):
            raise BadInput(f"{path}: inputs[{number}] is not a mapping")
        plain_json(item, f"{path}: inputs[{number}]")
    check_input_shapes(inputs, str(path))
    message = data.get("message")
    if message is not None:
        if not isinstance(message, str):
            raise BadInput(f"{path}: message: is text")
        if len(message) > 2000 or any(not (ch.isprintable() or ch == "\n") for ch in message):
            raise BadInput(f"{path}: message: at most 2000 printable characters (new lines allowed)")
    return Orders(inputs, message or None)


def load_orders(path: Path | str) -> list[dict[str, Any]]:
    """The inputs of an orders file (see :func:`read_orders`)."""
    return read_orders(path).inputs


def plain_json(value: Any, where: str) -> None:
    """Refuse anything in an input that is not exactly JSON with whole numbers (what a packet may carry)."""
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if abs(value) > SAFE_INT:
            raise BadInput(f"{where}: {value} is too large (whole numbers up to {SAFE_INT})")
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            plain_json(item, f"{where}[{index}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise BadInput(f"{where}: key {key!r} is not text")
            plain_json(item, f"{where}.{key}")
        return
    kind = {"float": "a fraction (orders take whole numbers)", "datetime": "a date", "date": "a date",
            "bytes": "binary data"}.get(type(value).__name__, f"a {type(value).__name__}")
    raise BadInput(f"{where}: {value!r} is {kind}, not plain text, a whole number, true/false or a list")


def _comment(text: str) -> str:
    """``text`` as YAML comment lines of at most 80 columns, whatever line breaks it holds."""
    import textwrap

    lines = [part for line in text.splitlines() or [""]
             for part in textwrap.wrap(line, width=78, break_on_hyphens=False) or [""]]
    return "\n".join("# " + line for line in lines)


def template(game_dir: Path, key_name: str | None, written: list[dict[str, Any]] | None = None) -> str:
    """The orders file to fill in, as YAML that loads as it is (every note is a whole comment line).

    It lays out every question the game will ask this player before the next die or the opponent's answer
    (rsr/lookahead.py), each with its case and legal options, and after a die the questions a plan signed
    now may answer. ``written`` (``--from FILE``) are the player's answers so far: they are kept, and the
    questions after them are those the game asks after these answers.
    """
    result = load_game(game_dir)
    progress.refuse_if_over(result)
    key = choose_key(result, key_name)
    side = next(s for s, pub in sorted(result.keys.items()) if pub == key.public_raw)
    if result.next_author() != side:
        raise BadInput(f"it is {result.next_author()}'s packet to write, not {side}'s")
    position, waiting, _ = position_for_author(result, key)
    lines = [f"# orders for game {result.game_id[:8]}, {side}, packet {len(result.packets)}"]
    if waiting is None:
        lines.append("# the game is over")
        return "\n".join(lines) + "\ninputs: []\n"
    if waiting.side != side:
        lines.append(_comment(f"the game waits for {waiting.side} ({waiting.prompt}); your packet carries no orders"))
        return "\n".join(lines) + "\ninputs: []\n"
    found = whole_turn(result, key, written or [])
    return "\n".join(lines + _turn_lines(result, side, found, written or [])) + "\n"


def whole_turn(result: Replay, key: keystore.KeyPair, written: list[dict[str, Any]]) -> lookahead.Walk:
    """Every question this player's next packet may answer (rsr/lookahead.py), after the answers ``written``."""
    side = next(s for s, pub in sorted(result.keys.items()) if pub == key.public_raw)
    position, waiting, _ = position_for_author(result, key)
    return lookahead.walk(result.ruleset, position, waiting, side, len(result.packets), written,
                          prepare=lambda items: seal_inputs(result.game_id, items, keep=False),
                          unsealing=lambda request: unseal_input(result.game_id, request))


def _turn_lines(result: Replay, side: str, found: lookahead.Walk, written: list[dict[str, Any]]) -> list[str]:
    """The body of :func:`template`: the questions of the walk, each with its notes, then where it stops."""
    count = len(found.questions) + len(found.prepared)
    lines = []
    if count > 1:
        lines.append(_comment(f"this packet can answer {count} questions of this turn at once: write your answer "
                              "under each, in order (the answers given are examples); you may stop after any "
                              "question by deleting the ones after it, and the game asks those in a later "
                              "packet"))
    if any(q.source == "nothing" for q in found.questions[1:]):
        lines.append(_comment("options of a later question are those that follow if you answer the questions "
                              "before it with nothing; once you have written your answers, run `rsr orders "
                              "template GAME --from YOUR-FILE` to see them after your answers"))
    prepared_kinds = {q.prepared.policy for q in found.prepared if q.prepared is not None}
    items: list[tuple[list[str], dict[str, Any]]] = []
    for item in written:
        if "policy" in item and item["policy"] not in prepared_kinds:
            items.append((["# a standing policy you wrote"], item))
    if found.prepared:  # (policies come before the answers: an input after the answer that rolls is refused)
        items.append(([_comment(f"questions the game asks after the dice of this packet "
                                f"({found.stopped_at_die}), answered now by a plan (options as the position is "
                                "before the dice):")], {}))
    for number, question in enumerate(found.prepared, 1):
        items.append(_prepared_item(result.ruleset.id, number, question, written))
    if found.prepared:
        items.append((["# the questions of this packet, in the order the game asks them:"], {}))
    for number, question in enumerate(found.questions, len(found.prepared) + 1):
        items.append(_question_item(result, side, number, question))
    reached = {q.request.id for q in found.questions}
    for item in written:
        if isinstance(item.get("request"), str) and item["request"] not in reached:
            items.append(([_comment(f"you answered {item['request']}, but the game does not ask it before the "
                                    "next die, so it is left out here (answer it when the game asks it):")]
                          + ["#   " + line for line in dump_yaml([item]).splitlines()], {}))
    if found.stopped_at_die:
        items.append(([_comment(f"then the game rolls dice ({found.stopped_at_die})")], {}))
    body = ["inputs:" if any(item for _, item in items) else "inputs: []"]
    for notes, item in items:
        body += notes
        if item:
            body += dump_yaml([item]).rstrip("\n").splitlines()
    if found.blocked:
        body.append(_comment(f"the template stops here: {found.blocked}; write it, then run `rsr orders template "
                             "GAME --from YOUR-FILE` to see the questions after it"))
    elif found.next_request is not None and not found.stopped_at_die:
        body.append(_comment(f"then the game asks {found.next_request.side}: {found.next_request.prompt}"))
    elif found.next_request is None and not found.stopped_at_die and found.questions:
        body.append("# then the game ends")
    return lines + body


def _question_item(result: Replay, side: str, number: int,
                   question: lookahead.Question) -> tuple[list[str], dict[str, Any]]:
    request = question.request
    notes = [_comment(f"{number}. {request.prompt} ({request.case}) [{request.id}]")]
    if question.source == "sealed" and question.item is not None:
        notes.append("# your sealed choice, to reveal now (stored on this machine when you sealed it)")
        return notes, question.item
    if question.source == "written" and question.item is not None:
        notes.append("# your answer, as written")
        return notes, question.item
    if number > 1 and lookahead.prepared_for(result.ruleset.id, request.id) is not None:
        notes.append(_comment("if an answer above rolls dice (a fire mission), this question comes after them: "
                              "`rsr orders template GAME --from YOUR-FILE` then writes it as a plan signed now"))
    notes.append("# legal options:")
    notes += ["#   " + line for line in dump_yaml(request.options).splitlines()]
    item: dict[str, Any] = {"request": request.id, "answer": request.template}
    if request.sealable and question.at is not None \
            and seal_hides_anything(result, question.at, side, {**item, "seal": True}):
        notes.append(_comment("this choice may be sealed: keep 'seal: true' to hide it until the opponent has "
                              "answered"))
        item["seal"] = True
    elif request.sealable:
        notes.append(_comment("this choice may be sealed, but a seal would hide nothing: the opponent's part is "
                              "already fixed by his standing policies; answered in the clear it saves a packet "
                              "each way (add 'seal: true' to seal anyway)"))
    return notes, item


def _prepared_item(ruleset_id: str, number: int, question: lookahead.Question,
                   written: list[dict[str, Any]]) -> tuple[list[str], dict[str, Any]]:
    request, prepared = question.request, question.prepared
    assert prepared is not None
    notes = [_comment(f"{number}. {request.prompt} ({request.case}) [{request.id}]"), _comment(prepared.note)]
    mine = next((item for item in written if item.get("policy") == prepared.policy), None)
    if mine is not None:
        return notes + ["# your plan, as written"], mine
    notes.append("# legal options (before the dice):")
    notes += ["#   " + line for line in dump_yaml(request.options).splitlines()]
    item = lookahead.prepared_input(ruleset_id, request.id, request.template)
    return notes, item or {}


def pass_answer(result: Replay, key_name: str | None) -> dict[str, Any] | None:
    """The input that answers the request pending for this player with nothing (no attacks, no moves), if
    the request is theirs, its answer is a list or a mapping, and the rules accept it empty."""
    key = choose_key(result, key_name)
    _, waiting, _ = position_for_author(result, key)
    side = next((s for s, pub in sorted(result.keys.items()) if pub == key.public_raw), None)
    if waiting is None or waiting.side != side or waiting.unseals is not None:
        return None
    if not isinstance(waiting.template, list | dict):
        return None
    item = {"request": waiting.id, "answer": lookahead.emptied(waiting.template)}
    try:
        check_orders(result, key, [item])
    except BadInput:
        return None
    return item


def submit(game_dir: Path, inputs: list[dict[str, Any]], key_name: str | None,
           out: Path | None = None, message: str | None = None) -> Packet:
    """Check, sign, journal and write the next packet; every decision is taken inside the game lock."""
    with game_locked(game_dir):
        result = load_game(game_dir)
        progress.refuse_if_over(result)
        key = choose_key(result, key_name)
        seq = len(result.packets)
        journal.refuse_if_signed(result.game_id, seq)
        check_all_orders(result, key, inputs)  # refuse bad orders first
        packet = build_packet(result, key, seal_inputs(result.game_id, inputs, keep=True), utc_now(), message)
        after = checked_before_signing(result, packet)
        journal.record(packet)
        write_packets(game_dir, [packet], after)
        write_reports(game_dir, key_name, after)
        remember(after)
    if out is not None:
        atomic_write(out, packet.armored().encode())
    return packet


RESIGNATION: dict[str, Any] = {"resign": True}  # docs/protocol.md, "Resigning"


def resign(game_dir: Path, key_name: str | None, out: Path | None = None, message: str | None = None) -> Packet:
    """Sign the resignation ``{resign: true}`` as this side's next packet: the game ends at once with the
    other side's decisive victory, for both copies and for ``rsr verify``."""
    return submit(game_dir, [dict(RESIGNATION)], key_name, out, message)


def turn_check_lines(result: Replay, key: keystore.KeyPair, inputs: list[dict[str, Any]]) -> list[str]:
    """For ``rsr orders check``: every question of this packet's turn (rsr/lookahead.py), and which of them
    the orders answer (an answer, a plan used after the dice) or leave for a later packet."""
    try:
        found = whole_turn(result, key, inputs)
    except BadInput:
        return []
    lines = []
    mine = {item.get("policy") for item in inputs if "policy" in item}
    for question in found.questions:
        where = {"written": "answered by your orders", "sealed": "your sealed choice is revealed",
                 "nothing": "NOT answered: the game asks it in a later packet (rsr orders template GAME "
                            "--from YOUR-FILE lays it out)"}.get(question.source, question.source)
        lines.append(f"  {question.request.id}: {where}")
    for question in found.prepared:
        policy = question.prepared.policy if question.prepared else "?"
        where = (f"after the dice, your plan (policy {policy}) is used" if policy in mine
                 else f"after the dice: no plan given, the game asks it in a later packet (policy {policy})")
        lines.append(f"  {question.request.id}: {where}")
    if lines:
        lines.insert(0, "questions of this packet:")
    return lines
