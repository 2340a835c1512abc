"""Issue 8 acceptance: a fuzz run of every parser with 0 tracebacks.

Packets (armor and payload, signed and unsigned, and signed payloads whose fields are changed one at a time
and replayed), orders files (read, then checked against a game's rules), scenario files (the loader on a
copy of the data with one file changed, then the ruleset's set-up) and case files (collected, then run).
Every failure must be an :class:`rsr.errors.RsrError` (BadInput, VerificationError, RulesError); anything
else is a traceback a user would see. The CLI runs show it as one line with exit status 1 or 2.

Each target runs a few dozen examples in the normal suite and a few thousand behind ``make soak``.
Hypothesis is derandomized, so a run is reproducible.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rsr import cases, scenario, yamlio
from rsr import orders as order_actions
from rsr.canonical import strict_loads
from rsr.cli import main
from rsr.data import scenarios_dir
from rsr.errors import BadInput, RsrError
from rsr.log import check_last_inputs, pending_pass, position_for_author, replay
from rsr.packet import SIGN_PREFIX, armor, extract_blocks, read_packets
from tests.support.tamper import BaseGame, claim_setup, shared_games

QUICK = 25
LONG = 600

NASTY_SCALARS = ["-1", "0", "1e30", ".inf", "-.nan", "0.5", "null", "~", "[]", "{}", "!!binary aGk=", "2020-01-01",
                 "2020-01-01T10:00:00Z", "'x'", "0x10", "0o17", "yes", "no", "on", "&a x", "*a", "!!set {a}",
                 "!!python/object/apply:os.system ['true']", '"\\u0000"', "9" * 400, '"' + "x" * 3000 + '"',
                 "[" * 70 + "]" * 70, "!!float 1", "!!int x", "? complex", "|", ">", "-", "'", "\t"]
JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=40),
                        st.sampled_from(["", "0000", "russia", "japan", "soviet", "4415", "ff" * 32, "00" * 16]))
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)), max_leaves=12)


def run_property(strategy: st.SearchStrategy[Any], check: Callable[[Any], None], examples: int) -> None:
    """Run ``check`` on ``examples`` drawn values; an RsrError is a clean refusal, anything else fails."""

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def prop(value: Any) -> None:
        try:
            check(value)
        except RsrError:
            pass

    prop()


@st.composite
def mutated_text(draw: st.DrawFn, bases: list[str], scalars: bool = False) -> str:
    """A real file's text with 1-4 changes: flipped or inserted characters, lines deleted, repeated or
    swapped, and (for YAML) a value replaced by a nasty scalar."""
    text = draw(st.sampled_from(bases))
    for _ in range(draw(st.integers(1, 4))):
        ops = ["flip", "insert", "delete", "dup-line", "del-line", "swap-lines", "cut"]
        op = draw(st.sampled_from(ops + (["scalar", "scalar", "scalar"] if scalars else [])))
        pos = draw(st.integers(0, max(0, len(text) - 1)))
        lines = text.split("\n")
        line = draw(st.integers(0, max(0, len(lines) - 1)))
        if op == "flip" and text:
            text = text[:pos] + chr(draw(st.integers(0, 0x2FF))) + text[pos + 1:]
        elif op == "insert":
            text = text[:pos] + draw(st.text(max_size=8)) + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 30)):]
        elif op == "dup-line":
            lines.insert(line, lines[line])
            text = "\n".join(lines)
        elif op == "del-line":
            del lines[line]
            text = "\n".join(lines)
        elif op == "swap-lines" and len(lines) > 1:
            other = draw(st.integers(0, len(lines) - 1))
            lines[line], lines[other] = lines[other], lines[line]
            text = "\n".join(lines)
        elif op == "cut":
            text = text[:pos]
        elif op == "scalar":
            candidates = [i for i, x in enumerate(lines) if ": " in x or x.lstrip().startswith("- ")]
            if candidates:
                i = candidates[line % len(candidates)]
                head = lines[i].split(": ", 1)[0] + ": " if ": " in lines[i] else lines[i].split("- ", 1)[0] + "- "
                lines[i] = head + draw(st.sampled_from(NASTY_SCALARS))
                text = "\n".join(lines)
    return text


# -- the games the fuzzers work on ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[BaseGame, BaseGame]]:
    return shared_games(tmp_path_factory, 6, 4)


def armored_texts(games: dict[str, tuple[BaseGame, BaseGame]]) -> list[str]:
    return [data.decode() for game, _ in games.values() for _, data in game.files]


def pinned_keys(game: BaseGame) -> dict[str, bytes]:
    return {side: key.public_raw for side, key in game.keys.items()}


# -- packet: armor and payload ------------------------------------------------------------------------------


def packet_armor_check(games: dict[str, tuple[BaseGame, BaseGame]]) -> Callable[[Any], None]:
    game = games["red-star"][0]
    keys = pinned_keys(game)

    def check(text: str) -> None:
        try:
            extract_blocks(text)
        except BadInput:
            pass
        try:
            read_packets(text, None)
        except RsrError:
            pass
        read_packets(text, keys)

    return check


def test_fuzz_packet_armor(games: dict[str, tuple[BaseGame, BaseGame]]) -> None:
    texts = armored_texts(games)
    run_property(st.one_of(mutated_text(texts), st.text(max_size=300)), packet_armor_check(games), QUICK * 2)


def signed_payload_check(games: dict[str, tuple[BaseGame, BaseGame]]) -> Callable[[Any], None]:
    """Any bytes signed with a player's key reach the JSON reader and the schema; none may crash them."""
    game = games["red-star"][0]
    key = game.keys["japan"]
    keys = pinned_keys(game)

    def check(value: Any) -> None:
        data = value if isinstance(value, bytes) else _any_json(value)
        text = armor(data, key.sign(SIGN_PREFIX + data), "x", 0, "japan")
        for pinned in (keys, None):
            try:
                read_packets(text, pinned)
            except RsrError:
                pass
        try:
            strict_loads(data)
        except BadInput:
            pass

    return check


def _any_json(value: Any) -> bytes:
    try:
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, TypeError, ValueError):
        return json.dumps(value).encode()  # not canonical: rsr must refuse it, not crash


def packet_like() -> st.SearchStrategy[Any]:
    fields = {"v": st.sampled_from([1, 2, 0]), "game": st.sampled_from(["00" * 16, "0" * 31, "zz" * 16]),
              "seq": st.integers(-2, 2**60), "side": st.sampled_from(["japan", "soviet", "russia", "", "x"]),
              "prev": st.one_of(st.none(), st.sampled_from(["ab" * 32, "AB" * 32])),
              "commit": st.sampled_from(["ab" * 32, "1"]), "nonce": st.sampled_from(["cd" * 32, "cd"]),
              "inputs": st.lists(st.dictionaries(st.sampled_from(["request", "answer", "policy", "rule", "sealed",
                                                                  "unseal", "salt", "choice"]), JSON_VALUES,
                                                 max_size=3), max_size=3),
              "invite": JSON_VALUES, "accept": st.fixed_dictionaries(
                  {"keys": st.dictionaries(st.sampled_from(["japan", "soviet"]), st.text(max_size=50)),
                   "name": st.text(max_size=5)}),
              "reveal": st.sampled_from(["ab" * 32]), "time": st.text(max_size=25), "message": st.text(max_size=20),
              "resolution": st.fixed_dictionaries({"state": st.sampled_from(["ab" * 32]), "dice": st.lists(
                  st.fixed_dictionaries({"n": st.integers(-1, 3), "sides": st.integers(0, 300),
                                         "value": st.integers(-1, 7), "purpose": st.text(max_size=5)}),
                  max_size=2)})}
    return st.dictionaries(st.sampled_from(sorted(fields)), st.just(None), max_size=len(fields)).flatmap(
        lambda chosen: st.fixed_dictionaries({k: fields[k] for k in chosen}))


def test_fuzz_signed_payloads(games: dict[str, tuple[BaseGame, BaseGame]]) -> None:
    strategy = st.one_of(st.binary(max_size=200), JSON_VALUES, packet_like())
    run_property(strategy, signed_payload_check(games), QUICK * 2)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    out = [prefix]
    if isinstance(value, dict):
        for k in sorted(value):
            out += _paths(value[k], prefix + (k,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, prefix + (i,))
    return out


def _set(doc: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return doc


def replayed_field_check(games: dict[str, tuple[BaseGame, BaseGame]]) -> Callable[[Any], None]:
    """A player's own packet with one field (often an input) changed, re-signed with his key, replayed as the
    log's last packet; then the resolver's rsr runs the pass it must record. Only RsrError may come out."""
    rulesets = sorted(games)

    def check(choice: tuple[int, int, int, Any, bool]) -> None:
        which, seq_pick, path_pick, new, delete = choice
        game = games[rulesets[which % len(rulesets)]][0]
        seq = 1 + seq_pick % (len(game.packets) - 1)
        packet = game.packets[seq]
        payload = copy.deepcopy(packet.payload)
        inputs_paths = [p for p in _paths(payload) if p and p[0] == "inputs"]
        paths = inputs_paths if inputs_paths and path_pick % 3 else [p for p in _paths(payload) if p]
        path = paths[path_pick % len(paths)]
        if delete and len(path) > 1:
            parent = payload
            for step in path[:-2]:
                parent = parent[step]
            del parent[path[-2]][path[-1]]
        else:
            _set(payload, path, new)
        try:
            data = rfc8785.dumps(payload)
        except (rfc8785.CanonicalizationError, TypeError, ValueError):
            return
        # armored by hand with the original headers, as a hostile sender would (Packet's properties assume a
        # payload that passed the schema)
        text = armor(data, game.keys[packet.side].sign(SIGN_PREFIX + data), packet.game, packet.seq, packet.side)
        reread = read_packets(text, None) if seq <= 1 else read_packets(text, pinned_keys(game))
        result = replay(game.packets[:seq] + reread)
        check_last_inputs(result)
        victim = next(side for side in game.keys if side != packet.side)
        pending_pass(result, game.keys[victim])

    return check


def field_changes() -> st.SearchStrategy[Any]:
    return st.tuples(st.integers(0, 1), st.integers(0, 100), st.integers(0, 10_000), JSON_VALUES, st.booleans())


def test_fuzz_re_signed_fields_replayed(games: dict[str, tuple[BaseGame, BaseGame]]) -> None:
    run_property(field_changes(), replayed_field_check(games), QUICK)


# -- orders files ---------------------------------------------------------------------------------------------


ORDERS_BASES = [
    "inputs: []\n",
    "inputs:\n- request: t1/japan/move\n  answer:\n    moves:\n    - unit: jp-7-25\n      path: ['4415', '4414']\n",
    "inputs:\n- policy: retreats\n  rule: ask\n- request: r1\n  answer: {last_round: false}\nmessage: hello\n",
    "inputs:\n- request: x\n  answer: 1\n  seal: true\n",
    "# orders\ninputs:\n- unseal: a/b\n  salt: 00112233445566778899aabbccddeeff\n  choice: {lead: jp-1}\n",
]


def orders_check(games: dict[str, tuple[BaseGame, BaseGame]], folder: Path) -> Callable[[Any], None]:
    rulesets = sorted(games)

    def check(choice: tuple[str, int]) -> None:
        text, which = choice
        game = games[rulesets[which % 2]][0]
        path = folder / "orders.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        orders = order_actions.read_orders(path)
        result = game.result
        assert result is not None
        author = game.keys[result.next_author()]
        order_actions.check_all_orders(result, author, orders.inputs)

    return check


def orders_texts() -> st.SearchStrategy[Any]:
    return st.tuples(st.one_of(mutated_text(ORDERS_BASES + _bot_orders(), scalars=True), st.text(max_size=200)),
                     st.integers(0, 1))


def _bot_orders() -> list[str]:
    """Real answers from the example orders files of the repository."""
    found = sorted((REPO_ROOT / "examples").rglob("*.yaml"))[:6]
    return [p.read_text() for p in found]


def test_fuzz_orders_files(games: dict[str, tuple[BaseGame, BaseGame]], tmp_path: Path) -> None:
    run_property(orders_texts(), orders_check(games, tmp_path), QUICK * 2)


def test_orders_with_a_generated_answer_never_crash(games: dict[str, tuple[BaseGame, BaseGame]],
                                                    tmp_path: Path) -> None:
    """The answer to the request the game asks now, replaced by any JSON value: refused or accepted, never a
    traceback (the rules see every shape of input)."""

    def check(choice: tuple[int, Any]) -> None:
        which, answer = choice
        game = games[sorted(games)[which % 2]][0]
        result = game.result
        assert result is not None
        key = game.keys[result.next_author()]
        _, waiting, _ = position_for_author(result, key)
        if waiting is None:
            return
        order_actions.check_all_orders(result, key, [{"request": waiting.id, "answer": answer}])

    run_property(st.tuples(st.integers(0, 1), JSON_VALUES), check, QUICK * 2)


# -- YAML and JSON readers ------------------------------------------------------------------------------------


def test_fuzz_yaml_and_json_readers() -> None:
    def check(value: Any) -> None:
        text = value if isinstance(value, str) else value.decode("latin-1")
        try:
            yamlio.load_yaml_text(text, "fuzz")
        except BadInput:
            pass
        strict_loads(value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass"))

    run_property(st.one_of(st.text(max_size=200), st.binary(max_size=200),
                           mutated_text(ORDERS_BASES, scalars=True)), check, QUICK * 2)


# -- scenario files -------------------------------------------------------------------------------------------


def scenario_check(root: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[Any], None]:
    from rsr.rulesets import get_ruleset

    monkeypatch.setattr(scenario, "SCENARIO_ROOT", root)
    names = {"red-sun-rising": "liaoyang-turn-1904", "red-star": "july-1939-contact"}
    originals = {p: p.read_text() for p in sorted(root.rglob("*.yaml"))}
    files = sorted(originals)

    def check(choice: tuple[int, str]) -> None:
        pick, text = choice
        path = files[pick % len(files)]
        ruleset_id = path.parent.name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        scenario._CACHE.clear()
        try:
            loaded = scenario.load_scenario(ruleset_id, names[ruleset_id])
            get_ruleset(ruleset_id).initial_state(loaded, {})
        finally:
            path.write_text(originals[path])

    return check


def scenario_texts(root: Path) -> st.SearchStrategy[Any]:
    small = [p.read_text() for p in sorted(root.rglob("*.yaml")) if p.stat().st_size < 60_000]
    return st.tuples(st.integers(0, 100), mutated_text(small, scalars=True))


REPO_ROOT = Path(__file__).resolve().parents[1]


def _scenario_copy(tmp_path: Path) -> Path:
    root = tmp_path / "scenarios"
    shutil.copytree(scenarios_dir(), root)
    return root


def test_fuzz_scenario_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _scenario_copy(tmp_path)
    run_property(scenario_texts(root), scenario_check(root, monkeypatch), 6)
    scenario._CACHE.clear()


# -- case files -----------------------------------------------------------------------------------------------


CASE_FILES = sorted((REPO_ROOT / "tests" / "cases").rglob("*.yaml"))


def case_check(folder: Path) -> Callable[[Any], None]:
    def check(text: str) -> None:
        path = folder / "case.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        for file, spec in cases.collect([path]):
            problems = cases.run_case(file, spec)
            assert isinstance(problems, list)

    return check


def case_texts(sample: int) -> st.SearchStrategy[Any]:
    rng = random.Random(8)
    chosen = rng.sample(CASE_FILES, min(sample, len(CASE_FILES)))
    return mutated_text([p.read_text() for p in chosen], scalars=True)


def test_fuzz_case_files(tmp_path: Path) -> None:
    run_property(case_texts(30), case_check(tmp_path), 25)


# -- overdue claims ------------------------------------------------------------------------------------------


def claim_check(result: Any, attacker: Any) -> Callable[[Any], None]:
    from rsr.claims import CLAIM_PREFIX, check_claim
    from rsr.packet import armor_lines

    def check(value: Any) -> None:
        if isinstance(value, str):
            check_claim(result, value)
            return
        data = _any_json(value)
        text = "\n".join(armor_lines("-----BEGIN RSR CLAIM-----", "-----END RSR CLAIM-----", [], data,
                                     attacker.sign(CLAIM_PREFIX + data)))
        check_claim(result, text)

    return check


def claim_values(claim: str, result: Any) -> st.SearchStrategy[Any]:
    fields = {"claim": st.sampled_from(["overdue", "x"]), "game": st.sampled_from([result.game_id, "00"]),
              "side": st.one_of(st.sampled_from(["attacker", "defender"]), JSON_VALUES),
              "owed_by": JSON_VALUES, "owed_seq": st.one_of(st.integers(-3, 5), JSON_VALUES),
              "last_hash": st.sampled_from([result.last.hash_hex, "ab"]),
              "last_time": st.one_of(st.sampled_from([result.last.payload["time"]]), JSON_VALUES),
              "deadline_hours": st.one_of(st.just(1), JSON_VALUES),
              "time": st.one_of(st.sampled_from(["2026-01-02T00:00:00Z", "9999-99-99T00:00:00Z"]), JSON_VALUES)}
    return st.one_of(mutated_text([claim]), st.fixed_dictionaries(fields))


@pytest.mark.usefixtures("duel_registered")
def test_fuzz_overdue_claims(tmp_path: Path) -> None:
    result, claim, attacker = claim_setup()
    run_property(claim_values(claim, result), claim_check(result, attacker), QUICK * 2)


# -- the command line: one line, exit 1 or 2 ---------------------------------------------------------------


def cli_check(games: dict[str, tuple[BaseGame, BaseGame]], folder: Path) -> Callable[[Any], None]:
    game = games["red-sun-rising"][0]
    copy_dir = folder / "game"
    shutil.copytree(game.game_dir, copy_dir)
    before = sorted((copy_dir / "turns").iterdir())

    def check(choice: tuple[str, str]) -> None:
        command, text = choice
        path = folder / "input.txt"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        args = {"receive": ["receive", str(copy_dir), str(path)],
                "orders-check": ["orders", "check", str(copy_dir), str(path)],
                "accept": ["accept", str(path), "--key", "nobody", "--dir", str(folder / "accepted")]}[command]
        out = CliRunner().invoke(main, args)
        if out.exception is not None and not isinstance(out.exception, SystemExit):
            raise AssertionError(f"traceback from {command}: {out.exception!r}") from out.exception
        if out.exit_code != 0:
            assert out.exit_code in (1, 2), out.output
            lines = out.output.strip().split("\n")
            assert len(lines) == 1 and lines[0].startswith("rsr: "), out.output
            assert sorted((copy_dir / "turns").iterdir()) == before

    return check


def test_fuzz_command_line(games: dict[str, tuple[BaseGame, BaseGame]], tmp_path: Path) -> None:
    texts = armored_texts(games) + ORDERS_BASES
    strategy = st.tuples(st.sampled_from(["receive", "orders-check", "accept"]),
                         st.one_of(mutated_text(texts, scalars=True), st.text(max_size=100)))
    run_property(strategy, cli_check(games, tmp_path), 15)


# -- the long run ----------------------------------------------------------------------------------------------


@pytest.mark.soak
@pytest.mark.usefixtures("duel_registered")
def test_fuzz_every_parser_long(games: dict[str, tuple[BaseGame, BaseGame]], tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    result, claim, attacker = claim_setup()
    run_property(claim_values(claim, result), claim_check(result, attacker), LONG)
    texts = armored_texts(games)
    run_property(st.one_of(mutated_text(texts), st.text(max_size=2000)), packet_armor_check(games), LONG)
    run_property(st.one_of(st.binary(max_size=2000), JSON_VALUES, packet_like()), signed_payload_check(games), LONG)
    run_property(field_changes(), replayed_field_check(games), LONG)
    (tmp_path / "orders").mkdir()
    run_property(orders_texts(), orders_check(games, tmp_path / "orders"), LONG)
    root = _scenario_copy(tmp_path)
    run_property(scenario_texts(root), scenario_check(root, monkeypatch), LONG // 10)
    scenario._CACHE.clear()
    (tmp_path / "cases").mkdir()
    run_property(case_texts(len(CASE_FILES)), case_check(tmp_path / "cases"), LONG // 2)
    (tmp_path / "cli").mkdir()
    cli_texts = texts + ORDERS_BASES
    run_property(st.tuples(st.sampled_from(["receive", "orders-check", "accept"]),
                           st.one_of(mutated_text(cli_texts, scalars=True), st.text(max_size=300))),
                 cli_check(games, tmp_path / "cli"), LONG // 5)

