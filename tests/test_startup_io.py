"""Start-up without heavy imports (issue 24): the game lock (rsr/fileio.py ``locked``) takes ``flock`` directly,
without importing filelock, and is the very lock filelock takes, so an rsr holding one waits for the other;
nested holds in one process are reentrant; a link is never locked through. A stored key is read without
cryptography's serialization."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from rsr.errors import BadInput
from rsr.fileio import _HELD, locked

HOLD = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
time.sleep(float(sys.argv[2]))
lock.release()
"""


def _holder(path: Path, seconds: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_lock_filelock_holds_in_another_process_is_waited_for_then_refused(tmp_path: Path) -> None:
    path = tmp_path / ".rsr.lock"
    proc = _holder(path, 30)
    try:
        start = time.monotonic()
        with pytest.raises(BadInput, match="is held by another rsr process"), locked(path, timeout=0.3):
            pass
        assert time.monotonic() - start >= 0.3
    finally:
        proc.kill()
        proc.wait()
    assert not _HELD


def test_the_lock_is_taken_once_the_other_process_lets_it_go(tmp_path: Path) -> None:
    path = tmp_path / ".rsr.lock"
    proc = _holder(path, 0.5)
    try:
        with locked(path, timeout=20):
            assert proc.poll() is not None or proc.wait(5) == 0  # (it had let go: we hold it now)
            assert str(path) in _HELD
    finally:
        proc.kill()
        proc.wait()
    assert not _HELD


def test_nested_holds_of_one_lock_in_one_process_are_reentrant(tmp_path: Path) -> None:
    path = tmp_path / ".rsr.lock"
    with locked(path, timeout=0.2):
        with locked(path, timeout=0.2):
            assert _HELD[str(path)][1] == 2
        assert _HELD[str(path)][1] == 1
    assert not _HELD
    # released: another process takes it at once
    done = subprocess.run([sys.executable, "-c", "import sys; from filelock import FileLock; "
                           "FileLock(sys.argv[1], timeout=1).acquire(); print('ok')", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok"


def test_a_lock_file_that_is_a_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").write_text("")
    (tmp_path / ".rsr.lock").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(BadInput, match="symbolic link"), locked(tmp_path / ".rsr.lock"):
        pass


def test_a_stored_key_reads_the_same_without_cryptographys_serialization(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """rsr/keys.py reads an unencrypted key in the exact form it writes without importing cryptography's
    serialization (issue 24, start-up); an encrypted or otherwise written key still goes through cryptography."""
    from cryptography.hazmat.primitives import serialization

    from rsr import keys

    monkeypatch.delenv("RSR_PASSPHRASE", raising=False)
    made = keys.new_key("alice", directory=tmp_path)
    assert keys._plain_seed((tmp_path / "alice.key").read_bytes()) == made.seed
    assert keys.load_key("alice", directory=tmp_path).seed == made.seed
    locked_key = keys.new_key("bob", passphrase="secret words", directory=tmp_path)
    assert keys._plain_seed((tmp_path / "bob.key").read_bytes()) is None
    assert keys.load_key("bob", passphrase="secret words", directory=tmp_path).seed == locked_key.seed
    # the same key written by another tool with CRLF line ends: read by cryptography, the same seed
    private = serialization.load_pem_private_key((tmp_path / "alice.key").read_bytes(), password=None)
    crlf = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption()).replace(b"\n", b"\r\n")
    assert keys._plain_seed(crlf) is None
    code = ("import sys; from rsr import keys; pair = keys.load_key('alice', directory=__import__('pathlib')"
            ".Path(sys.argv[1])); print(pair.seed.hex(), 'cryptography.hazmat.primitives.serialization' "
            "in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [made.seed.hex(), "False"]


@pytest.mark.parametrize("data", [{"shown_through": 9}, {"shown_through": 0, "other_count": 12345678901},
                                  {"shown_through": 3, "opponent_email": "a@example.test"}, {"on_off": True},
                                  {"shown_through": -1}, {"shown_through": "7"}])
def test_local_yaml_of_counts_is_the_text_pyyaml_writes_and_reads(tmp_path: Path, data: dict) -> None:
    """local.yaml of plain counts is read and written without the YAML library (rsr/contacts.py), as the very
    text PyYAML writes and reads; anything else goes through PyYAML."""
    from rsr import contacts
    from rsr.yamlio import dump_yaml, load_yaml_text

    simple = all(type(v) is int and v >= 0 for v in data.values())
    written = contacts._counts_yaml(data)
    assert (written is not None) == simple
    if written is not None:
        assert written == dump_yaml(data) and load_yaml_text(written, "t") == data
    (tmp_path / "turns").mkdir()
    first, *rest = data.items()
    contacts.remember_local(tmp_path, *first)
    for key, value in rest:
        contacts.remember_local(tmp_path, key, value)
    text = (tmp_path / "local.yaml").read_text()
    assert text == dump_yaml(data)
    assert contacts.load_local(tmp_path) == load_yaml_text(text, "t") == data
    assert (contacts._plain_counts(tmp_path / "local.yaml") is not None) == simple


@pytest.mark.parametrize("text", ["shown_through: 1\nshown_through: 2\n", "true_x: 1\n", "shown_through: 07\n",
                                  "shown_through: 1", "shown_through:  1\n", "yes: 1\n"])
def test_local_yaml_that_is_not_plain_counts_goes_to_pyyaml(tmp_path: Path, text: str) -> None:
    from rsr import contacts
    from rsr.errors import BadInput
    from rsr.yamlio import load_yaml_text

    (tmp_path / "local.yaml").write_text(text)
    plain = contacts._plain_counts(tmp_path / "local.yaml")
    try:
        want = load_yaml_text(text, "t")
    except BadInput:
        assert plain is None
        with pytest.raises(BadInput):
            contacts.load_local(tmp_path)
        return
    assert plain is None or plain == want
    assert contacts.load_local(tmp_path) == want
