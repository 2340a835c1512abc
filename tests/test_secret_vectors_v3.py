"""Contract version 2's secrets from content and 16-byte seals (docs/protocol.md, "Secrets (version 2)",
"Sealed choices"), checked against tests/vectors/secret-v3.json with the primitives written out here."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest
import rfc8785
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from rsr.fairdice import commitment, content_without_commit, derive_secret_v3, seal

VECTORS = json.loads((Path(__file__).parent / "vectors" / "secret-v3.json").read_text())


def by_hand(seed: bytes, game: bytes, nonce: bytes, seq: int, payload: dict) -> bytes:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"rsr-secret-key-v1").derive(seed)
    content = rfc8785.dumps({k: v for k, v in payload.items() if k != "commit"})
    return hmac.new(key, b"rsr-secret-v3" + game + nonce + seq.to_bytes(8, "big") + hashlib.sha256(content).digest(),
                    hashlib.sha256).digest()


def test_every_v3_secret_vector_is_reproduced_by_hand_and_by_rsr() -> None:
    assert len(VECTORS["cases"]) >= 4
    for case in VECTORS["cases"]:
        seed, game, nonce = (bytes.fromhex(case[k]) for k in ("seed_hex", "game_id_hex", "nonce_hex"))
        assert content_without_commit(case["payload"]).decode() == case["content_utf8"]
        assert by_hand(seed, game, nonce, case["seq"], case["payload"]).hex() == case["secret_hex"]
        secret = derive_secret_v3(seed, game, nonce, case["seq"], content_without_commit(case["payload"]))
        assert secret.hex() == case["secret_hex"] and commitment(secret) == case["commit_hex"]


def test_one_second_of_signed_time_gives_another_secret() -> None:
    two = [c for c in VECTORS["cases"] if c["game_id_hex"] == bytes(range(16)).hex() and c["seq"] == 4]
    assert len(two) == 2 and two[0]["payload"]["time"] != two[1]["payload"]["time"]
    assert two[0]["secret_hex"] != two[1]["secret_hex"]


def test_seal_vectors_and_the_fixed_salt() -> None:
    for case in VECTORS["seal"]["cases"]:
        salt = bytes.fromhex(case["salt_hex"])
        expected = hashlib.sha256(b"rsr-seal-v1" + salt + rfc8785.dumps(case["choice"])).hexdigest()
        assert seal(salt, case["choice"], 2) == expected == case["seal_hex"]
    # version 1's ambiguity: a 17-byte salt ending in "1" and the choice 2 seal what a 16-byte salt and 12 do
    salt = bytes(16)
    assert seal(salt, 12) == seal(salt + b"1", 2)
    with pytest.raises(ValueError, match="exactly 16 bytes"):
        seal(salt + b"1", 2, 2)
