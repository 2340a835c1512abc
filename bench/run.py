"""Benchmarks of issue 11, each figure against its target and the floor measured in the same run.

    make bench          (bench/.cache keeps the generated games; the first run makes them, which is slow)

The machines are shared and noisy: what matters are the ratios, each measured within one run; times
are the best of a few tries, in CPU time where the measurement runs in this process (the crypto floor,
reading, rules replay), in wall and CPU time for a command. Figures:

(a) start-up: ``rsr --help``, ``rsr dice roll`` and ``rsr status`` against ``python -c "import click"``;
(b) receive-and-resolve one packet at the end of logs of 10, 100 and 2,000 packets (wall, start-up included);
(c) ``rsr verify`` of a full bot-played game of each ruleset and of a 2,000-packet game against the crypto
    floor (Ed25519 + SHA-256 of every packet); reading, signatures and chain; rules replay and digests;
(d) peak memory of verify as the log grows (100 and 2,000 packets);
(e) the rules hot paths per game turn.

The 2,000-packet game is Red Sun/Red Star's July 1939 scenario with its last turn repeated to 820 turns
(bench data, written under bench/.cache, never shipped), played by the bots.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CACHE = REPO / "bench" / ".cache"
SCENARIOS = CACHE / "scenarios"
HOME = CACHE / "home"  # the rsr home of the timed commands (its scenario cache is warm after the first)
PYTHON = sys.executable
CLI = [PYTHON, str(REPO / "bench" / "rsr_cli.py")]
LONG_PACKETS = int(os.environ.get("RSR_BENCH_PACKETS", "2000"))  # smaller for a quick look at the bench itself
LONG_TURNS = 820 if LONG_PACKETS >= 2000 else max(11, LONG_PACKETS // 2)
RECEIVE_TIMEOUT = 60.0

from bench import targets  # noqa: E402  (after the path is set)

results: list[tuple[str, str, str, bool | None]] = []


def best_of(repeat: int, func: Callable[[], object]) -> float:
    """The least CPU time (this process, user + system) of ``repeat`` runs: on a machine shared with other
    work, wall time measures the other work as much as ours; CPU time much less so."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        func()
        times.append(time.process_time() - start)
    return min(times)


def record(name: str, figure: str, target: str, ok: bool | None) -> None:
    results.append((name, figure, target, ok))
    verdict = "" if ok is None else ("PASS" if ok else "FAIL")
    print(f"  {verdict:4} {name}: {figure}  [target: {target}]", flush=True)


def env(home: Path | None = None, rss: bool = False) -> dict[str, str]:
    out = dict(os.environ)
    out["RSR_HOME"] = str(home or HOME)
    out["RSR_BENCH_SCENARIOS"] = str(SCENARIOS)
    out.pop("RSR_BENCH_RSS", None)
    out.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules load from their compiled bytecode
    if rss:
        out["RSR_BENCH_RSS"] = "1"
    return out


LAST_CPU = [0.0]  # CPU seconds (user + system) of the last command ``run`` timed


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: list[str], environ: dict[str, str], timeout: float | None = None) -> tuple[float, str]:
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(args, env=environ, capture_output=True, text=True, timeout=timeout, check=False)
    elapsed = time.perf_counter() - start
    LAST_CPU[0] = _children_cpu() - cpu
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {proc.stderr.strip()[-400:]}")
    return elapsed, proc.stderr


def best_run(repeat: int, args: list[str], environ: dict[str, str]) -> float:
    return min(run(args, environ)[0] for _ in range(repeat))


# -- the games ------------------------------------------------------------------------------------------


def prepare_scenarios() -> dict[str, str]:
    """A fresh copy of scenarios/ plus the lengthened bench scenario; returns bench names."""
    from bench.games import lengthened

    if SCENARIOS.exists():
        shutil.rmtree(SCENARIOS)
    shutil.copytree(REPO / "scenarios", SCENARIOS)
    return {"long": lengthened(SCENARIOS, "red-star", "july-1939", LONG_TURNS)}


def game(ruleset_id: str, scenario: str, max_packets: int = 100_000) -> Path:
    """The cached bot game of ``scenario`` (made if missing or made by other rules)."""
    from bench.games import play
    from rsr.errors import RsrError
    from rsr.gamedir import load_log
    from rsr.log import replay
    from rsr.rulesets import get_ruleset
    from rsr.scenario import load_scenario

    version = get_ruleset(ruleset_id).version
    sha = load_scenario(ruleset_id, scenario).sha256[:12]
    folder = CACHE / "games" / f"{ruleset_id}-{scenario}-{version}-{sha}-{max_packets}"
    done = folder / "done"
    checked = folder / "checked-with"  # the code whose replay reached every signed digest of the game
    if done.exists():
        game_dir = Path(done.read_text().strip())
        stamp = code_stamp()
        try:
            if not (checked.exists() and checked.read_text() == stamp):
                # other code (rules changed or not): the whole game must still replay to its signed digests
                print(f"  (checking the cached {scenario} game against the current rules)", flush=True)
                replay(load_log(game_dir), keep_positions=False)
                checked.write_text(stamp)
            return game_dir
        except (RsrError, OSError) as exc:
            print(f"  (the cached {scenario} game no longer replays: {str(exc)[:120]}; playing it again)",
                  flush=True)
    if folder.exists():
        shutil.rmtree(folder)
    print(f"  (playing {scenario} with the bots, up to {max_packets} packets: first run only)", flush=True)
    start = time.perf_counter()
    os.environ["RSR_HOME"] = str(HOME)
    game_dir = play(folder, ruleset_id, scenario, max_packets)
    print(f"  (played {len(list((game_dir / 'turns').iterdir()))} packets in {time.perf_counter() - start:.0f} s)",
          flush=True)
    done.write_text(str(game_dir))
    checked.write_text(code_stamp())
    return game_dir


def code_stamp() -> str:
    """SHA-256 of rsr's source files: a cached game made or checked with other code is replayed in full once."""
    digest = hashlib.sha256()
    for path in sorted((REPO / "rsr").rglob("*.py")):
        digest.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def prefix(game_dir: Path, count: int, where: Path) -> Path:
    """A game directory holding the first ``count`` packets of ``game_dir``."""
    target = where / f"prefix-{count}" / game_dir.name
    (target / "turns").mkdir(parents=True)
    for path in sorted((game_dir / "turns").iterdir())[:count]:
        shutil.copy(path, target / "turns" / path.name)
    shutil.copy(game_dir / ".gitignore", target / ".gitignore")
    if count >= 2:  # as a player's directory holds it (else the next command writes it)
        from rsr.gamedir import load_log, write_game_yaml
        from rsr.log import replay

        write_game_yaml(target, replay(load_log(target)[:2]))
    (target / ".rsr.lock").touch()
    return target


def crypto_floor(game_dir: Path) -> float:
    """Ed25519 verification and SHA-256 of every packet's signed bytes: what no verifier can skip."""
    from rsr.gamedir import load_log
    from rsr.keys import verify_signature
    from rsr.packet import SIGN_PREFIX

    packets = load_log(game_dir)
    keys = {}
    for packet in packets[:2]:
        section = packet.payload.get("invite") or packet.payload.get("accept")
        from rsr.keys import decode_public

        keys.update({s: decode_public(t) for s, t in section["keys"].items()})
    signed = [(keys[p.side], p.signature, SIGN_PREFIX + p.payload_bytes, p.payload_bytes) for p in packets]

    def floor() -> None:
        for key, signature, message, payload in signed:
            hashlib.sha256(payload).digest()
            assert verify_signature(key, signature, message)

    return best_of(5, floor)


# -- (a) start-up ---------------------------------------------------------------------------------------


def bench_startup(small_game: Path) -> None:
    print("(a) start-up", flush=True)
    click_floor = best_run(7, [PYTHON, "-c", "import click"], env())
    rsr = [str(Path(PYTHON).parent / "rsr")]
    helped = best_run(7, rsr + ["--help"], env())
    record("rsr --help", f"{helped * 1e3:.0f} ms = {helped / click_floor:.2f} x python -c 'import click' "
           f"({click_floor * 1e3:.0f} ms)", "within 2x", helped <= 2 * click_floor)
    dice = rsr + ["dice", "roll", "--reveal", "00" * 32, "--game", "11" * 16, "--packet-hash", "22" * 32]
    rolled = best_run(7, dice, env())
    record("rsr dice roll", f"{rolled * 1e3:.0f} ms = {rolled / click_floor:.2f} x import click", "(figure only)",
           None)
    heavy = ("rich", "jsonschema", "yaml", "rsr.rulesets.red_star", "rsr.rulesets.red_sun_rising",
             "rsr.log", "rsr.gamedir")
    probe = ("import sys\nfrom rsr.cli import main\n"
             "for args in (['--help'], ['dice', 'roll', '--reveal', '00' * 32, '--game', '11' * 16, "
             "'--packet-hash', '22' * 32]):\n"
             "    try:\n        main(args)\n    except SystemExit:\n        pass\n"
             f"print([m for m in sys.modules if m.split('.')[0] in {heavy!r} or m in {heavy!r}])")
    proc = subprocess.run([PYTHON, "-c", probe], env=env(), capture_output=True, text=True, check=True)
    loaded = json.loads(proc.stdout.strip().splitlines()[-1].replace("'", '"'))
    record("modules imported by --help and dice roll", ", ".join(loaded) or "none of rich, jsonschema, yaml, rules",
           "none of them", not loaded)
    status = best_run(5, rsr + ["status", str(small_game)], env())
    packets = len(list((small_game / "turns").iterdir()))
    record(f"rsr status ({packets}-packet game, replays it)", f"{status * 1e3:.0f} ms = "
           f"{status / click_floor:.2f} x import click", "(figure only; phase 2: from the state cache)", None)


# -- (b) receive ----------------------------------------------------------------------------------------


def bench_receive(long_game: Path, tmp: Path) -> float | None:
    print("(b) receive-and-resolve one packet at the end of a log (wall, start-up included)", flush=True)
    from rsr.gamedir import load_log

    times: dict[int, float] = {}
    cpus: dict[int, float] = {}
    packets = load_log(long_game)
    longest = min(LONG_PACKETS, len(packets))
    for count in (10, 100, longest):
        base = prefix(long_game, count - 1, tmp / "receive")
        last = packets[count - 1]
        receiver = "soviet" if last.side == "japan" else "japan"
        home = tmp / f"home-{count}"
        shutil.copytree(long_game.parent / "homes" / receiver, home)
        (home / "cache").mkdir(exist_ok=True)
        if (HOME / "cache").exists():
            shutil.copytree(HOME / "cache", home / "cache", dirs_exist_ok=True)
        file = tmp / f"packet-{count}.rsr"
        file.write_text(last.armored())
        # as in play: the receiver's previous command (its own submit) left a checkpoint in its rsr home
        run(CLI + ["status", str(base)], env(home), timeout=RECEIVE_TIMEOUT)
        best = None
        cpu = float("inf")
        for attempt in range(3):
            work = tmp / f"work-{count}-{attempt}"
            shutil.copytree(base, work)
            try:
                elapsed, _ = run(CLI + ["receive", str(work), str(file)], env(home), timeout=RECEIVE_TIMEOUT)
                cpu = min(cpu, LAST_CPU[0])
            except subprocess.TimeoutExpired:
                elapsed = float("inf")
            best = elapsed if best is None else min(best, elapsed)
        assert best is not None
        times[count] = best
        cpus[count] = cpu
        shown = f"> {RECEIVE_TIMEOUT:.0f} s (stopped)" if best == float("inf") else \
            f"{best:.2f} s wall ({cpu:.2f} s CPU)"
        record(f"receive at {count} packets", shown, "under 0.3 s", best < 0.3)
    if 10 in times and longest in times:
        ratio = times[longest] / times[10]
        cpu_ratio = cpus[longest] / cpus[10]
        record(f"receive {longest} vs 10 packets", f"ratio {cpu_ratio:.2f} in CPU time ({ratio:.2f} in wall time)",
               "within 1.3x (flat), judged on CPU time", cpu_ratio <= 1.3)
        targets.target("1", f"receive by file, {longest} vs 10 packets", f"{cpus[longest]:.2f} s vs {cpus[10]:.2f} s "
                       f"CPU, ratio {cpu_ratio:.2f} (within 1.3)", cpu_ratio <= 1.3)
    return cpus.get(10)


# -- the demo -------------------------------------------------------------------------------------------


def bench_demo(tmp: Path) -> None:
    """``rsr demo --ruleset red-star --scenario july-1939``: a whole game by mail, every command in turn."""
    print("demo: a whole Red Sun/Red Star game between the bots, by mail", flush=True)
    home = tmp / "demo-home"
    home.mkdir()
    environ = env(home)
    environ.pop("RSR_BENCH_SCENARIOS", None)
    rsr = [str(Path(PYTHON).parent / "rsr")]
    elapsed, _ = run(rsr + ["demo", "--ruleset", "red-star", "--scenario", "july-1939", "--out", str(tmp / "demo")],
                     environ)
    packets = len(list(next((tmp / "demo" / "audit").glob("game-*")).glob("turns/*.rsr")))
    record(f"rsr demo --ruleset red-star --scenario july-1939 ({packets} packets)",
           f"{elapsed:.1f} s wall, {LAST_CPU[0]:.1f} s CPU", "under 6 s of CPU", LAST_CPU[0] < 6)
    targets.target("7", f"the July demo ({packets} packets)", f"{LAST_CPU[0]:.1f} s CPU, {elapsed:.1f} s wall "
                   "(under 6 s of CPU)", LAST_CPU[0] < 6)


# -- (c) verify and (d) memory --------------------------------------------------------------------------


def bench_verify(name: str, game_dir: Path, tmp: Path, target: bool) -> int | None:
    """``rsr verify`` wall against the crypto floor; returns peak memory in KiB."""
    count = len(list((game_dir / "turns").iterdir()))
    floor = crypto_floor(game_dir)
    warm = prefix(game_dir, 2, tmp / f"warm-{game_dir.parent.name}")
    run(CLI + ["verify", str(warm)], env())  # the scenario cache warm, as for a player's second command
    elapsed, err = run(CLI + ["verify", str(game_dir)], env(rss=True))
    rss = next((int(line.split()[1]) for line in err.splitlines() if line.startswith("maxrss")), None)
    record(f"rsr verify {name} ({count} packets)", f"{elapsed:.2f} s = {elapsed / floor:.0f} x the crypto floor "
           f"({floor * 1e3:.1f} ms); {elapsed / count * 1e3:.1f} ms a packet", "(figure; parts below)", None)
    if target:
        _verify_parts(game_dir, floor)
    return rss


def _verify_parts(game_dir: Path, floor: float) -> None:
    """Reading, signatures and chain (cold: nothing memoised) and rules replay with digests, in-process."""
    from rsr import packet as packet_module
    from rsr.gamedir import load_log
    from rsr.log import replay

    def cold_read() -> None:
        packet_module.forget_checks()
        load_log(game_dir)

    read = best_of(3, cold_read)
    packets = load_log(game_dir)
    replay(packets[:2])  # the scenario loaded
    rules = best_of(2, lambda: replay(packets, keep_positions=False))  # (signatures: checked while reading)
    count = len(packets)
    record("  reading, signatures and chain", f"{read * 1e3:.0f} ms = {read / floor:.1f} x the crypto floor",
           "within 1.5x", read <= 1.5 * floor)
    targets.target("4", f"verify's reading, signatures and chain, {len(load_log(game_dir))} packets",
                   f"{read * 1e3:.0f} ms = {read / floor:.2f}x the crypto floor ({floor * 1e3:.0f} ms) (within 1.5)",
                   read <= 1.5 * floor)
    record("  rules replay and digests", f"{rules / count * 1e3:.2f} ms a packet on average", "under 2 ms",
           rules / count < 0.002)


def bench_digest(short_game: Path, long_game: Path) -> None:
    """The state digest of one position with its scenario's turn track 820 turns long and cut to the 11 turns
    of the real scenario (the same position both times: once the digest became cheap, what differs between
    the positions of two games, such as a plan queued or a combat under way, moved the ratio of two
    different positions by a factor of two either way)."""
    from rsr.engine import deep_copy
    from rsr.gamedir import load_log
    from rsr.log import replay

    short = replay(load_log(short_game)[:2]).position.state
    result = replay(load_log(long_game)[:60])
    position, ruleset = result.position, result.ruleset
    cut = deep_copy(position)
    cut.state.turn_track, cut.state.dates = short.turn_track, short.dates
    assert len(position.state.turn_track) > 10 * len(cut.state.turn_track)
    assert cut.digest(ruleset) == position.digest(ruleset)  # (the digest does not cover the track)
    costs = [best_of(50, lambda p=p: p.digest(ruleset)) for p in (cut, position)]  # type: ignore[misc]
    ratio = costs[1] / costs[0]
    record(f"state digest, {len(position.state.turn_track)}-turn vs {len(cut.state.turn_track)}-turn track "
           "(one position)", f"{costs[1] * 1e3:.2f} ms vs {costs[0] * 1e3:.2f} ms, ratio {ratio:.2f}",
           "independent of the track's length (within 1.5x)", ratio <= 1.5)


def bench_memory(long_game: Path, tmp: Path, long_rss: int | None) -> None:
    print("(d) peak memory of rsr verify", flush=True)
    small = prefix(long_game, 100, tmp / "memory")
    _, err = run(CLI + ["verify", str(small)], env(rss=True))
    small_rss = next(int(line.split()[1]) for line in err.splitlines() if line.startswith("maxrss"))
    if long_rss is None:
        _, err = run(CLI + ["verify", str(long_game)], env(rss=True))
        long_rss = next(int(line.split()[1]) for line in err.splitlines() if line.startswith("maxrss"))
    ratio = long_rss / small_rss
    record(f"peak memory, {LONG_PACKETS} vs 100 packets", f"{long_rss / 1024:.0f} MiB vs {small_rss / 1024:.0f} MiB, "
           f"ratio {ratio:.2f}", "within 1.5x", ratio <= 1.5)


# -- (e) rules hot paths --------------------------------------------------------------------------------


def bench_hot_paths(name: str, game_dir: Path) -> None:
    """Where replay spends its time, per game turn: next_request, apply, the state copy, the digest."""
    from rsr import engine
    from rsr.gamedir import load_log
    from rsr.log import replay

    packets = load_log(game_dir)
    first = replay(packets[:2])
    ruleset = first.ruleset
    spent: dict[str, float] = {"next_request": 0.0, "apply": 0.0, "state copy": 0.0, "digest": 0.0}

    def timed(label: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                spent[label] += time.perf_counter() - start
        return wrapper

    cls = type(ruleset)
    saved = (cls.next_request, cls.apply, engine.Position.digest, engine.copy)
    engine_copy = types.SimpleNamespace(deepcopy=timed("state copy", copy.deepcopy))
    cls.next_request = timed("next_request", cls.next_request)  # type: ignore[method-assign]
    cls.apply = timed("apply", cls.apply)  # type: ignore[method-assign]
    engine.Position.digest = timed("digest", engine.Position.digest)  # type: ignore[method-assign]
    engine.copy = engine_copy  # type: ignore[attr-defined]
    try:
        start = time.perf_counter()
        result = replay(packets, keep_positions=False)
        total = time.perf_counter() - start
    finally:
        cls.next_request, cls.apply, engine.Position.digest, engine.copy = saved  # type: ignore[method-assign]
    turns = max(1, int(getattr(result.position.state, "turn", 1)) - int(getattr(first.position.state, "turn", 1)) + 1)
    parts = ", ".join(f"{label} {value / turns * 1e3:.1f}" for label, value in spent.items())
    record(f"rules hot paths, {name} ({turns} game turns, {len(packets)} packets)",
           f"{total / turns * 1e3:.0f} ms a game turn: {parts} (ms a turn)", "(figure only)", None)


def bench_dice() -> None:
    from rsr.fairdice import KeyedDice

    key = bytes(32)
    count = 20000

    def rolls() -> None:
        dice = KeyedDice(key)
        for _ in range(count):
            dice.roll(6, "bench")

    def bare() -> None:
        for n in range(count):
            hmac.new(key, n.to_bytes(8, "big"), hashlib.sha256).digest()

    keyed, raw = best_of(5, rolls), best_of(5, bare)
    record("dice: keyed d6 vs bare HMAC-SHA256", f"{keyed * 1e3:.0f} ms vs {raw * 1e3:.0f} ms for {count}, "
           f"ratio {keyed / raw:.2f}", "(figure only)", None)


def player_home(game_dir: Path, side: str, where: Path) -> dict[str, str]:
    """A copy of ``side``'s rsr home of the bench game ``game_dir``, with the bench's scenario cache."""
    shutil.copytree(game_dir.parent / "homes" / side, where)
    (where / "cache").mkdir(exist_ok=True)
    if (HOME / "cache").exists():
        shutil.copytree(HOME / "cache", where / "cache", dirs_exist_ok=True)
    return env(where)


def player_game(game_dir: Path, count: int | None, where: Path) -> tuple[Path, dict[str, str]]:
    """A copy of ``game_dir`` (its first ``count`` packets) with Japan's home: the game as a player has it."""
    copied = prefix(game_dir, count, where) if count else where / game_dir.name
    if not count:
        shutil.copytree(game_dir, copied)
    home = where / "home"
    shutil.copytree(game_dir.parent / "homes" / "japan", home)
    if (HOME / "cache").exists():
        shutil.copytree(HOME / "cache", home / "cache", dirs_exist_ok=True)
    return copied, env(home)


def main() -> None:
    started = time.perf_counter()
    CACHE.mkdir(parents=True, exist_ok=True)
    os.environ["RSR_HOME"] = str(HOME)
    names = prepare_scenarios()
    from bench.games import use_scenario_root

    use_scenario_root(SCENARIOS)
    print(f"load when started: {os.getloadavg()[0]:.1f} on {os.cpu_count()} processors", flush=True)
    print("games (bench/.cache)", flush=True)
    rsr_game = game("red-sun-rising", "liaoyang-turn-1904")
    star_game = game("red-star", "july-1939")
    long_game = game("red-star", names["long"], LONG_PACKETS)
    rsr = [str(Path(PYTHON).parent / "rsr")]
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        print("(c) rsr verify against the crypto floor (target 4)", flush=True)
        bench_verify("Red Sun Rising liaoyang-turn-1904", rsr_game, tmp, False)
        bench_verify("Red Sun/Red Star july-1939", star_game, tmp, False)
        bench_verify(f"Red Sun/Red Star july-1939 lengthened to {LONG_TURNS} turns", long_game, tmp, True)
        bench_digest(star_game, long_game)
        print("target 3: real play replayed", flush=True)
        targets.real_play("Red Sun/Red Star july-1939 played to its end", star_game, best_of)
        targets.real_play("Red Sun Rising liaoyang-turn-1904 (a land turn)", rsr_game, best_of)
        print("(e) rules hot paths", flush=True)
        bench_hot_paths("Red Sun Rising liaoyang-turn-1904", rsr_game)
        bench_hot_paths("Red Sun/Red Star july-1939", star_game)
        bench_dice()
        print("target 1: receive at the end of 10, 100 and the long game's packets", flush=True)
        receive_cpu = bench_receive(long_game, tmp)
        targets.mailbox_receives(CLI, long_game, (10, LONG_PACKETS), prefix, lambda side, where: player_home(
            long_game, side, where), tmp)
        print("target 5: start-up", flush=True)
        small = player_game(rsr_game, None, tmp / "small")
        targets.startup(rsr, PYTHON, small[1], ["status", str(small[0])],
                        (lambda: receive_cpu) if receive_cpu is not None else None)
        print("target 6: a folder of games on every core", flush=True)
        targets.club(rsr, [star_game, rsr_game], 8, env(), tmp)
        print("target 1: every player's command, 10 packets against the long game", flush=True)
        short = player_game(long_game, 10, tmp / "short")
        longer = player_game(long_game, None, tmp / "long")
        targets.flat_commands(CLI, short, longer, 5, tmp)
        print("target 2: peak memory", flush=True)
        hundred = prefix(long_game, 100, tmp / "memory")
        targets.flat_memory(CLI, hundred, longer[0], longer[1], tmp)
        bench_demo(tmp)
    passed = sum(1 for *_, ok in results if ok)
    failed = sum(1 for *_, ok in results if ok is False)
    print(f"\n{passed} issue 11 targets met, {failed} missed ({time.perf_counter() - started:.0f} s)")
    print(f"load when done: {os.getloadavg()[0]:.1f} on {os.cpu_count()} processors")
    targets.summary()


if __name__ == "__main__":
    main()
