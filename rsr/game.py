"""The log and its game directory, under their old address: ``rsr.log`` replays packets into positions
(no file I/O), ``rsr.gamedir`` reads and writes the game directory. Both are re-exported here so code that
imports ``rsr.game`` keeps working; new code imports from the module that does the work.
"""

from __future__ import annotations

from rsr.gamedir import (
    MAX_PACKET_FILE,
    Resolver,
    append_packets,
    create_game_dir,
    equivocation,
    game_dir_name,
    incoming,
    load_log,
    read_text_file,
    write_dispute,
    write_game_yaml,
    write_packets,
)
from rsr.keys import KeyPair
from rsr.log import (
    CheckpointStore,
    PassRecord,
    Replay,
    accept_packet,
    build_packet,
    check_last_inputs,
    check_leftovers,
    check_orders,
    extend,
    invite_packet,
    my_side,
    other_side,
    own_nonce,
    pending_pass,
    position_for_author,
    replay,
    run_pass,
    secret_for,
)
from rsr.packet import Packet

__all__ = [
    "KeyPair",
    "Packet",
    "CheckpointStore",
    "MAX_PACKET_FILE",
    "PassRecord",
    "Replay",
    "Resolver",
    "accept_packet",
    "append_packets",
    "build_packet",
    "check_last_inputs",
    "check_leftovers",
    "check_orders",
    "create_game_dir",
    "equivocation",
    "extend",
    "game_dir_name",
    "incoming",
    "invite_packet",
    "load_log",
    "my_side",
    "other_side",
    "own_nonce",
    "pending_pass",
    "position_for_author",
    "read_text_file",
    "replay",
    "run_pass",
    "secret_for",
    "write_dispute",
    "write_game_yaml",
    "write_packets",
]
