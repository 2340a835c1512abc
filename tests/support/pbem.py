"""Real parts for the play-by-email and play-by-git tests: a throwaway TLS certificate, an SMTP server on
loopback (aiosmtpd) that delivers into a Maildir and an mbox per recipient, and a driver that plays a
whole game between two players through the command line, one command to receive and one to send."""

from __future__ import annotations

import datetime
import ipaddress
import mailbox
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from rsr import games as game_actions
from rsr.cli import main
from rsr.demo import bot_inputs, player_home
from rsr.log import position_for_author
from rsr.yamlio import dump_yaml

GIT_IDENTITY = {"GIT_AUTHOR_NAME": "rsr test", "GIT_AUTHOR_EMAIL": "t@example.test",
                "GIT_COMMITTER_NAME": "rsr test", "GIT_COMMITTER_EMAIL": "t@example.test",
                "GIT_CONFIG_NOSYSTEM": "1"}


def throwaway_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (cert.pem doubles as the client's CA file)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "rsr test server")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                        x509.DNSName("localhost")]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(cert), str(key))
    return context


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class MailServer:
    """aiosmtpd on loopback: STARTTLS required, AUTH required (over TLS only), one Maildir and one mbox per
    local part of each recipient, and an archive mbox of every message."""

    root: Path
    users: dict[str, str]
    port: int = 0
    cert: Path = Path()
    logins: list[str] = field(default_factory=list)
    controller: Any = None

    def start(self) -> MailServer:
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword

        self.cert, key = throwaway_certificate(self.root)
        server = self

        class Handler:
            async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:  # noqa: N802
                for rcpt in envelope.rcpt_tos:
                    user = rcpt.split("@")[0]
                    server.maildir(user).add(envelope.content)
                    box = mailbox.mbox(str(server.mbox(user)))
                    box.add(envelope.content)
                    box.close()
                archive = mailbox.mbox(str(server.root / "archive.mbox"))
                archive.add(envelope.content)
                archive.close()
                return "250 OK delivered"

        def authenticator(smtp: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> Any:
            ok = isinstance(data, LoginPassword) and server.users.get(data.login.decode()) == data.password.decode()
            if ok:
                server.logins.append(data.login.decode())
            return AuthResult(success=ok, handled=False)

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port,
                                     tls_context=server_context(self.cert, key), require_starttls=True,
                                     auth_required=True, auth_require_tls=True, authenticator=authenticator)
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()

    def maildir(self, user: str) -> mailbox.Maildir:
        (self.root / "mail" / user).mkdir(parents=True, exist_ok=True)
        return mailbox.Maildir(str(self.root / "mail" / user / "Maildir"), create=True)

    def maildir_path(self, user: str) -> Path:
        self.maildir(user)
        return self.root / "mail" / user / "Maildir"

    def mbox(self, user: str) -> Path:
        (self.root / "mail" / user).mkdir(parents=True, exist_ok=True)
        return self.root / "mail" / user / "mbox"

    def config_for(self, home: Path, user: str) -> None:
        """<home>/mail.yaml for ``user`` (mode 0600: it holds a password)."""
        home.mkdir(parents=True, exist_ok=True)
        config = {"from": f"{user.title()} <{user}@example.test>",
                  "smtp": {"host": "127.0.0.1", "port": self.port, "user": user, "password": self.users[user],
                           "tls": "starttls", "cafile": str(self.cert)}}
        path = home / "mail.yaml"
        path.write_text(dump_yaml(config))
        path.chmod(0o600)


@dataclass
class Player:
    name: str
    home: Path
    env: dict[str, str]
    game_dir: Path | None = None


def run(player: Player, *args: str) -> Result:
    result = CliRunner().invoke(main, [str(a) for a in args], env=player.env)
    assert result.exit_code == 0, f"{player.name}: rsr {' '.join(map(str, args))}\n{result.output}"
    return result


def write_bot_orders(player: Player, folder: Path) -> Path:
    """The player's decision for this packet, as an orders file (the bots stand in for the people)."""
    assert player.game_dir is not None
    with player_home(player.home):
        result = game_actions.load_game(player.game_dir)
        key = game_actions.choose_key(result, None)
        position, waiting, _ = position_for_author(result, key)
        side = next(s for s, pub in sorted(result.keys.items()) if pub == key.public_raw)
        inputs = bot_inputs(result, key, position, waiting, side, "1-1")
    path = folder / f"{player.name}-{len(result.packets):04d}.yaml"
    path.write_text(dump_yaml({"inputs": inputs}))
    return path


def game_over(player: Player) -> bool:
    assert player.game_dir is not None
    with player_home(player.home):
        result = game_actions.load_game(player.game_dir)
    return bool(result.passes) and result.passes[-1].waiting is None


def play_out(first: Player, second: Player, receive: Callable[[Player], list[str]],
             submit: Callable[[Player, Path], list[str]], orders: Path, limit: int = 200) -> int:
    """From the acceptance on: the receiver takes in what came (one command), decides, and sends (one
    command), until the last reveal is received. Returns the number of packets written in the loop."""
    orders.mkdir(parents=True, exist_ok=True)
    receiver, other = first, second
    for count in range(limit):
        run(receiver, *receive(receiver))
        if game_over(receiver):
            return count
        run(receiver, *submit(receiver, write_bot_orders(receiver, orders)))
        receiver, other = other, receiver
    raise AssertionError(f"the game did not end within {limit} packets")
