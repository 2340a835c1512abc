"""The targets of issue 24, each a ratio measured within one ``make bench`` run, with PASS or FAIL.

How each figure is taken (docs/performance.md says why):

* a command's cost is its **CPU time** (user + system of the exec'd child, from ``wait4``), the least of a
  few runs: on a machine shared with other work, wall time measures the other work as much as ours;
* a **peak memory** is the command's own ``ru_maxrss``, read by ``/usr/bin/time -f %M`` around an exec'd
  child: a child forked from the bench inherits the bench's memory into its peak (the fault of issue 11's
  figure), while ``/usr/bin/time`` is a small process whose fork is small;
* a speed-up on every core (target 6) is **wall time**, one pool against one process, in the same run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TARGETS: list[tuple[str, str, str, bool]] = []  # (target, what, figure, passed)


def target(number: str, what: str, figure: str, passed: bool) -> None:
    TARGETS.append((number, what, figure, passed))
    print(f"  {'PASS' if passed else 'FAIL'} target {number}: {what}: {figure}", flush=True)


def cpu_of(args: list[str], environ: dict[str, str], timeout: float = 600.0) -> float:
    """CPU seconds (user + system) of one run of ``args`` (its children included); raises if it fails."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(args, env=environ, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                raise RuntimeError(f"{' '.join(args)}: stopped after {timeout:.0f} s")
            time.sleep(0.005)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(args)} failed ({proc.returncode}): {err.read().decode()[-300:]}")
    return usage.ru_utime + usage.ru_stime


def best_cpu(repeat: int, args: list[str], environ: dict[str, str], prepare: Callable[[], Any] | None = None
             ) -> float:
    best = float("inf")
    for _ in range(repeat):
        if prepare is not None:
            prepare()
        best = min(best, cpu_of(args, environ))
    return best


def peak_kib(args: list[str], environ: dict[str, str]) -> int:
    """The command's own peak resident memory in KiB (``/usr/bin/time -f %M`` around it)."""
    proc = subprocess.run(["/usr/bin/time", "-f", "peak %M", *args], env=environ, capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {proc.stderr[-300:]}")
    return int(next(line for line in proc.stderr.splitlines() if line.startswith("peak ")).split()[1])


def wall_of(args: list[str], environ: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(args, env=environ, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {proc.stdout[-300:]} {proc.stderr[-300:]}")
    return time.perf_counter() - start


# -- target 1: commands flat in the game's length --------------------------------------------------------


def player_commands(game_dir: Path, old_seq: int, out: Path) -> dict[str, list[str]]:
    """The commands a player runs on a game, by name (``old_seq`` an early resolved packet)."""
    g, s = str(game_dir), str(old_seq)
    return {
        "status": ["status", g],
        "report (latest)": ["report", g],
        f"report {s}": ["report", g, s],
        f"report {s} --format md": ["report", g, s, "--format", "md"],
        f"report {s} --html": ["report", g, s, "--html", "--out", str(out / "r.html")],
        f"replay --seq {s}": ["replay", g, "--seq", s],
        f"dice show {s}": ["dice", "show", g, s],
        f"map {s}": ["map", g, s, "--out", str(out / "m.svg")],
        "orders template": ["orders", "template", g],
        "inbox (the game's folder)": ["inbox", str(game_dir.parent)],
        "mail (my latest packet's email)": ["mail", g],
    }


def flat_commands(cli: list[str], short: tuple[Path, dict[str, str]], long: tuple[Path, dict[str, str]],
                  old_seq: int, tmp: Path, repeat: int = 3) -> None:
    """Each command at the end of the short game and of the long one, in CPU time; ratio within 1.3x.
    Each command runs once first: a player's previous command left its checkpoint in the rsr home."""
    (tmp / "out").mkdir(exist_ok=True)
    names = player_commands(short[0], old_seq, tmp / "out")
    for name in names:
        costs = []
        for game_dir, environ in (short, long):
            args = cli + player_commands(game_dir, old_seq, tmp / "out")[name]
            try:
                cpu_of(args, environ)
                costs.append(best_cpu(repeat, args, environ))
            except RuntimeError as exc:
                costs.append(float("nan"))
                print(f"    ({name}: {str(exc)[:200]})", flush=True)
        ratio = costs[1] / costs[0]
        target("1", f"{name}, {count(long[0])} vs {count(short[0])} packets",
               f"{costs[1]:.2f} s vs {costs[0]:.2f} s CPU, ratio {ratio:.2f} (within 1.3)", ratio <= 1.3)


def _packet_email(armored: str, sender: str) -> bytes:
    """A plain email carrying one armored packet, as a player's mail client keeps it."""
    return (f"From: {sender}@example.org\nTo: opponent@example.org\nSubject: rsr packet\n"
            f"Date: Wed, 02 Dec 2026 12:00:00 +0000\nMessage-ID: <bench-{sender}@example.org>\n\n"
            f"{armored}\n").encode()


def _mailbox(kind: str, message: bytes, where: Path) -> Path:
    """A Maildir (the message in new/) or an mbox file holding ``message``."""
    if kind == "maildir":
        for sub in ("cur", "new", "tmp"):
            (where / sub).mkdir(parents=True, exist_ok=True)
        (where / "new" / "1.bench").write_bytes(message)
        return where
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_bytes(b"From bench@example.org Wed Dec  2 12:00:00 2026\n" + message + b"\n")
    return where


def mailbox_receives(cli: list[str], long_game: Path, counts: tuple[int, int],
                     prefix: Callable[[Path, int, Path], Path], home_of: Callable[[str, Path], dict[str, str]],
                     tmp: Path, repeat: int = 3) -> None:
    """``receive --maildir`` and ``receive --mbox`` of the last packet at the end of the short and the long game,
    in CPU time (the receiver's previous command left its checkpoint, as in play); ratio within 1.3x."""
    from rsr.gamedir import load_log

    packets = load_log(long_game)
    for kind in ("maildir", "mbox"):
        costs: list[float] = []
        for count in counts:
            base = prefix(long_game, count - 1, tmp / f"{kind}-receive")
            last = packets[count - 1]
            receiver = "soviet" if last.side == "japan" else "japan"
            environ = home_of(receiver, tmp / f"{kind}-home-{count}")
            message = _packet_email(last.armored(), last.side)
            try:
                cpu_of(cli + ["status", str(base)], environ)
                best = float("inf")
                for attempt in range(repeat):
                    work = tmp / f"{kind}-work-{count}-{attempt}"
                    shutil.copytree(base, work)
                    box = _mailbox(kind, message, tmp / f"{kind}-box-{count}-{attempt}" / ("mail" if kind ==
                                                                                              "maildir" else "mbox"))
                    best = min(best, cpu_of(cli + ["receive", str(work), f"--{kind}", str(box)], environ))
                    if len(list((work / "turns").glob("*.rsr"))) != count:
                        raise RuntimeError(f"receive --{kind} did not take in packet {count - 1}")
                costs.append(best)
            except RuntimeError as exc:
                costs.append(float("nan"))
                print(f"    (receive --{kind}: {str(exc)[:200]})", flush=True)
        ratio = costs[1] / costs[0]
        target("1", f"receive --{kind}, {counts[1]} vs {counts[0]} packets",
               f"{costs[1]:.2f} s vs {costs[0]:.2f} s CPU, ratio {ratio:.2f} (within 1.3)", ratio <= 1.3)


def count(game_dir: Path) -> int:
    return sum(1 for p in (game_dir / "turns").iterdir() if p.suffix == ".rsr")


# -- target 2: peak memory ------------------------------------------------------------------------------


def flat_memory(cli: list[str], small: Path, large: Path, environ: dict[str, str], tmp: Path) -> None:
    for name, extra in (("verify", []), ("report --all --html", ["--all", "--html"])):
        peaks = []
        for game_dir in (small, large):
            if name == "verify":
                args = cli + ["verify", str(game_dir)]
            else:
                out = tmp / f"all-{count(game_dir)}"
                shutil.rmtree(out, ignore_errors=True)
                args = cli + ["report", str(game_dir), *extra, "--out", str(out)]
            try:
                peaks.append(peak_kib(args, environ))
            except RuntimeError as exc:
                print(f"    ({name}: {str(exc)[:200]})", flush=True)
                peaks.append(0)
        ratio = peaks[1] / peaks[0] if peaks[0] else float("nan")
        target("2", f"peak memory of {name}, {count(large)} vs {count(small)} packets",
               f"{peaks[1] / 1024:.0f} MiB vs {peaks[0] / 1024:.0f} MiB, ratio {ratio:.2f} (within 1.2)",
               ratio <= 1.2)


# -- target 3: real play replayed -----------------------------------------------------------------------


def real_play(name: str, game_dir: Path, best_of: Callable[[int, Callable[[], object]], float]) -> None:
    """Rules replay and digests of a bot-played game (every packet real play), per packet, in-process CPU;
    and the state copy plus the digest alone, timed inside the same replay."""
    from rsr import engine
    from rsr.gamedir import load_log
    from rsr.log import replay

    packets = load_log(game_dir)
    replay(packets[:2])  # the scenario loaded
    whole = best_of(2, lambda: replay(packets, keep_positions=False))
    spent = [0.0]
    saved = (engine.Position.digest, engine.deep_copy)

    def timed(func: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return func(*args, **kwargs)
            finally:
                spent[0] += time.process_time() - start
        return wrapper

    engine.Position.digest = timed(engine.Position.digest)  # type: ignore[method-assign]
    engine.deep_copy = timed(engine.deep_copy)
    try:
        replay(packets, keep_positions=False)
    finally:
        engine.Position.digest, engine.deep_copy = saved  # type: ignore[method-assign]
    per = whole / len(packets) * 1e3
    target("3", f"rules replay and digests of real play, {name} ({len(packets)} packets)",
           f"{per:.2f} ms a packet (under 3)", per < 3)
    part = spent[0] / len(packets) * 1e3
    target("3", f"state copy and digest, {name}", f"{part:.2f} ms a packet (under 0.5)", part < 0.5)


# -- target 5: start-up ---------------------------------------------------------------------------------


def every_help(rsr: list[str]) -> list[list[str]]:
    """``rsr --help`` and ``--help`` of every command and sub-command."""
    import click

    from rsr.cli import main

    found: list[list[str]] = [[]]

    def walk(group: click.Group, path: list[str]) -> None:
        for name, command in sorted(group.commands.items()):
            found.append(path + [name])
            if isinstance(command, click.Group):
                walk(command, path + [name])

    walk(main, [])
    return [rsr + path + ["--help"] for path in found]


def startup(rsr: list[str], python: str, environ: dict[str, str], status_args: list[str],
            receive: Callable[[], float] | None) -> None:
    floor = best_cpu(7, [python, "-c", "import click"], environ)
    helps = every_help(rsr)
    worst = max((best_cpu(3, args, environ), " ".join(args[1:])) for args in helps)
    target("5", f"--help of all {len(helps)} commands against import click ({floor * 1e3:.0f} ms CPU)",
           f"slowest `rsr {worst[1]}` {worst[0] / floor:.2f}x (within 1.5)", worst[0] <= 1.5 * floor)
    for name, args in (("scenarios", ["scenarios"]),
                       ("dice roll", ["dice", "roll", "--reveal", "00" * 32, "--game", "11" * 16,
                                      "--packet-hash", "22" * 32])):
        cost = best_cpu(7, rsr + args, environ)
        target("5", f"rsr {name}", f"{cost / floor:.2f}x import click (within 1.5)", cost <= 1.5 * floor)
    cpu_of(rsr + status_args, environ)
    cost = best_cpu(5, rsr + status_args, environ)
    target("5", "rsr status", f"{cost / floor:.2f}x import click (within 3)", cost <= 3 * floor)
    if receive is not None:
        cost = receive()
        target("5", "rsr receive (one packet, 10-packet game)", f"{cost / floor:.2f}x import click (within 3)",
               cost <= 3 * floor)


# -- target 6: a club's games on every core -------------------------------------------------------------


def club(rsr: list[str], games: list[Path], copies: int, environ: dict[str, str], tmp: Path) -> None:
    """``rsr verify FOLDER`` of ``copies`` games: one worker against one per processor, in wall time."""
    from rsr.club import cores

    folder = tmp / "club"
    folder.mkdir()
    for n in range(copies):
        source = games[n % len(games)]
        shutil.copytree(source, folder / f"{n:03d}-{source.name}")
    workers = cores()
    one = min(wall_of(rsr + ["verify", str(folder), "--jobs", "1"], environ) for _ in range(2))
    every = min(wall_of(rsr + ["verify", str(folder), "--jobs", str(workers)], environ) for _ in range(2))
    speedup = one / every
    goal = 0.9 * workers
    target("6", f"rsr verify of a folder of {copies} games, {workers} workers vs 1",
           f"{one:.1f} s vs {every:.1f} s wall, {speedup:.2f}x (at least {goal:.1f}; the machine's other load "
           f"counts here)", speedup >= goal)


def summary() -> None:
    passed = sum(1 for *_, ok in TARGETS if ok)
    print(f"\nissue 24 targets: {passed} of {len(TARGETS)} figures PASS", flush=True)
    for number, what, figure, ok in TARGETS:
        print(f"  {'PASS' if ok else 'FAIL'} {number}. {what}: {figure}")
