"""Playing by email: packet messages written and sent, mailboxes read (docs/playing-by-email.md).

Sending: a packet becomes a standard RFC 5322 message (MIME, built with Python's ``email`` package). The
armored packet is in the plain-text body, where it survives quoting and re-wrapping; the same packet is
attached byte for byte; the Markdown report of what the opponent's last packet did follows in the body and
as an attachment. ``--send`` hands the message to an SMTP server over STARTTLS (or implicit TLS) with the
host and credentials of ``<rsr home>/mail.yaml`` or the environment, never of the command line.

Receiving: every message of a Maildir, an mbox file or an IMAP folder is searched, in every part (plain
text, HTML, attachments, forwarded messages), for packets of the game. Packets of other games, copies of
packets already in the log and blocks that do not verify are set aside; the rest are received in order
through ``reports.receive``, so they get exactly the checks of a packet file.
"""
