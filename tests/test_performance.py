"""What makes rsr fast without changing what it decides (issue 11, phase 1).

The scenario kept between processes is ignored when damaged; the C YAML loader reads exactly what the
strict pure-Python one reads and refuses the same things; the state digest does not cover the scenario's
fixed turn track (a longer track gives the same digests); lazy request options are the same options;
verify without positions reaches the same digests; the CLI starts without the heavy modules.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rsr.scenario as scenario_mod
from rsr.canonical import canonical_bytes, state_bytes
from rsr.engine import Request, initial_position
from rsr.errors import BadInput
from rsr.rulesets import get_ruleset, known_rulesets
from rsr.scenario import cache_dir, load_scenario, read_cached
from rsr.yamlio import dump_yaml, load_yaml_file, load_yaml_text

REPO = Path(__file__).resolve().parents[1]


def _fresh_load(ruleset: str, name: str) -> scenario_mod.Scenario:
    scenario_mod._CACHE.clear()
    return load_scenario(ruleset, name)


# -- the scenario cache ---------------------------------------------------------------------------------


def test_scenario_cache_entry_is_written_and_reused() -> None:
    first = _fresh_load("red-sun-rising", "liaoyang-1904")
    entries = list(cache_dir().glob("*.json"))
    assert len(entries) == 1
    found = read_cached(entries[0])
    assert found is not None and found == (first.data, first.sha256)
    again = _fresh_load("red-sun-rising", "liaoyang-1904")
    assert again.sha256 == first.sha256 and again.data == first.data
    assert list(again.data["scenario"]) == list(first.data["scenario"])  # the key order of the files is kept


@pytest.mark.parametrize("damage", ["flip", "truncate", "header", "empty"])
def test_a_corrupted_scenario_cache_entry_is_detected_and_ignored(damage: str) -> None:
    good = _fresh_load("red-star", "july-1939")
    entry = next(cache_dir().glob("*.json"))
    raw = entry.read_bytes()
    if damage == "flip":  # one changed byte in the data: a unit now starts elsewhere
        index = raw.index(b'"hex":"', raw.index(b"\n")) + 8
        raw = raw[:index] + (b"9" if raw[index:index + 1] != b"9" else b"8") + raw[index + 1:]
    elif damage == "truncate":
        raw = raw[: len(raw) // 2]
    elif damage == "header":
        raw = b"{not json\n" + raw.partition(b"\n")[2]
    else:
        raw = b""
    entry.write_bytes(raw)
    assert read_cached(entry) is None
    reloaded = _fresh_load("red-star", "july-1939")
    assert reloaded.sha256 == good.sha256 and reloaded.data == good.data
    assert read_cached(entry) is not None  # written anew


def test_a_changed_scenario_file_is_not_served_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _fresh_load("red-sun-rising", "liaoyang-1904")
    root = tmp_path / "scenarios"
    shutil.copytree(scenario_mod.SCENARIO_ROOT / "red-sun-rising", root / "red-sun-rising")
    monkeypatch.setattr(scenario_mod, "SCENARIO_ROOT", root)
    tables = root / "red-sun-rising" / "tables.yaml"
    tables.write_text(tables.read_text().replace('"3/1", "2/1"', '"3/1", "3/1"', 1))
    assert _fresh_load("red-sun-rising", "liaoyang-1904").sha256 != before.sha256


# -- YAML -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted((REPO / "scenarios").glob("*/*.yaml")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_c_loader_reads_every_scenario_file_as_the_pure_python_loader(path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import rsr.yamlstrict as strict

    if strict._CLoader is None:
        pytest.skip("PyYAML without libyaml")
    fast = load_yaml_file(path)
    monkeypatch.setattr(strict, "_CLoader", None)
    assert load_yaml_file(path) == fast


@pytest.mark.parametrize("c_loader", [True, False])
def test_strict_yaml_checks_hold_with_either_loader(c_loader: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    import rsr.yamlstrict as strict

    if c_loader and strict._CLoader is None:
        pytest.skip("PyYAML without libyaml")
    if not c_loader:
        monkeypatch.setattr(strict, "_CLoader", None)
    assert load_yaml_text("side: no\nmove: on\nok: true", "t") == {"side": "no", "move": "on", "ok": True}
    with pytest.raises(BadInput, match="orders.yaml: line 2: anchors and aliases are not allowed"):
        load_yaml_text("a: &x [1, 2]\nb: [*x, *x]", "orders.yaml")
    with pytest.raises(BadInput, match="orders.yaml: line 3: duplicate key 'inputs'"):
        load_yaml_text("inputs: []\nnote: x\ninputs: [1]\n", "orders.yaml")
    with pytest.raises(BadInput, match="nested deeper than 64"):
        load_yaml_text("[" * 70 + "]" * 70, "deep.yaml")
    with pytest.raises(BadInput, match="orders.yaml: line 1"):
        load_yaml_text("inputs: [", "orders.yaml")


# -- the state digest ------------------------------------------------------------------------------------


def test_state_bytes_are_rfc8785_for_state_data() -> None:
    ruleset = get_ruleset("red-star")
    position = initial_position(ruleset, load_scenario("red-star", "july-1939"), {})
    data = position.to_json(ruleset)
    assert state_bytes(data) == canonical_bytes(data)


def test_the_digest_does_not_cover_the_fixed_turn_track(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scenario hash pins the track; a track eight hundred turns long gives the same state digest."""
    ruleset = get_ruleset("red-star")
    short = initial_position(ruleset, load_scenario("red-star", "july-1939"), {})
    root = tmp_path / "scenarios"
    shutil.copytree(scenario_mod.SCENARIO_ROOT / "red-star", root / "red-star")
    spec = load_yaml_file(root / "red-star" / "july-1939.yaml")
    last = spec["turns"][-1]
    spec["turns"] += [{**json.loads(json.dumps(last)), "date": f"day {n}", "reinforcements": []}
                      for n in range(800)]
    spec["id"] = "july-1939-long"
    (root / "red-star" / "july-1939-long.yaml").write_text(dump_yaml(spec))
    monkeypatch.setattr(scenario_mod, "SCENARIO_ROOT", root)
    scenario = load_scenario("red-star", "july-1939-long")
    long = initial_position(ruleset, scenario, {})
    assert len(long.state.turn_track) == len(short.state.turn_track) + 800
    assert long.digest(ruleset) == short.digest(ruleset)
    assert "turn_track" not in ruleset.state_json(long.state)


# -- requests ---------------------------------------------------------------------------------------------


def test_lazy_options_are_built_once_and_read_as_values() -> None:
    calls: list[int] = []

    def options() -> dict[str, list[int]]:
        calls.append(1)
        return {"lanes": [1, 2]}

    lazy = Request("r1", "attacker", "lane", "pick", "TEST 1", options=options, template=lambda: {"lane": 1})
    assert calls == []
    assert lazy.options == {"lanes": [1, 2]} and lazy.options == {"lanes": [1, 2]} and calls == [1]
    assert lazy == Request("r1", "attacker", "lane", "pick", "TEST 1", {"lanes": [1, 2]}, {"lane": 1})
    assert Request("r2", "a", "k", "p", "c").options == {}


def test_lazy_options_are_the_options_of_the_state_asked_about() -> None:
    """The options a request shows are those of the state next_request saw, also when read later."""
    import copy

    ruleset = get_ruleset("red-star")
    state = initial_position(ruleset, load_scenario("red-star", "july-1939"), {}).state
    request = ruleset.next_request(state)
    assert request is not None
    eager = ruleset.next_request(copy.deepcopy(state))
    assert eager is not None
    assert (request.options, request.template) == (eager.options, eager.template)


# -- verify ------------------------------------------------------------------------------------------------


def test_verify_without_positions_reaches_the_same_digests(tmp_path: Path) -> None:
    from rsr.demo import run_demo
    from rsr.gamedir import load_log
    from rsr.log import replay

    game_dir = run_demo(tmp_path / "demo", echo=lambda _: None)
    packets = load_log(game_dir)
    full = replay(packets)
    light = replay(packets, keep_positions=False)
    assert [p.state_hash for p in light.passes] == [p.state_hash for p in full.passes]
    assert all(p.position is None for p in light.passes[:-1]) and light.passes[-1].position is not None
    assert light.position.digest(light.ruleset) == full.position.digest(full.ruleset)


# -- start-up and structure ------------------------------------------------------------------------------


def test_help_and_dice_roll_import_no_rules_rich_jsonschema_or_yaml() -> None:
    probe = (
        "import sys\nfrom rsr.cli import main\n"
        "for args in (['--help'], ['dice', 'roll', '--reveal', '00' * 32, '--game', '11' * 16,"
        " '--packet-hash', '22' * 32]):\n"
        "    try:\n        main(args)\n    except SystemExit:\n        pass\n"
        "heavy = ('rich', 'jsonschema', 'yaml', 'rsr.rulesets.red_star', 'rsr.rulesets.red_sun_rising',"
        " 'rsr.log', 'rsr.gamedir', 'rsr.engine')\n"
        "print('LOADED', sorted(m for m in sys.modules if m in heavy or m.split('.')[0] in heavy))\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO)
    assert run.stdout.strip().splitlines()[-1] == "LOADED []"


def test_the_engine_does_not_import_the_rulesets() -> None:
    probe = ("import sys, rsr.engine, rsr.log, rsr.gamedir\n"
             "print(sorted(m for m in sys.modules if m.startswith('rsr.rulesets')))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO)
    assert run.stdout.strip() == "['rsr.rulesets']"  # the registry only: no ruleset until one is asked for


def test_unknown_ruleset_names_the_known_ones() -> None:
    assert known_rulesets()[:2] == ["red-star", "red-sun-rising"]
    with pytest.raises(BadInput, match="unknown ruleset 'chess' \\(known: red-star, red-sun-rising"):
        get_ruleset("chess")


@pytest.mark.parametrize("path", sorted((REPO / "schemas").glob("*.schema.json")), ids=lambda p: p.name)
def test_every_shipped_schema_is_valid_against_its_meta_schema(path: Path) -> None:
    """rsr.schemas does not check its schemas at run time (start-up); this test does."""
    import jsonschema

    schema = json.loads(path.read_text())
    jsonschema.validators.validator_for(schema).check_schema(schema)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**60), max_value=2**60) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_json_values)
def test_the_fast_canonical_check_agrees_with_rfc8785(value: object) -> None:
    """strict_loads accepts exactly the RFC 8785 bytes of a value, with or without the C-encoder shortcut."""
    import rfc8785

    from rsr.canonical import strict_loads

    try:
        canonical = rfc8785.dumps(value)
    except rfc8785.IntegerDomainError:
        with pytest.raises(BadInput):
            strict_loads(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())
        return
    assert strict_loads(canonical) == value
    loose = json.dumps(value, sort_keys=False, separators=(", ", ": ")).encode()
    if loose != canonical:
        with pytest.raises(BadInput, match="canonical"):
            strict_loads(loose)


@functools.cache
def _sample_payloads() -> list[dict[str, object]]:
    from rsr.keys import KeyPair
    from rsr.log import accept_packet, invite_packet

    ruleset = get_ruleset("red-sun-rising")
    scenario = load_scenario("red-sun-rising", "liaoyang-1904")
    alice, bob = KeyPair("alice", bytes(32)), KeyPair("bob", bytes(range(32)))
    invite = invite_packet(ruleset, scenario, alice, "russia", "Alice", bytes(16), None, {}, nonce=bytes([1]) * 32,
                           time="2026-12-01T12:00:00Z")
    accept = accept_packet(invite, bob, "Bob", [{"request": "t7/russia/combat/r1/attacks", "answer": {"attacks": []}}],
                           nonce=bytes([2]) * 32, time="2026-12-01T12:00:00Z", message="good luck")
    later = {"v": 1, "game": "00" * 16, "seq": 2, "side": "russia", "prev": "ab" * 32, "commit": "cd" * 32,
             "reveal": "ef" * 32, "resolution": {"state": "01" * 32, "dice": [{"n": 0, "sides": 6, "value": 3,
                                                                               "purpose": "RSR 11.4"}]},
             "inputs": [{"request": "t7/x", "sealed": "12" * 32}, {"unseal": "t7/x", "salt": "aa" * 16, "choice": 1},
                        {"policy": "retreat", "rule": "ask"}]}
    return [invite.payload, accept.payload, later]


_MUTANTS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-3, max_value=2**21), st.text(max_size=70),
    st.sampled_from(["ab" * 32, "AB" * 32, "ab" * 32 + "\n", "russia", "Russia", "x" * 300, "aa" * 16]),
    st.lists(st.integers(), max_size=2), st.dictionaries(st.sampled_from(["request", "answer", "sealed", "x"]),
                                                          st.integers(), max_size=3),
)


def _paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, prefix + (index,))
    return found


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_the_compiled_packet_schema_never_accepts_what_jsonschema_refuses(data: st.DataObject) -> None:
    """fastjsonschema may only speed up "valid": on mutated packets, what it accepts jsonschema accepts.

    (It refuses a little more: a hash with a trailing newline, which Python's ``$`` and so jsonschema let
    through; those go to jsonschema, which decides as before.)"""
    import copy

    from rsr import schemas

    if schemas._fast_validator("packet") is None:
        pytest.skip("fastjsonschema is not installed")
    payload = copy.deepcopy(data.draw(st.sampled_from(_sample_payloads())))
    for _ in range(data.draw(st.integers(min_value=0, max_value=3))):
        path = data.draw(st.sampled_from(_paths(payload)[1:]))
        parent: object = payload
        for step in path[:-1]:
            parent = parent[step]  # type: ignore[index]
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[data.draw(st.sampled_from(["extra", "reveal", "invite", "accept", "resolution"]))] = \
                data.draw(_MUTANTS)
        else:
            parent[path[-1]] = data.draw(_MUTANTS)  # type: ignore[index]
    reference = not list(schemas._validator("packet").iter_errors(payload))
    if schemas._fast_accepts("packet", payload):
        assert reference, "the compiled schema accepted a payload jsonschema refuses"


def test_the_compiled_packet_schema_accepts_real_packets() -> None:
    from rsr import schemas

    if schemas._fast_validator("packet") is None:
        pytest.skip("fastjsonschema is not installed")
    assert all(schemas._fast_accepts("packet", payload) for payload in _sample_payloads())
