"""The command line of a map generator: write the map YAML and its SVG preview, or check them."""

from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(root: Path, outputs: list[tuple[Path, str]], check: bool, summary: str,
                   notes: list[str]) -> int:
    """With ``check``: 1 if a written file differs from what the generator makes now (0 if none do); else
    write every file and print the summary and the builder's notes."""
    if check:
        stale = [p for p, text in outputs if not p.exists() or p.read_text(encoding="utf-8") != text]
        for p in stale:
            print(f"out of date: {p.relative_to(root)}", file=sys.stderr)
        return 1 if stale else 0
    for path, text in outputs:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print("wrote " + " and ".join(str(p.relative_to(root)) for p, _ in outputs))
    print(summary)
    for note in notes:
        print("note:", note)
    return 0


def refuse(failures: list[str]) -> int:
    """Named-hex or other hard failures of the build: print them, exit status 2."""
    print("\n".join(failures), file=sys.stderr)
    return 2


