"""A non-editable install works outside the checkout (issue 10, "Install and first run").

The wheel is built from the repository, installed into a fresh virtual environment in a temporary folder,
and ``rsr demo`` is played for both rulesets from an empty directory. The scenario data and the schemas
must come from the installed package: the test checks that the package and its data live in the new
environment, and nothing is read from the source tree.

To stay fast and work offline once built, the new environment gets rsr with ``--no-deps`` and borrows the
already installed dependencies of the test environment through a ``.pth`` line (a plain path entry: the
checkout's editable hook there is not run).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: int = 600) -> str:
    run = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert run.returncode == 0, f"{' '.join(args)} failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return run.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A fresh venv outside the checkout with the built wheel installed; returns (bin folder, env)."""
    root = tmp_path_factory.mktemp("install")
    assert REPO not in root.parents
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    source = root / "source"  # built from a copy: nothing is written into the checkout, no stale build/ is used
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "demo", "*.egg-info", "__pycache__", ".*_cache"))
    wheels = root / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(source)], root, env)
    wheel = next(wheels.glob("rsr-*.whl"))
    target = root / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(target)
    bindir = target / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    purelib = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                        root, env).strip())
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--quiet", str(wheel)],
         root, env)
    (purelib / "zz-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env["PATH"] = str(bindir) + os.pathsep + env.get("PATH", "")
    env["RSR_HOME"] = str(root / "rsr-home")
    return bindir, env


def test_installed_package_and_data_live_in_the_new_environment(installed: tuple[Path, dict[str, str]],
                                                                tmp_path: Path) -> None:
    bindir, env = installed
    venv_root = bindir.parent.resolve()
    out = _run([str(bindir / "python"), "-c",
                "import rsr, rsr.scenario as s, rsr.schemas as c; print(rsr.__file__); "
                "print(s.SCENARIO_ROOT); print(c.SCHEMA_DIR); print(s.available('red-star'))"], tmp_path, env)
    lines = out.splitlines()
    for line in lines[:3]:
        path = Path(line).resolve()
        assert venv_root in path.parents, f"{path} is not inside the installed environment"
        assert REPO not in path.parents
    assert "july-1939-contact" in lines[3]


@pytest.mark.parametrize("args", [[], ["--ruleset", "red-star", "--scenario", "july-1939-contact"]],
                         ids=["red-sun-rising", "red-star"])
def test_installed_rsr_plays_the_demo_from_an_empty_directory(installed: tuple[Path, dict[str, str]],
                                                              tmp_path: Path, args: list[str]) -> None:
    bindir, env = installed
    empty = tmp_path / "empty"
    empty.mkdir()
    out = _run([str(bindir / "rsr"), "demo", *args], empty, env)
    assert "the game is over and every die is public" in out
    audit = next((empty / "demo" / "audit").glob("game-*"))
    verified = _run([str(bindir / "rsr"), "verify", str(audit)], empty, env)
    assert verified.startswith("verified:")
    _check_receive_summary(bindir, env, empty / "demo", tmp_path / "receive")


def _check_receive_summary(bindir: Path, env: dict[str, str], demo: Path, work: Path) -> None:
    """The installed rsr, in the home of the player who receives the demo's packets from the last one
    backwards, prints the summary: their dice made public and the report that holds their results."""
    turns = sorted(next(demo.glob("players/alice/games/game-*")).joinpath("turns").iterdir())
    alice_side = turns[0].name.split("-")[1]
    for seq in range(len(turns) - 1, 2, -1):
        author_side = turns[seq].name.split("-")[1]
        recipient = "bob" if author_side == alice_side else "alice"
        game = work / str(seq) / "game"
        (game / "turns").mkdir(parents=True)
        for path in turns[:seq]:
            shutil.copy(path, game / "turns" / path.name)
        home_env = {**env, "RSR_HOME": str(demo / "players" / recipient / "rsr-home")}
        out = _run([str(bindir / "rsr"), "receive", str(game), str(turns[seq])], work, home_env)
        assert f"received packet {seq} ({author_side})" in out
        if "your dice, now public:" in out:
            report = re.search(r"report: (reports/\S+\.md)", out)
            assert report and (game / report.group(1)).is_file(), out
            assert re.search(r"^now: ", out, re.MULTILINE), out
            return
    raise AssertionError("no packet of the demo made the recipient's dice public")


def test_every_package_folder_is_listed_in_pyproject() -> None:
    """The package list is explicit (for the data mapping): a new folder under rsr/ must be added to it."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "rsr").rglob("__init__.py")}
    assert found - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"
    assert config["package-dir"] == {"rsr.data.scenarios": "scenarios", "rsr.data.schemas": "schemas"}
