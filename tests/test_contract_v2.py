"""Contract version 2 (issue 20 sections 1-3, docs/protocol.md "What you sign counts").

Each attack is played as a hostile opponent would (a modified rsr signing with the real key), before (a game
begun under contract version 1, which keeps its rules) and after (version 2), through the real command line
where a person would meet it. The figures each test prints (run with ``-s``) are the issue note's.
"""

from __future__ import annotations

import copy
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import gamedir
from rsr import keys as keystore
from rsr import log as gamelog
from rsr.cli import main
from rsr.engine import dry_run
from rsr.errors import VerificationError
from rsr.fairdice import commitment, dice_key, roll_value
from rsr.gamedir import incoming
from rsr.packet import Packet, sign_payload
from tests.support.press import Press, press_scenario

REPO = Path(__file__).resolve().parent.parent
WORDINGS = 60  # wordings of one attack a hostile rsr may send (each a new hash, so new dice under version 1)
ATTACK = [{"request": "r1/attack", "answer": "go"}, {"request": "r1/press1", "answer": "yes"},
          {"request": "r1/press2", "answer": "yes"}]  # legal only if two dice come up 5 or 6 (chance 1/9)


@pytest.fixture(autouse=True)
def press_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    from rsr import log
    from rsr.rulesets import REGISTRY

    monkeypatch.setitem(REGISTRY, "press", Press)
    real = log.load_scenario
    monkeypatch.setattr(log, "load_scenario",
                        lambda rs, name: press_scenario(int(name.split("-")[1])) if rs == "press" else real(rs, name))


def start(tmp: Path, version: int, accept_inputs: list[dict[str, Any]] | None = None,
          rounds: int = 20, deadline: int | None = None) -> tuple[Path, dict[str, keystore.KeyPair]]:
    """A press game between two keys of this machine, started under contract ``version``; packets 0 and 1."""
    a, d = keystore.new_key("att"), keystore.new_key("def")
    invite = gamelog.invite_packet(Press(), press_scenario(rounds), a, "attacker", "A", bytes(range(16)), None, {},
                                   nonce=bytes([1]) * 32, version=version, time="2026-01-01T00:00:00Z",
                                   deadline_hours=deadline)
    game_dir = gamedir.create_game_dir(tmp, invite)
    gamedir.append_packets(game_dir, [invite])
    accept = gamelog.accept_packet(invite, d, "D", accept_inputs or [], nonce=bytes([2]) * 32,
                                   time="2026-01-01T00:01:00Z")
    gamedir.append_packets(game_dir, [accept])
    return game_dir, {"attacker": a, "defender": d}


def hostile(result: gamelog.Replay, key: keystore.KeyPair, inputs: list[dict[str, Any]], time: str) -> Packet:
    """What a modified rsr signs: a true reveal and resolution, any inputs, no dry run."""
    seq = len(result.packets)
    record = gamelog.pending_pass(result, key)
    assert record is not None
    payload: dict[str, Any] = {
        "v": result.contract, "game": result.game_id, "seq": seq, "side": gamelog.my_side(result, key),
        "prev": result.last.hash_hex, "inputs": inputs, "time": time,
        "reveal": gamelog.secret_for(result, key, seq - 2).hex(),
        "resolution": {"state": record.state_hash, "dice": [r.to_json() for r in record.rolls]}}
    payload["commit"] = commitment(gamelog.secret_for(result, key, seq, payload))
    return sign_payload(payload, key)


def full_activation(result: gamelog.Replay, victim: keystore.KeyPair, packet: Packet) -> bool:
    """Whether ``packet``'s dice (known only to the victim, whose next packet reveals them) go the attacker's way."""
    secret = gamelog.secret_for(result, victim, packet.seq - 1)
    key = dice_key(secret, bytes.fromhex(result.game_id), packet.hash)
    return roll_value(key, 0, 6) >= 5 and roll_value(key, 1, 6) >= 5


def receive(game_dir: Path, packet: Packet, tmp: Path, *extra: str) -> Any:
    mail = tmp / "mail.txt"
    mail.write_text(packet.armored())
    return CliRunner().invoke(main, ["receive", str(game_dir), str(mail), *extra])


def without_names(text: str) -> str:
    """A refusal's text with what names the wording (its hash, the dispute's file name) left out."""
    return re.sub(r"copy-[0-9]+", "copy", re.sub(r"[0-9a-f]{8}-rejected\.txt", "X-rejected.txt", text))


@pytest.mark.parametrize("version", [1, 2])
def test_re_rolls_by_rejection_get_nothing(tmp_path: Path, version: int) -> None:
    """Issue 20 section 1: 60 wordings of an attack that is legal only if the dice go well, sent to the victim.

    Version 1: the victim stores exactly the wordings whose dice go well and refuses the others, so the
    attacker re-sends until one passes (a free re-roll per refusal). Version 2: every wording is refused
    before any die, with the same line, and nothing about the dice is shown."""
    game_dir, keys = start(tmp_path, version)
    result = gamelog.replay(gamedir.load_log(game_dir))
    stored, refused, lucky, lines = [], [], [], set()
    for wording in range(WORDINGS):
        packet = hostile(result, keys["attacker"], ATTACK, f"2026-01-01T01:{wording:02d}:00Z")
        longer = gamelog.extend(result, [packet])
        if full_activation(longer, keys["defender"], packet):
            lucky.append(wording)
        held = tmp_path / f"copy-{wording}"
        shutil.copytree(game_dir, held)
        out = receive(held, packet, tmp_path, "--key", "def")
        (stored if out.exit_code == 0 else refused).append(wording)
        if out.exit_code != 0:
            lines.add(without_names(out.output.strip()))
    print(f"\nversion {version}: {WORDINGS} wordings, dice favourable in {len(lucky)}, stored {len(stored)}, "
          f"refused {len(refused)}, distinct refusal lines {len(lines)}")
    if version == 1:
        assert stored == lucky  # the verdict tells the attacker how the dice fell: re-send until stored
    else:
        assert stored == [] and len(refused) == WORDINGS
        assert len(lines) == 1, "\n".join(lines)  # one line whatever the dice
        line = lines.pop()
        assert "input 2" in line and "comes after a die roll" in line and "activation in round 1" in line
        assert "rolled" not in line


def receive_verdicts(game_dir: Path, packet: Packet, tmp_path: Path, tag: str) -> list[bool]:
    """Whether the resolver's receive (with its key) and a third party's (without) each refuse ``packet``,
    each on its own copy of ``game_dir``."""
    verdicts = []
    held = tmp_path / f"r-{tag}"
    shutil.copytree(game_dir, held)
    verdicts.append(receive(held, packet, tmp_path, "--key", "def").exit_code != 0)
    third = tmp_path / f"t-{tag}"
    shutil.copytree(game_dir, third)
    try:
        incoming(third, packet.armored(), "mail", None)
        verdicts.append(False)
    except VerificationError:
        verdicts.append(True)
    return verdicts


def test_one_verdict_everywhere_on_the_attack(tmp_path: Path) -> None:
    """Resolver (receive with the key), a third party (receive without it), verify: the same verdict."""
    game_dir, keys = start(tmp_path, 2)
    result = gamelog.replay(gamedir.load_log(game_dir))
    for wording in range(6):
        packet = hostile(result, keys["attacker"], ATTACK, f"2026-01-01T02:{wording:02d}:00Z")
        verdicts = receive_verdicts(game_dir, packet, tmp_path, str(wording))
        logged = tmp_path / f"v-{wording}"
        shutil.copytree(game_dir, logged)
        (logged / "turns" / packet.file_name()).write_text(packet.armored())
        verdicts.append(CliRunner().invoke(main, ["verify", str(logged)]).exit_code != 0)
        assert verdicts == [True, True, True]


def honest_inputs(result: gamelog.Replay, key: keystore.KeyPair) -> list[dict[str, Any]]:
    """Everything the author is asked before the next die, answered legally."""
    side = gamelog.my_side(result, key)
    position, waiting, _ = gamelog.position_for_author(result, key)
    inputs: list[dict[str, Any]] = []
    while waiting is not None and waiting.side == side:
        if waiting.kind == "guard":
            state = position.state
            answer: Any = next(lane for lane in (3, 1, 2) if lane != state.blocked)
        else:
            answer = "go" if waiting.kind == "attack" else "yes"
        item = {"request": waiting.id, "answer": answer}
        run = dry_run(result.ruleset, position, side, len(result.packets), [item])
        inputs.append(item)
        if run.stopped_at_die:
            break
        position, waiting = run.position, run.next_request
    return inputs


def play_to_end(game_dir: Path, keys: dict[str, keystore.KeyPair]) -> gamelog.Replay:
    result = gamelog.replay(gamedir.load_log(game_dir))
    for _ in range(400):
        key = keys[result.next_author()]
        record = gamelog.pending_pass(result, key)
        if record is not None and record.waiting is None:
            break
        packet = gamelog.build_packet(result, key, honest_inputs(result, key))
        gamedir.append_packets(game_dir, [packet])
        result = gamelog.extend(result, [packet])
    return result


def test_a_policy_the_dice_made_illegal_is_void_and_asked_again(tmp_path: Path) -> None:
    """The defender guards lane 2 by policy; an attack die of 1 or 4 blocks lane 2. Version 2: that answer is
    void (an event names it, why and the case), the defender is asked again, the game goes on to its end."""
    game_dir, keys = start(tmp_path, 2, [{"policy": "guard", "rule": "lane-2"}], rounds=30)
    result = play_to_end(game_dir, keys)
    voids = [e for record in result.passes for e in record.events if e.kind == "void"]
    end = gamelog.position_for_author(result, keys[result.next_author()])[0]
    print(f"\n30 rounds: {len(voids)} void policy answers, game over: {end.state.round > 30}")
    assert voids and all(e.case == "TEST 12" and "blocked" in e.text and "asked again" in e.text for e in voids)
    assert end.state.round > 30
    from rsr.report import build_report, report_text

    record = next(r for r in result.passes if any(e.kind == "void" for e in r.events))
    text = report_text(build_report(result, record))
    assert "Void answer (TEST 12" in text and "lane 2 is blocked" in text
    assert CliRunner().invoke(main, ["verify", str(game_dir)]).exit_code == 0
    run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(game_dir)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout


def test_a_game_begun_under_version_1_replays_under_version_1(tmp_path: Path) -> None:
    """A game in progress survives the upgrade: its packets keep v 1, its secrets and dice, and an honest game
    plays on to the end; a version 1 log does not become a version 2 one half way."""
    game_dir, keys = start(tmp_path, 1, rounds=6)
    result = play_to_end(game_dir, keys)
    assert result.contract == 1 and {p.payload["v"] for p in result.packets} == {1}
    assert CliRunner().invoke(main, ["verify", str(game_dir)]).exit_code == 0
    run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(game_dir)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout


def test_an_unknown_contract_version_is_named(tmp_path: Path) -> None:
    game_dir, keys = start(tmp_path, 2)
    invite = gamedir.load_log(game_dir)[0]
    payload = dict(invite.payload, v=3)
    payload["commit"] = "0" * 64
    forged = sign_payload(payload, keys["attacker"])
    for path in (game_dir / "turns").iterdir():
        path.unlink()
    (game_dir / "turns" / forged.file_name()).write_text(forged.armored())
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert out.exit_code != 0 and "contract version 3, which this rsr does not know" in out.output
    run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(game_dir)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 1 and "contract version 3 is not known" in run.stdout


@pytest.mark.parametrize("version", [1, 2])
def test_a_restored_backup_never_repeats_a_secret(tmp_path: Path, version: int) -> None:
    """Issue 20 section 2: the attacker's packet 2 was lost with his rsr home; the restored home signs packet 2
    again (another time). The defender, who saw the lost packet's secret revealed, grinds 60 wordings of his
    packet 3 and predicts each one's first die. Version 1: the same secret, every die predicted. Version 2: a
    fresh secret, predictions no better than chance."""
    game_dir, keys = start(tmp_path, version)
    result = gamelog.replay(gamedir.load_log(game_dir))
    attacker, defender = keys["attacker"], keys["defender"]
    lost = gamelog.build_packet(result, attacker, [{"request": "r1/attack", "answer": "go"}], "2026-01-02T00:00:00Z")
    lost_secret = gamelog.secret_for(gamelog.extend(result, [lost]), attacker, 2)  # revealed by the lost packet 4
    again = gamelog.build_packet(result, attacker, [{"request": "r1/attack", "answer": "go"}], "2026-01-03T00:00:00Z")
    same = gamelog.build_packet(result, attacker, [{"request": "r1/attack", "answer": "go"}], "2026-01-02T00:00:00Z")
    assert same.payload_bytes == lost.payload_bytes  # identical content, identical packet
    after = gamelog.extend(result, [again])
    predicted = 0
    for wording in range(60):
        packet = gamelog.build_packet(after, defender, honest_inputs(after, defender),
                                      f"2026-01-04T00:{wording:02d}:00Z")
        truth = gamelog.secret_for(gamelog.extend(after, [packet]), attacker, 2)
        game = bytes.fromhex(result.game_id)
        guess = roll_value(dice_key(lost_secret, game, packet.hash), 0, 6)
        predicted += guess == roll_value(dice_key(truth, game, packet.hash), 0, 6)
    print(f"\nversion {version}: commit repeated {again.payload['commit'] == lost.payload['commit']}, "
          f"first die predicted in {predicted} of 60 wordings")
    if version == 1:
        assert again.payload["commit"] == lost.payload["commit"] and predicted == 60
    else:
        assert again.payload["commit"] != lost.payload["commit"] and predicted < 25  # chance: 10 of 60


def test_equivocation_is_kept_as_proof_and_named_by_verify_and_status(tmp_path: Path) -> None:
    """Issue 20 section 1: a second, different packet 2 signed by the attacker. The first stays in the log; both
    are kept in disputes/; verify (still OK: the log itself is sound) and status name the signer."""
    game_dir, keys = start(tmp_path, 2)
    result = gamelog.replay(gamedir.load_log(game_dir))
    first = gamelog.build_packet(result, keys["attacker"], [{"request": "r1/attack", "answer": "go"}],
                                 "2026-01-01T03:00:00Z")
    second = gamelog.build_packet(result, keys["attacker"], [{"request": "r1/attack", "answer": "go"}],
                                  "2026-01-01T03:00:01Z")
    assert receive(game_dir, first, tmp_path, "--key", "def").exit_code == 0
    out = receive(game_dir, second, tmp_path, "--key", "def")
    assert out.exit_code == 1 and "equivocation" in out.output
    assert gamedir.load_log(game_dir)[2].payload_bytes == first.payload_bytes
    proof = game_dir / "disputes" / "0002-attacker.txt"
    assert proof.read_text().count("BEGIN RSR PACKET") == 2
    for command in (["verify", str(game_dir)], ["status", str(game_dir), "--key", "def"]):
        out = CliRunner().invoke(main, command)
        assert out.exit_code == 0, out.output
        assert "equivocation: attacker signed two different packets at seq 2 (proof: disputes/0002-attacker.txt)" \
            in " ".join(out.output.split())
    # a "proof" whose packets do not check out against the game's keys is not named
    proof.write_text(proof.read_text().replace("BEGIN RSR PACKET", "BEGIN RSR PACKET", 1)[:-200])
    assert "equivocation" not in CliRunner().invoke(main, ["verify", str(game_dir)]).output


def test_a_backdated_packet_cannot_make_an_early_claim_hold(tmp_path: Path) -> None:
    """Issue 20 section 3: the attacker backdates his packet 2 by 100 hours, then signs an overdue claim ten
    seconds after the victim stored it. Counted from the signed time the 48-hour deadline had passed; counted
    from when the victim's rsr stored the packet, it has not: the claim does not hold."""
    import datetime

    from rsr import claims
    from rsr.canonical import canonical_bytes
    from rsr.packet import armor_lines

    game_dir, keys = start(tmp_path, 2, deadline=48)
    result = gamelog.replay(gamedir.load_log(game_dir))
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    backdated = (now - datetime.timedelta(hours=100)).strftime("%Y-%m-%dT%H:%M:%SZ")
    packet = gamelog.build_packet(result, keys["attacker"], [{"request": "r1/attack", "answer": "go"}], backdated)
    assert receive(game_dir, packet, tmp_path, "--key", "def").exit_code == 0
    result = gamelog.replay(gamedir.load_log(game_dir))
    payload = {"claim": "overdue", "game": result.game_id, "side": "attacker", "owed_by": "defender", "owed_seq": 3,
               "last_hash": result.last.hash_hex, "last_time": backdated, "deadline_hours": 48,
               "time": (now + datetime.timedelta(seconds=10)).strftime("%Y-%m-%dT%H:%M:%SZ")}
    data = canonical_bytes(payload)
    text = "\n".join(armor_lines(claims.BEGIN, claims.END, [], data,
                                 keys["attacker"].sign(claims.CLAIM_PREFIX + data))) + "\n"
    lines = claims.check_claim(result, text)
    assert any("stored packet 2" in line for line in lines)
    assert "it does not hold" in lines[-2], lines
    status = CliRunner().invoke(main, ["status", str(game_dir), "--key", "def"]).output
    assert "deadline passed" not in status


def test_a_packet_from_the_future_is_refused_before_its_dice(tmp_path: Path) -> None:
    import datetime

    game_dir, keys = start(tmp_path, 2)
    result = gamelog.replay(gamedir.load_log(game_dir))
    later = (datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    packet = gamelog.build_packet(result, keys["attacker"], [{"request": "r1/attack", "answer": "go"}], later)
    out = receive(game_dir, packet, tmp_path, "--key", "def")
    assert out.exit_code == 1 and "cannot come from the future" in out.output
    assert len(gamedir.load_log(game_dir)) == 2


def cli(home: Path, *args: str) -> Any:
    return CliRunner().invoke(main, list(args), env={"RSR_HOME": str(home)})


def test_options_are_exactly_typed_and_shown_at_accept(tmp_path: Path) -> None:
    """Issue 20 section 3: the option rail-stacking-4 given as the text "false" was accepted, not shown at accept,
    and switched the rule on. Now it is refused at invite with one line; a true boolean is shown at accept."""
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    for home in (alice, bob):
        (home / "games").mkdir(parents=True)
    assert cli(alice, "key", "new", "alice").exit_code == 0
    assert cli(bob, "key", "new", "bob").exit_code == 0
    base = ["new", str(alice / "games"), "--scenario", "liaoyang-1904", "--side", "russia", "--key", "alice"]
    for text in ("'false'", "0", "1"):
        out = cli(alice, *base, "--option", f"rail-stacking-4={text}")
        assert out.exit_code == 2 and "is true or false" in out.output, out.output
        assert not list((alice / "games").glob("game-*"))
    assert cli(alice, *base, "--option", "rail-stacking-4=false", "--deadline-hours", "72").exit_code == 0
    invite = next((next((alice / "games").glob("game-*")) / "turns").glob("0000-*"))
    out = cli(bob, "accept", str(invite), "--key", "bob", "--dir", str(bob / "games"), "--name", "Bob")
    assert out.exit_code == 0, out.output
    assert "contract version 2" in out.output and "rules options: rail-stacking-4=false" in out.output
    assert "deadline: 72 h per packet" in out.output


def test_true_is_not_a_number_in_a_policy() -> None:
    from rsr.errors import RulesError
    from rsr.rulesets import get_ruleset

    for ruleset, kind, rule in (("red-sun-rising", "retreat", {"adjacent-to-cp": True}),
                                ("red-star", "morale", {"check-if-rating-at-least": True})):
        with pytest.raises(RulesError):
            get_ruleset(ruleset).check_policy(kind, rule)
    get_ruleset("red-sun-rising").check_policy("retreat", {"adjacent-to-cp": 2})


def test_dice_show_tells_the_truth_once_the_home_holds_a_checkpoint(tmp_path: Path) -> None:
    """Issue 20 section 7: with a checkpoint in the rsr home, 'rsr dice show GAME SEQ' said an early packet
    'came after the last die' or was 'not public yet'. It now replays from the start when it must."""
    from rsr import games as game_actions

    game_dir, keys = start(tmp_path, 2, rounds=8)
    result = play_to_end(game_dir, keys)
    from rsr import cache

    game_actions.remember(gamelog.replay(gamedir.load_log(game_dir)))
    cache._REPLAYS.clear()  # (as in a new process)
    assert not game_actions.load_game(game_dir).complete  # the checkpoint is used
    cache._REPLAYS.clear()
    first = next(r for r in result.passes if r.rolls)
    out = CliRunner().invoke(main, ["dice", "show", str(game_dir), str(first.resolved)])
    assert out.exit_code == 0, out.output
    assert f"rolls        {len(first.rolls)}" in out.output and "activation in round" in out.output


def test_a_combat_plan_is_checked_when_set_and_its_dropped_parts_are_void_with_a_reason(tmp_path: Path) -> None:
    """Issue 20 section 7 (RS/RS 6.1): a plan of prepared combats given with the fire (policy combats) whose
    combat names an attacker that is not adjacent, or a typo, was signed and then dropped whole at resolution;
    the report said only 'declares no prepared combat'. Now it is refused before signing (the same check
    every receiver makes), and a part the dice made impossible is void with its reason."""
    from rsr.engine import InputRefused, Position, check_before_dice, enqueue
    from rsr.fairdice import NoDice
    from rsr.rulesets.red_star import bot
    from rsr.rulesets.red_star import combat as cm
    from tests.test_fewer_packets import _japan_at

    result, position, waiting = _japan_at(tmp_path, "combats")
    plan = bot.combats_planned_with(position.state, "japan", {"missions": [{"guns": ["x"]}]})[0]["rule"]["combats"]
    seq = len(result.packets)
    for broken in ([dict(plan[0], attackers=["jp-no-such-unit"])], [dict(plan[0], hex="0000")]):
        trial: Position = copy.deepcopy(position)
        trial.contract = 2
        enqueue(trial, seq, "japan", [{"policy": "combats", "rule": {"turn": position.state.turn, "combats": broken}}])
        with pytest.raises(InputRefused, match="combat 1"):
            check_before_dice(result.ruleset, trial, seq)
    state = position.state
    for unit in state.units_in(plan[0]["hex"], "soviet"):  # what the fire's dice could do: the target is gone
        unit.hex = None
    answer = cm.planned_combats(state, "japan", plan)
    _, events = result.ruleset.apply(state, waiting, answer, NoDice())
    void = [e for e in events if e.kind == "void"]
    assert len(void) == 1 and void[0].case == "RS/RS 6.1" and "planned combat 1" in void[0].text
    assert "no enemy unit" in void[0].text


def test_a_restored_home_commits_a_fresh_secret_through_the_command_line(tmp_path: Path) -> None:
    """Issue 20 section 2 through `rsr submit`: the attacker's rsr home and game folder are restored from a backup
    taken before packet 2; he submits packet 2 again. The new packet commits another secret than the lost one."""
    import time

    game_dir, _ = start(tmp_path, 2)
    home = keystore.home()
    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs:\n- request: r1/attack\n  answer: go\n")
    shutil.copytree(home, tmp_path / "home-backup")
    shutil.copytree(game_dir, tmp_path / "game-backup")
    out = CliRunner().invoke(main, ["submit", str(game_dir), str(orders), "--key", "att"])
    assert out.exit_code == 0, out.output
    lost = gamedir.load_log(game_dir)[2]
    shutil.rmtree(home)
    shutil.rmtree(game_dir)
    shutil.copytree(tmp_path / "home-backup", home)
    shutil.copytree(tmp_path / "game-backup", game_dir)
    time.sleep(1.1)  # (signed times are to the second)
    out = CliRunner().invoke(main, ["submit", str(game_dir), str(orders), "--key", "att"])
    assert out.exit_code == 0, out.output
    again = gamedir.load_log(game_dir)[2]
    assert again.payload["inputs"] == lost.payload["inputs"] and again.payload["time"] != lost.payload["time"]
    assert again.payload["commit"] != lost.payload["commit"]


@pytest.mark.parametrize("ruleset", ["red-sun-rising", "red-star"])
@pytest.mark.parametrize("version", [1, 2])
def test_real_games_play_and_verify_under_both_versions(tmp_path: Path, ruleset: str, version: int) -> None:
    """Both rulesets, bots on both sides, 12 packets under each contract version: rsr verify and the independent
    verifier agree (OK), and every packet carries the game's version."""
    from tests.support.tamper import RULESETS, play_game

    scenario, sides = RULESETS[ruleset]
    keys = {side: keystore.new_key(f"k{number}") for number, side in enumerate(sides)}
    game_dir = play_game(tmp_path, ruleset, scenario, keys, bytes([version]) * 16, 12, version)
    packets = gamedir.load_log(game_dir)
    assert len(packets) >= 6 and {p.payload["v"] for p in packets} == {version}
    assert CliRunner().invoke(main, ["verify", str(game_dir)]).exit_code == 0
    run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(game_dir)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout


CONTRACT_BREAKS: dict[str, Any] = {
    "time backwards": lambda p: p.update(time="2025-12-31T23:59:59Z"),
    "30 February": lambda p: p.update(time="2026-02-30T00:00:00Z"),
    "hour 24": lambda p: p.update(time="2026-01-01T24:00:00Z"),
    "year 9999": lambda p: p.update(time="9999-01-01T00:00:00Z"),
    "version 1 in a version 2 game": lambda p: p.update(v=1),
    "17-byte unseal salt": lambda p: p.update(inputs=[{"unseal": "r1/attack", "salt": "ab" * 17, "choice": "go"}]),
}


@pytest.mark.parametrize("name", sorted(CONTRACT_BREAKS))
def test_one_verdict_on_what_the_contract_decides(tmp_path: Path, name: str) -> None:
    """The resolver's receive, a third party's receive, rsr verify and the independent verifier all refuse
    packet 2 when it breaks contract version 2 (times, version, seal salt)."""
    game_dir, keys = start(tmp_path, 2)
    result = gamelog.replay(gamedir.load_log(game_dir))
    packet = hostile(result, keys["attacker"], [{"request": "r1/attack", "answer": "go"}], "2026-01-01T05:00:00Z")
    payload = dict(packet.payload)
    CONTRACT_BREAKS[name](payload)
    bad = sign_payload(payload, keys["attacker"])
    verdicts = receive_verdicts(game_dir, bad, tmp_path, "contract")
    (game_dir / "turns" / bad.file_name()).write_text(bad.armored())
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    verdicts.append(out.exit_code != 0 and "packet 2" in out.output)
    run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(game_dir)],
                         capture_output=True, text=True, check=False)
    verdicts.append(run.returncode == 1 and "packet 2" in run.stdout)
    assert verdicts == [True, True, True, True], (name, out.output, run.stdout)


def test_an_impossible_time_in_a_version_1_game_is_no_traceback(tmp_path: Path) -> None:
    """Issue 20 section 3: a version 1 game (whose rules still let such a time through) with packet 2 signed at
    an impossible time: status and claim make answer in one line, no ValueError or OverflowError."""
    game_dir, keys = start(tmp_path, 1, deadline=1)
    result = gamelog.replay(gamedir.load_log(game_dir))
    packet = hostile(result, keys["attacker"], [{"request": "r1/attack", "answer": "go"}], "2026-02-30T00:00:00Z")
    gamedir.append_packets(game_dir, [packet])
    out = CliRunner().invoke(main, ["status", str(game_dir), "--key", "def"])
    assert out.exit_code == 0, out.output
    out = CliRunner().invoke(main, ["claim", "make", str(game_dir), "--key", "att"])
    assert out.exit_code == 2 and isinstance(out.exception, SystemExit), out.output
    assert [line for line in out.output.splitlines() if line.strip()] == [
        "rsr: packet 2 carries no signed time, so no deadline can be counted from it"], out.output
