"""Run the exchange fuzzer (tests/support/fuzz.py) over every scenario and print its figures.

    python tools/fuzz.py --games 20 --limit 60 --jobs 2 [--out DIR] [--scenario NAME]

One line per scenario: games, packets, fuzzed packets tried / refused before signing / signed, games that
went by mail, games played to their end, and the findings by kind (tracebacks, stalls, broken invariants,
verdict differences). Every finding is printed with its seed and the game folder that reproduces it (kept
under --out). Exit 1 if anything was found.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.fuzz import KINDS, Outcome, every_scenario, fuzz_game  # noqa: E402


def one(job: tuple[str, str, str, int, int]) -> Outcome:
    root, ruleset_id, scenario, seed, limit = job
    return fuzz_game(Path(root) / f"{scenario}-{seed}", ruleset_id, scenario, seed, limit)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per scenario")
    parser.add_argument("--limit", type=int, default=60, help="packets per game at most")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--scenario", action="append", help="only this scenario (repeatable)")
    parser.add_argument("--out", type=Path, help="keep the game folders here")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="rsr-fuzz-"))
    scenarios = [(r, s) for r, s in every_scenario() if not args.scenario or s in args.scenario]
    jobs = [(str(out), r, s, seed, args.limit) for r, s in scenarios
            for seed in range(args.first_seed, args.first_seed + args.games)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        outcomes = list(pool.map(one, jobs))
    print(f"{'scenario':<22} games packets tried refused signed mail ended " + " ".join(KINDS))
    found = 0
    for _ruleset, scenario in scenarios:
        mine = [o for o in outcomes if o.scenario == scenario]
        kinds = [sum(1 for o in mine for f in o.findings if f.kind == kind) for kind in KINDS]
        found += sum(kinds)
        print(f"{scenario:<22} {len(mine):5} {sum(o.packets for o in mine):7} "
              f"{sum(o.mutants_tried for o in mine):5} {sum(o.mutants_refused for o in mine):7} "
              f"{sum(o.mutants_signed for o in mine):6} {sum(o.by_mail for o in mine):4} "
              f"{sum(o.finished for o in mine):5} " + " ".join(f"{k:>{len(n)}}" for k, n in zip(kinds, KINDS,
                                                                                                strict=True)))
    for outcome in outcomes:
        for finding in outcome.findings:
            print(f"\n{finding.kind}: {finding.scenario} seed {finding.seed} packet {finding.seq} "
                  f"({finding.game_dir})\n{finding.detail}")
    print(f"\ngames kept in {out}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
