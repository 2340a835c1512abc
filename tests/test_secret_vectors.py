"""rsr's secret derivation with a nonce (docs/protocol.md, "No secret is committed twice"), checked against
tests/vectors/secret-v2.json with the primitives written out here, not rsr's own function."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from rsr.fairdice import commitment, derive_secret

VECTORS = json.loads((Path(__file__).parent / "vectors" / "secret-v2.json").read_text())


def by_hand(seed: bytes, game: bytes, nonce: bytes, seq: int) -> bytes:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"rsr-secret-key-v1").derive(seed)
    return hmac.new(key, b"rsr-secret-v2" + game + nonce + seq.to_bytes(8, "big"), hashlib.sha256).digest()


def test_every_secret_vector_is_reproduced_by_hand_and_by_rsr() -> None:
    assert len(VECTORS["cases"]) >= 4
    for case in VECTORS["cases"]:
        args = (bytes.fromhex(case["seed_hex"]), bytes.fromhex(case["game_id_hex"]), bytes.fromhex(case["nonce_hex"]),
                case["seq"])
        assert by_hand(*args).hex() == case["secret_hex"]
        assert derive_secret(*args).hex() == case["secret_hex"]
        assert commitment(derive_secret(*args)) == case["commit_hex"]


def test_the_nonce_changes_the_secret_of_the_same_game_and_seq() -> None:
    two = [c for c in VECTORS["cases"] if c["game_id_hex"] == bytes(range(16)).hex() and c["seq"] == 1]
    assert len(two) == 2 and two[0]["nonce_hex"] != two[1]["nonce_hex"]
    assert two[0]["secret_hex"] != two[1]["secret_hex"]
