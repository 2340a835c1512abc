"""Fair dice that neither player can predict or choose and sealed choices (docs/protocol.md).

The dice of packet j are keyed by the secret the *next* packet reveals::

    commit = SHA-256("rsr-commit-v1" || secret)
    key_j  = HMAC-SHA256(reveal_{j+1}, "rsr-dice-v1" || game_id || SHA-256(payload_j))
    roll n = first byte b < 256 - 256 % sides of HMAC(key_j, "rsr-roll-v1" || n || c), c = 0, 1, ...

Dice sources all offer ``roll(sides, purpose) -> int``. Rules code receives one and never anything else
that is random: :class:`KeyedDice` in play, :class:`ScriptedDice` in tests, :class:`NoDice` in the dry
run an author's tool makes before signing (it stops at the first die).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Protocol

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from rsr.canonical import canonical_bytes
from rsr.errors import NeedDice, RulesError

COMMIT_TAG = b"rsr-commit-v1"
DICE_TAG = b"rsr-dice-v1"
ROLL_TAG = b"rsr-roll-v1"
SEAL_TAG = b"rsr-seal-v1"
SECRET_TAG = b"rsr-secret-v2"
SECRET_TAG_V3 = b"rsr-secret-v3"
SEAL_SALT_BYTES = 16
NONCE_BYTES = 32
SECRET_KDF_INFO = b"rsr-secret-key-v1"


def commitment(secret: bytes) -> str:
    """The hex commitment to a 32-byte secret."""
    if len(secret) != 32:
        raise ValueError("a secret is 32 bytes")
    return hashlib.sha256(COMMIT_TAG + secret).hexdigest()


def derive_secret(seed: bytes, game_id: bytes, nonce: bytes, seq: int) -> bytes:
    """The secret a side commits to in its packet ``seq``, derived from its Ed25519 seed.

    ``nonce`` is the fresh randomness the side put into its own invite or acceptance. Without it the
    secret would be a function of (key, game id, seq) alone, and a re-sent invitation or a borrowed game
    id would make the victim commit again to a secret it had already revealed (docs/protocol.md, "No
    secret is committed twice"). HKDF turns the seed into a secret-derivation key, so the signing key
    itself is never used as an HMAC key; nothing beyond the private key and the log has to be kept.
    """
    if len(nonce) != NONCE_BYTES:
        raise ValueError(f"a nonce is {NONCE_BYTES} bytes")
    kdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=SECRET_KDF_INFO)
    key = kdf.derive(seed)
    return hmac.new(key, SECRET_TAG + game_id + nonce + seq.to_bytes(8, "big"), hashlib.sha256).digest()


def derive_secret_v3(seed: bytes, game_id: bytes, nonce: bytes, seq: int, content: bytes) -> bytes:
    """Contract version 2's secret: also derived from the packet's own content (docs/protocol.md, "Secrets").

    ``content`` is the canonical JSON of the packet's payload with ``commit`` left out. As with deterministic
    signature nonces (RFC 6979), the same content gives the same secret and any other content a fresh one: a
    player whose rsr home was restored from a backup and who signs packet ``seq`` again with other inputs or
    another time commits to a secret nobody has seen, never to the one his lost packet already revealed.
    """
    if len(nonce) != NONCE_BYTES:
        raise ValueError(f"a nonce is {NONCE_BYTES} bytes")
    kdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=SECRET_KDF_INFO)
    key = kdf.derive(seed)
    return hmac.new(key, SECRET_TAG_V3 + game_id + nonce + seq.to_bytes(8, "big") + hashlib.sha256(content).digest(),
                    hashlib.sha256).digest()


def content_without_commit(payload: dict[str, Any]) -> bytes:
    """The bytes a contract 2 secret is derived from: the payload's canonical JSON without ``commit``."""
    return canonical_bytes({k: v for k, v in payload.items() if k != "commit"})


def dice_key(reveal: bytes, game_id: bytes, packet_hash: bytes) -> bytes:
    """key_j (docs/protocol.md, "Dice") from the next packet's reveal and packet j's payload hash."""
    if len(game_id) != 16 or len(packet_hash) != 32:
        raise ValueError("game id is 16 bytes and a packet hash 32")
    return hmac.new(reveal, DICE_TAG + game_id + packet_hash, hashlib.sha256).digest()


def roll_value(key: bytes, n: int, sides: int) -> int:
    """Roll number ``n`` of a die with ``sides`` faces under ``key`` (rejection-sampled, unbiased)."""
    if not 2 <= sides <= 256:
        raise ValueError("a die has 2 to 256 sides")
    limit = 256 - 256 % sides
    counter = 0
    while True:
        block = hmac.new(key, ROLL_TAG + n.to_bytes(8, "big") + counter.to_bytes(4, "big"), hashlib.sha256)
        for byte in block.digest():
            if byte < limit:
                return byte % sides + 1
        counter += 1


@dataclass(frozen=True)
class Roll:
    """One die rolled: its number within the key, faces, value and why it was rolled."""

    n: int
    sides: int
    value: int
    purpose: str

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "sides": self.sides, "value": self.value, "purpose": self.purpose}


class Dice(Protocol):
    """What rules code may use for chance: nothing else."""

    def roll(self, sides: int, purpose: str) -> int: ...


class KeyedDice:
    """The dice stream of one key: rolls 0, 1, 2, ... recorded with their purpose."""

    def __init__(self, key: bytes, start: int = 0) -> None:
        self.key = key
        self.rolls: list[Roll] = []
        self._next = start

    def roll(self, sides: int, purpose: str) -> int:
        value = roll_value(self.key, self._next, sides)
        self.rolls.append(Roll(self._next, sides, value, purpose))
        self._next += 1
        return value


class ScriptedDice:
    """Dice from a list, for adjudication cases and unit tests."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str) -> int:
        n = len(self.rolls)
        if n >= len(self.values):
            raise RulesError(f"the scripted dice ran out at roll {n} ({purpose})")
        value = self.values[n]
        if not 1 <= value <= sides:
            raise RulesError(f"scripted roll {n} is {value}, not a face of a d{sides} ({purpose})")
        self.rolls.append(Roll(n, sides, value, purpose))
        return value

    @property
    def unused(self) -> list[int]:
        return self.values[len(self.rolls):]


class NoDice:
    """The dry-run source: any roll means the author cannot go further before signing."""

    rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str) -> int:
        raise NeedDice(purpose)


def seal(salt: bytes, choice: Any, contract: int = 1) -> str:
    """The hex seal of a secret choice (docs/protocol.md, "Sealed choices"): SHA-256("rsr-seal-v1" || salt ||
    canonical choice).

    Contract version 1 lets the salt be 16 to 64 bytes, and the salt carries no length: one seal then opens as
    two different (salt, choice) pairs when a choice's text can begin with what a salt may end with (seal(S, 12)
    is seal(S + "1", 2)). Contract version 2 fixes the salt at exactly 16 bytes, so salt and choice split
    one way only; rsr has always drawn 16-byte salts, so the seals it makes are the same in both versions.
    """
    if contract >= 2 and len(salt) != SEAL_SALT_BYTES:
        raise ValueError(f"a seal's salt is exactly {SEAL_SALT_BYTES} bytes (contract version 2)")
    if len(salt) < 16:
        raise ValueError("a seal's salt is at least 16 bytes")
    return hashlib.sha256(SEAL_TAG + salt + canonical_bytes(choice)).hexdigest()
