"""The command line of a map generator: write the map YAML and its SVG preview, check them, or show the fit.

    python -m tools.rsr_map | tools.rs_map            # write the map YAML and the SVG preview
    python -m tools.rsr_map | tools.rs_map --check    # fail if the written files are not what the code makes
    python -m tools.rsr_map | tools.rs_map --fit      # show the fit and the shifted_lines comparison
    python -m tools.rsr_naval_map [--check]           # the same for the naval map (it has no --fit)

A map's entry point (tools/<map>/generate.py) is a :class:`Generator` over its geography file
(generate.py here makes one for each kind of map).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


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


@dataclass(frozen=True)
class Generator:
    """One map generator: a geography file and the functions of its kind of map (theatre or battlefield)
    that build the model, write the YAML, draw the preview, summarise and report the fit."""

    geo: ModuleType
    build: Callable[[ModuleType], Any]  # geo -> model (its .failures stop the generator, its .notes are printed)
    to_yaml: Callable[[Any, ModuleType], str]
    preview: Callable[[Any, ModuleType], str]
    summary: Callable[[Any], str]
    fit_report: Callable[[ModuleType], str] | None = None

    @property
    def map_yaml(self) -> Path:
        return ROOT / self.geo.MAP_YAML

    @property
    def map_svg(self) -> Path:
        return ROOT / self.geo.MAP_SVG

    def make(self) -> tuple[Any, str, str]:
        """The model, the map YAML and the SVG preview."""
        model = self.build(self.geo)
        return model, self.to_yaml(model, self.geo), self.preview(model, self.geo)

    def main(self, argv: Sequence[str] | None = None) -> int:
        ap = argparse.ArgumentParser(prog=f"python -m {self.geo.__name__.rsplit('.', 1)[0]}",
                                     description=f"Generate {self.geo.MAP_YAML} and its SVG preview.")
        ap.add_argument("--check", action="store_true", help="compare with the written files instead of writing")
        if self.fit_report is not None:
            ap.add_argument("--fit", "--compare-shifts", dest="fit", action="store_true",
                            help="print the fit to the rulebook's hexes and the shifted_lines comparison")
        args = ap.parse_args(argv)
        if self.fit_report is not None and args.fit:
            print(self.fit_report(self.geo))
            return 0
        model, yaml_text, svg_text = self.make()
        failures: list[str] = getattr(model, "failures", [])
        if failures:
            return refuse(failures)
        return write_or_check(ROOT, [(self.map_yaml, yaml_text), (self.map_svg, svg_text)], args.check,
                              self.summary(model), getattr(model, "notes", []))
