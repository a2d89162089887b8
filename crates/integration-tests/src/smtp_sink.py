#!/usr/bin/env python3
"""An SMTP server on 127.0.0.1 for the SMTP appender's tests (aiosmtpd, from PyPI; an
implementation independent of l4rs and of JavaMail). Every mail it accepts is written to
OUT_DIR as NNNN.json: the envelope (MAIL FROM, RCPT TO), the user that logged in, the EHLO
name and the message's bytes as received (base64). Prints "ready PORT" once it listens; exits
after --lifetime seconds at the latest.

usage: smtp_sink.py OUT_DIR [--auth USER:PASSWORD] [--tls CERT KEY] [--starttls CERT KEY]
                   [--refuse-first N] [--lifetime SECONDS]

--tls speaks TLS from the first byte; --starttls offers STARTTLS, requires it before any mail,
and offers AUTH only after it.

--refuse-first N answers the first N messages with 451 (try again later) and records nothing.
"""
import argparse
import base64
import json
import os
import select
import socket
import ssl
import sys
import time
import warnings

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Recorder:
    def __init__(self, out, refuse_first):
        self.out = out
        self.refuse_first = refuse_first
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        if self.refuse_first > 0:
            self.refuse_first -= 1
            return "451 4.3.0 try again later"
        self.count += 1
        login = session.auth_data if isinstance(session.auth_data, str) else None
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "login": login,
            "ehlo": session.host_name,
            "tls": server.transport.get_extra_info("ssl_object") is not None,
            "data": base64.b64encode(envelope.original_content).decode("ascii"),
        }
        path = os.path.join(self.out, "%04d.json" % self.count)
        with open(path + ".tmp", "w") as f:
            json.dump(record, f)
        os.rename(path + ".tmp", path)
        return "250 OK"


def main():
    # aiosmtpd warns about its own deprecated session attribute when a login succeeds.
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--auth")
    parser.add_argument("--tls", nargs=2)
    parser.add_argument("--starttls", nargs=2)
    parser.add_argument("--refuse-first", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=300)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    options = {}
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticate(server, session, envelope, mechanism, data):
            ok = isinstance(data, LoginPassword) and data.login.decode() == user and data.password.decode() == password
            # The user's name is what the session remembers, for the mail's record.
            return AuthResult(success=ok, auth_data=data.login.decode() if ok else None)

        options.update(authenticator=authenticate, auth_require_tls=bool(args.starttls))
    if args.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.tls[0], args.tls[1])
        options.update(ssl_context=context)
    if args.starttls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.starttls[0], args.starttls[1])
        options.update(tls_context=context, require_starttls=True)
    controller = Controller(Recorder(args.out, args.refuse_first), hostname="127.0.0.1", port=port, **options)
    controller.start()
    print("ready %d" % port, flush=True)
    deadline = time.monotonic() + args.lifetime
    try:
        while time.monotonic() < deadline:
            # Ends with the test: its stdin closes when it drops the sink.
            ready, _, _ = select.select([sys.stdin], [], [], 1.0)
            if ready and sys.stdin.read(1) == "":
                break
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
