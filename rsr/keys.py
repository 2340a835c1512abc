"""Ed25519 key pairs kept outside game directories (docs/protocol.md, "Keys").

Keys live in ``<home>/keys/NAME.key`` (PKCS#8 PEM, mode 0600, optionally encrypted with a passphrase)
beside ``NAME.pub`` (base64 of the raw 32-byte public key). ``<home>`` is ``$RSR_HOME`` if set,
otherwise click's per-user application directory. A passphrase comes from ``$RSR_PASSPHRASE`` (for
scripts) or is asked for at the terminal without echo; a private key that others may read is refused,
as ssh refuses one.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rsr.errors import BadInput
from rsr.fileio import atomic_write

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

# cryptography is imported on first use: a reading command whose packets the record of
# checked files already vouches for verifies no signature and loads no key.

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def home() -> Path:
    """The user's rsr directory."""
    override = os.environ.get("RSR_HOME")
    return Path(override) if override else Path(click.get_app_dir("rsr"))


def key_dir() -> Path:
    return home() / "keys"


def fingerprint(public_raw: bytes) -> str:
    """An OpenSSH-style fingerprint: ``SHA256:`` and unpadded base64 of the key's SHA-256."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(public_raw).digest()).decode().rstrip("=")


def public_b64(public_raw: bytes) -> str:
    return base64.b64encode(public_raw).decode()


def decode_public(text: str) -> bytes:
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError as exc:
        raise BadInput(f"public key {text!r} is not base64") from exc
    if len(raw) != 32:
        raise BadInput(f"public key {text!r} is not 32 bytes")
    return raw


def verify_signature(public_raw: bytes, signature: bytes, message: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public_raw).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class KeyPair:
    """A loaded key pair. ``seed`` is the 32-byte Ed25519 private seed."""

    name: str
    seed: bytes

    @property
    def private(self) -> Ed25519PrivateKey:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return Ed25519PrivateKey.from_private_bytes(self.seed)

    @property
    def public_raw(self) -> bytes:
        return self.private.public_key().public_bytes_raw()  # (no serialization module, for start-up)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_raw)

    def sign(self, message: bytes) -> bytes:
        return self.private.sign(message)


def _check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise BadInput(f"key name {name!r}: use letters, digits, '.', '_' or '-' (at most 64)")


def new_key(name: str, passphrase: str | None = None, directory: Path | None = None) -> KeyPair:
    """Create and store a new key pair; refuses to overwrite an existing one."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    _check_name(name)
    directory = directory or key_dir()
    path = directory / f"{name}.key"
    if path.exists():
        raise BadInput(f"key {name!r} already exists at {path}")
    private = Ed25519PrivateKey.generate()
    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase.encode()) if passphrase else serialization.NoEncryption()
    )
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    directory.mkdir(parents=True, exist_ok=True)
    os.chmod(directory, 0o700)
    atomic_write(path, pem, mode=0o600)
    seed = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                 serialization.NoEncryption())
    pair = KeyPair(name, seed)
    atomic_write(directory / f"{name}.pub", (public_b64(pair.public_raw) + "\n").encode(), mode=0o644)
    return pair


def key_names(directory: Path | None = None) -> list[str]:
    directory = directory or key_dir()
    if not directory.is_dir():
        return []
    return sorted(p.stem for p in directory.glob("*.key"))


def stored_public(name: str, directory: Path | None = None) -> bytes:
    """The public key of a stored pair, without needing its passphrase."""
    _check_name(name)
    path = (directory or key_dir()) / f"{name}.pub"
    if not path.exists():
        raise BadInput(f"no key named {name!r} in {path.parent}")
    return decode_public(path.read_text().strip())


def _check_private(path: Path) -> None:
    if os.name != "posix":
        return
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise BadInput(f"private key {path} may be read by others (mode {stat.S_IMODE(mode):04o}); "
                       f"fix it with: chmod 600 {path}")


def _ask_passphrase(name: str) -> str | None:
    if not sys.stdin.isatty():
        return None
    return str(click.prompt(f"passphrase for key {name}", hide_input=True, err=True))


# the whole DER of an unencrypted PKCS#8 Ed25519 key (RFC 8410) before its 32-byte seed, as rsr writes it
_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")


def _plain_seed(pem: bytes) -> bytes | None:
    """The seed of an unencrypted Ed25519 key in the exact form rsr writes (one base64 line of RFC 8410's
    48 bytes), read without importing cryptography's serialization; None for anything
    else, which cryptography then reads."""
    lines = pem.strip().split(b"\n")
    if len(lines) != 3 or lines[0] != b"-----BEGIN PRIVATE KEY-----" or lines[2] != b"-----END PRIVATE KEY-----":
        return None
    try:
        der = base64.b64decode(lines[1], validate=True)
    except ValueError:
        return None
    if len(der) != 48 or not der.startswith(_PKCS8_ED25519):
        return None
    return der[len(_PKCS8_ED25519):]


def load_key(name: str, passphrase: str | None = None, directory: Path | None = None) -> KeyPair:
    """Load a stored key pair.

    An unencrypted key is read as it is (``$RSR_PASSPHRASE`` set or not). An encrypted one uses
    ``passphrase``, else ``$RSR_PASSPHRASE``, else asks at the terminal.
    """
    _check_name(name)
    path = (directory or key_dir()) / f"{name}.key"
    if not path.exists():
        raise BadInput(f"no key named {name!r} in {path.parent} (make one with 'rsr key new {name}')")
    _check_private(path)
    pem = path.read_bytes()
    seed = _plain_seed(pem)
    if seed is not None:
        return KeyPair(name, seed)
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        private = serialization.load_pem_private_key(pem, password=None)
    except TypeError:  # encrypted: it needs a passphrase
        secret = passphrase or os.environ.get("RSR_PASSPHRASE") or _ask_passphrase(name)
        if not secret:
            raise BadInput(f"key {name!r} is protected by a passphrase: run rsr at a terminal to be asked for "
                           "it, or set RSR_PASSPHRASE") from None
        try:
            private = serialization.load_pem_private_key(pem, password=secret.encode())
        except ValueError as exc:
            raise BadInput(f"key {name!r} could not be read: wrong passphrase") from exc
    except ValueError as exc:
        raise BadInput(f"key {name!r} could not be read: damaged file") from exc
    if not isinstance(private, Ed25519PrivateKey):
        raise BadInput(f"key {name!r} is not an Ed25519 key")
    seed = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                 serialization.NoEncryption())
    return KeyPair(name, seed)


def find_keys_for(public_keys: dict[str, bytes], directory: Path | None = None) -> dict[str, str]:
    """Which stored keys belong to which side: ``{side: key name}``."""
    found: dict[str, str] = {}
    for name in key_names(directory):
        try:
            raw = stored_public(name, directory)
        except BadInput:
            continue
        for side, pub in sorted(public_keys.items()):
            if pub == raw and side not in found:
                found[side] = name
    return found
