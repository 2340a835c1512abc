"""Packets on the wire (docs/protocol.md): armor, email damage, strictness, hostile input."""

from __future__ import annotations

import base64
import textwrap

import pytest

from rsr import keys as keystore
from rsr.canonical import canonical_bytes, strict_loads
from rsr.errors import BadInput, VerificationError
from rsr.packet import SIGN_PREFIX, Armored, armor, extract_blocks, open_packet, sign_payload


def signed(seq: int = 2) -> tuple[keystore.KeyPair, object]:
    key = keystore.new_key("k")
    payload = {"v": 1, "game": "ab" * 16, "seq": seq, "side": "japan", "prev": "cd" * 32, "commit": "ef" * 32,
               "reveal": "01" * 32, "resolution": {"state": "02" * 32, "dice": []},
               "inputs": [{"request": "t1/x", "answer": {"note": "ünïcode", "n": 3}}]}
    return key, sign_payload(payload, key)


def test_round_trip() -> None:
    key, packet = signed()
    block = extract_blocks(packet.armored())[0]
    again = open_packet(block, {"japan": key.public_raw})
    assert again.payload == packet.payload and again.payload_bytes == packet.payload_bytes


def test_survives_email_quoting_rewrapping_crlf_and_surrounding_text() -> None:
    key, packet = signed()
    text = packet.armored()
    lines = text.strip().split("\n")
    begin, headers, end = lines[0], lines[1:3], lines[-1]
    body = "".join(lines[3:-1]).replace(" ", "")
    payload_b64, sig_b64 = base64.b64encode(packet.payload_bytes).decode(), base64.b64encode(packet.signature).decode()
    assert payload_b64 + sig_b64 == body
    rewrapped = textwrap.wrap(payload_b64, 41) + [""] + textwrap.wrap(sig_b64, 30)
    mail = "Hi Bob,\r\nhere is my turn.\r\n\r\n" + "\r\n".join(
        "> " + line for line in [begin, *headers, ""] + rewrapped + [end]) + "\r\n\r\n-- \r\nAlice\r\n"
    again = open_packet(extract_blocks(mail)[0], {"japan": key.public_raw})
    assert again.payload_bytes == packet.payload_bytes


def test_any_changed_character_is_caught() -> None:
    key, packet = signed()
    block = extract_blocks(packet.armored())[0]
    for i in range(0, len(block.payload_bytes), 7):
        damaged = bytearray(block.payload_bytes)
        damaged[i] ^= 0x01
        with pytest.raises((VerificationError, BadInput)):
            open_packet(Armored(block.headers, bytes(damaged), block.signature), {"japan": key.public_raw})
    for i in range(len(block.signature)):
        damaged = bytearray(block.signature)
        damaged[i] ^= 0x80
        with pytest.raises(VerificationError, match="signature does not verify"):
            open_packet(Armored(block.headers, block.payload_bytes, bytes(damaged)), {"japan": key.public_raw})


def test_signature_is_checked_before_json_is_parsed() -> None:
    key = keystore.new_key("k")
    hostile = b"[" * 100000
    text = armor(hostile, key.sign(b"other"), "ab" * 16, 2, "japan")
    with pytest.raises(VerificationError, match="signature"):
        open_packet(extract_blocks(text)[0], {"japan": key.public_raw})


@pytest.mark.parametrize("payload, message", [
    (b'{"a":1,"a":2}', "duplicate key"),
    (b'{"b":1, "a":2}', "canonical"),
    (b'{"a":1.5}', "not an integer"),
    (b"[" * 70 + b"]" * 70, "nested deeper"),
    (b"\xff\xfe", "not UTF-8"),
    (b"{", "not JSON"),
])
def test_strict_json(payload: bytes, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        strict_loads(payload)


def test_signed_but_schema_invalid_payload_is_rejected() -> None:
    key = keystore.new_key("k")
    data = canonical_bytes({"v": 1, "game": "ab" * 16, "seq": 2, "side": "japan", "extra": True})
    text = armor(data, key.sign(SIGN_PREFIX + data), "ab" * 16, 2, "japan")
    with pytest.raises(BadInput, match=r"packet 2 payload: \$"):
        open_packet(extract_blocks(text)[0], {"japan": key.public_raw})


def test_header_must_match_payload() -> None:
    key, packet = signed()
    text = packet.armored().replace("Seq: 2 japan", "Seq: 3 japan")
    with pytest.raises(VerificationError, match="header says 'Seq: 3 japan'"):
        open_packet(extract_blocks(text)[0], {"japan": key.public_raw})


@pytest.mark.parametrize("text, message", [
    ("hello", "no '-----BEGIN RSR PACKET-----' block"),
    ("-----BEGIN RSR PACKET-----\nGame: x\n\nAAAA\n", "truncated"),
    ("-----BEGIN RSR PACKET-----\n\n!!!!\n\nAAAA\n-----END RSR PACKET-----", "not valid base64"),
    ("-----BEGIN RSR PACKET-----\n\nAAAA\n-----END RSR PACKET-----", "1 base64 sections"),
    ("x" * (9 * 1024 * 1024), "at most"),
])
def test_malformed_armor(text: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        extract_blocks(text)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(width=st.integers(min_value=4, max_value=120), quote=st.sampled_from(["", "> ", ">", "> > ", ">> "]),
       newline=st.sampled_from(["\n", "\r\n"]), before=st.text(max_size=200), after=st.text(max_size=200))
def test_any_rewrapping_and_quoting_still_reads(width: int, quote: str, newline: str, before: str, after: str) -> None:
    """docs/protocol.md: whatever an email client does to line length, quoting and line ends, the packet reads."""
    key = keystore.KeyPair("fixed", bytes(range(32)))
    packet = sign_payload({"v": 1, "game": "ab" * 16, "seq": 2, "side": "japan", "prev": "cd" * 32,
                           "commit": "ef" * 32, "reveal": "01" * 32, "resolution": {"state": "02" * 32, "dice": []},
                           "inputs": [{"request": "t1/x", "answer": {"n": 3}}]}, key)
    payload = base64.b64encode(packet.payload_bytes).decode()
    signature = base64.b64encode(packet.signature).decode()
    body = ["-----BEGIN RSR PACKET-----", f"Game: {packet.game}", f"Seq: {packet.seq} {packet.side}", ""]
    body += textwrap.wrap(payload, width) + [""] + textwrap.wrap(signature, width) + ["-----END RSR PACKET-----"]
    text = before.replace("-----", "") + newline + newline.join(quote + line for line in body) + newline
    text += after.replace("-----", "")
    again = open_packet(extract_blocks(text)[0], {"japan": key.public_raw})
    assert again.payload_bytes == packet.payload_bytes
