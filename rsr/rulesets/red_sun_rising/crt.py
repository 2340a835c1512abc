"""The Land Combat Results Table (RSR 11.57) and the odds that index it (RSR 11.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rsr.errors import BadInput
from rsr.provenance import is_provisional

COLUMNS = ("1-3", "1-2", "1-1", "2-1", "3-1", "4-1")


@dataclass(frozen=True)
class Cell:
    """One result: attacker and defender step losses, and where the cell comes from."""

    attacker: int
    defender: int
    text: str
    provenance: str

    @property
    def provisional(self) -> bool:
        return is_provisional(self.provenance)


@dataclass(frozen=True)
class LandCrt:
    cells: dict[tuple[int, str], Cell]
    die_low: int
    die_high: int
    below_lowest: Cell

    def lookup(self, die: int, column: str) -> Cell:
        """RSR 11.57: the modified die is read as 0 below 0 and as 6 above 6."""
        row = min(max(die, self.die_low), self.die_high)
        return self.cells[(row, column)]


def parse_result(text: str) -> tuple[int, int]:
    """``"2/1"`` -> (2, 1); ``"-"`` is no loss."""
    try:
        att, dfn = text.split("/")
        return (0 if att == "-" else int(att)), (0 if dfn == "-" else int(dfn))
    except ValueError as exc:
        raise BadInput(f"CRT result {text!r} is not of the form A/D") from exc


def load_crt(table: dict[str, Any]) -> LandCrt:
    columns = table["columns"]
    if tuple(columns) != COLUMNS:
        raise BadInput(f"land_crt.columns must be {list(COLUMNS)}")
    cells: dict[tuple[int, str], Cell] = {}
    for row in table["cells"]:
        provenance = row["provenance"]
        marks = provenance if isinstance(provenance, list) else [provenance] * len(columns)
        if len(row["results"]) != len(columns) or len(marks) != len(columns):
            raise BadInput(f"land_crt row {row['die']}: one result and one provenance per column")
        for column, text, mark in zip(columns, row["results"], marks, strict=True):
            att, dfn = parse_result(text)
            cells[(row["die"], column)] = Cell(att, dfn, text, mark)
    low, high = table["die_range"]
    missing = [(d, c) for d in range(low, high + 1) for c in columns if (d, c) not in cells]
    if missing:
        raise BadInput(f"land_crt lacks cells {missing[:3]}")
    att, dfn = parse_result(table["below_lowest"])
    return LandCrt(cells, low, high, Cell(att, dfn, table["below_lowest"], "rulebook: 11.57"))


def odds_column(attack: int, defence: int) -> str | None:
    """RSR 11.2 / RSR 11.57: the ratio column, rounded in the defender's favour; None below 1-3.

    Above 4-1 reads as 4-1. Rounding in the defender's favour is our reading (interpretations.md, RSR 11.2).
    """
    if defence <= 0:
        return "4-1"
    if attack >= defence:
        return f"{min(attack // defence, 4)}-1"
    if attack <= 0:
        return None
    ratio = -(-defence // attack)  # ceiling
    return f"1-{ratio}" if ratio <= 3 else None
