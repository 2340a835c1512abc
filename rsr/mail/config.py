"""Mail settings: the SMTP and IMAP servers and the sender address, from ``<rsr home>/mail.yaml`` or the
environment (never the command line), and the TLS context to reach them."""

from __future__ import annotations

import os
import ssl
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rsr import contacts
from rsr import keys as keystore
from rsr.errors import BadInput
from rsr.yamlio import load_yaml_file

CONFIG_FILE = "mail.yaml"


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    user: str | None
    password: str | None
    tls: str  # "starttls" or "ssl"
    cafile: str | None
    folder: str = "INBOX"


@dataclass(frozen=True)
class MailConfig:
    sender: str | None
    smtp: Server | None
    imap: Server | None


def config_path() -> Path:
    return keystore.home() / CONFIG_FILE


def _server(section: dict[str, Any], env_prefix: str, default_tls: str, ports: dict[str, int],
            where: str) -> Server | None:
    def value(key: str) -> Any:
        env = os.environ.get(f"{env_prefix}_{key.upper()}")
        return env if env not in (None, "") else section.get(key)

    host = value("host")
    if not host:
        return None
    tls = str(value("tls") or default_tls).lower()
    if tls not in ports:
        raise BadInput(f"{where}: tls is {tls!r}; use one of {', '.join(sorted(ports))} (mail is never sent in clear)")
    try:
        port = int(value("port") or ports[tls])
    except ValueError as exc:
        raise BadInput(f"{where}: port {value('port')!r} is not a number") from exc
    user = value("user")
    password = value("password")
    cafile = value("cafile")
    return Server(str(host), port, str(user) if user else None, str(password) if password else None, tls,
                  str(cafile) if cafile else None, str(value("folder") or "INBOX"))


def load_config() -> MailConfig:
    """``<rsr home>/mail.yaml``, each key overridden by its environment variable (RSR_SMTP_HOST, ...).

    A config file that holds a password must be readable by its owner only (mode 0600)."""
    path = config_path()
    data: dict[str, Any] = {}
    if path.exists():
        loaded = load_yaml_file(path)
        if loaded is not None and not isinstance(loaded, dict):
            raise BadInput(f"{path}: expected a mapping with 'from', 'smtp' and 'imap'")
        data = loaded or {}
        holds_password = any(isinstance(data.get(s), dict) and data[s].get("password") for s in ("smtp", "imap"))
        if holds_password and path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise BadInput(f"{path} holds a password and is readable by others: chmod 600 {path}")
    for section in ("smtp", "imap"):
        if not isinstance(data.get(section, {}), dict):
            raise BadInput(f"{path}: '{section}' must be a mapping")
    smtp = _server(data.get("smtp", {}), "RSR_SMTP", "starttls", {"starttls": 587, "ssl": 465}, f"{path} smtp")
    imap = _server(data.get("imap", {}), "RSR_IMAP", "ssl", {"starttls": 143, "ssl": 993}, f"{path} imap")
    sender = os.environ.get("RSR_MAIL_FROM") or data.get("from")
    if sender:
        sender = contacts.check_address(str(sender), f"{path} from")
    return MailConfig(str(sender) if sender else None, smtp, imap)


def tls_context(server: Server) -> ssl.SSLContext:
    """Certificate and host name checked, always; ``cafile`` adds a CA (a private server's)."""
    if server.cafile and not Path(server.cafile).is_file():
        raise BadInput(f"cafile {server.cafile} (for {server.host}) does not exist")
    return ssl.create_default_context(cafile=server.cafile) if server.cafile else ssl.create_default_context()
