"""Benchmarks: ratios measured in one run (the machines are shared and noisy; absolute times vary).

    make bench

* dice: the cost of one keyed roll against one bare HMAC-SHA256 (rejection sampling and bookkeeping);
* replay: verifying a game (signatures, chain, reveals, every rule) against merely reading and
  signature-checking its packets, and against loading the scenario data it pins.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rsr import actions  # noqa: E402
from rsr.demo import run_demo  # noqa: E402
from rsr.fairdice import KeyedDice  # noqa: E402
from rsr.game import load_log, replay  # noqa: E402
from rsr.scenario import _load_scenario  # noqa: E402


def best_of(repeat: int, func: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_dice() -> None:
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
    print(f"dice: {count} d6 rolls {keyed * 1e3:.1f} ms; bare HMACs {raw * 1e3:.1f} ms; ratio {keyed / raw:.2f}")


def bench_replay(scenario: str = "liaoyang-1904") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RSR_HOME"] = str(Path(tmp) / "home")
        start = time.perf_counter()
        game_dir = run_demo(Path(tmp) / "demo", echo=lambda _: None, scenario=scenario)
        played = time.perf_counter() - start
        packets = load_log(game_dir)
        read = best_of(5, lambda: load_log(game_dir))
        verify = best_of(5, lambda: replay(load_log(game_dir)))
        load = best_of(3, lambda: _load_scenario("red-sun-rising", scenario, None))
        status = best_of(3, lambda: actions.status(game_dir, None))
        n = len(packets)
        print(f"{scenario}: {n} packets played in {played:.2f} s (bots, files, three verifications)")
        print(f"verify (cached scenario): {verify * 1e3:.1f} ms = {verify / read:.2f} x reading and checking "
              f"signatures ({read * 1e3:.1f} ms), {verify / n * 1e3:.2f} ms per packet")
        print(f"scenario load (YAML + schemas, uncached): {load * 1e3:.0f} ms = {load / verify:.1f} x a "
              f"cached verify")
        print(f"status command body: {status * 1e3:.1f} ms = {status / verify:.2f} x verify")


if __name__ == "__main__":
    bench_dice()
    for name in ("liaoyang-1904", "korea-1904", "liaoyang-turn-1904"):
        bench_replay(name)
