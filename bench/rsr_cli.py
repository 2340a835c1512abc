"""``rsr`` for the benchmarks: the real command line, with two additions for measuring.

* ``RSR_BENCH_SCENARIOS``: a folder used instead of the shipped scenarios/ (the lengthened bench
  scenarios live in a copy of it under bench/.cache);
* ``RSR_BENCH_RSS``: print ``maxrss <KiB>`` (the process's peak resident memory) on stderr at exit.
"""

from __future__ import annotations

import atexit
import os
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _report_rss() -> None:
    print(f"maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr)


if __name__ == "__main__":
    if os.environ.get("RSR_BENCH_SCENARIOS"):
        import rsr.scenario

        rsr.scenario.SCENARIO_ROOT = Path(os.environ["RSR_BENCH_SCENARIOS"])
    if os.environ.get("RSR_BENCH_RSS"):
        atexit.register(_report_rss)
    from rsr.cli import main

    main()
