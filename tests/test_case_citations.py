"""Every case the rules code cites carries its ruleset's prefix on every number, and the code names no issue:
a reader searching for a case with its prefix finds every place that implements it (tools/citations.py)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

from citations import cite, uncited  # noqa: E402


def test_every_cited_case_number_has_its_ruleset_prefix() -> None:
    found = {str(path.relative_to(REPO)): numbers for path, numbers in uncited().items()}
    assert found == {}, "run python tools/citations.py --fix"


def test_a_bare_number_after_the_first_is_found_and_prefixed() -> None:
    # (a made-up prefix, so that tools/coverage.py does not take this test for one of a real case)
    source = '"""Retreat (XYZ 1.62, 1.7; the end of a range 2.0-2.22 and 1.5x are left alone)."""\n# 3.43 here\n'
    fixed, bare = cite(source, "XYZ")
    assert bare == ["1.7", "2.0", "3.43"]
    assert "XYZ 1.62, XYZ 1.7" in fixed and "XYZ 2.0-2.22" in fixed and "1.5x" in fixed
    assert "# XYZ 3.43 here" in fixed
    assert cite(fixed, "XYZ")[1] == []


def test_the_code_names_no_issue() -> None:
    marked = [f"{path.relative_to(REPO)}:{number}" for path in sorted((REPO / "rsr").rglob("*.py"))
              for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if re.search(r"\bissue \d+", line)]
    assert marked == []
