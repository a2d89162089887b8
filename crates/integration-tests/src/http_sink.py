#!/usr/bin/env python3
"""An HTTP/1.1 server on 127.0.0.1 for the Http appender's tests (the standard library only;
independent of l4rs and of Java's HttpURLConnection). Every request it reads is written to
OUT_DIR as NNNN.json: the request's head as received (request line and header lines, CRLF
kept), its body (base64), the number of the connection it came on and whether that connection
spoke TLS. Prints "ready PORT" once it listens; exits when its stdin closes, or after
--lifetime seconds at the latest.

usage: http_sink.py OUT_DIR [--tls CERT KEY] [--statuses 500,200,...] [--close]
                   [--delay-first SECONDS] [--idle-close SECONDS] [--no-answer 2,5,...]
                   [--keep-alive-timeout SECONDS] [--lifetime SECONDS]

--statuses answers the first requests with these status codes, one each, then 200; a status
of 400 or more carries a short text body, as an error page would; a 3xx names a Location.
--close answers with "Connection: close" and closes each connection after one request.
--delay-first waits that long before answering the first request (a slow server).
--idle-close closes, without a word, a connection that carries no new request for that long
after a response (as servers end kept-alive connections).
--keep-alive-timeout names that many seconds in a "Keep-Alive: timeout=N" header of every
response (the connection stays open longer: the client must give it up itself).
--no-answer closes the connection of the requests with these numbers (the first is 1) after
reading them, without answering (a server that fails while handling a request).
"""
import argparse
import base64
import json
import os
import socket
import ssl
import sys
import threading
import time

REASONS = {200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 302: "Found",
           400: "Bad Request", 404: "Not Found", 500: "Server Error", 503: "Service Unavailable"}


class Recorder:
    def __init__(self, out, statuses, close, delay_first, idle_close, no_answer,
                 keep_alive_timeout):
        self.out = out
        self.statuses = list(statuses)
        self.close = close
        self.delay_first = delay_first
        self.idle_close = idle_close
        self.no_answer = set(no_answer)
        self.keep_alive_timeout = keep_alive_timeout
        self.lock = threading.Lock()
        self.requests = 0
        self.connections = 0

    def next_connection(self):
        with self.lock:
            self.connections += 1
            return self.connections

    def record(self, connection, head, body, tls):
        with self.lock:
            self.requests += 1
            number = self.requests
            if number in self.no_answer:
                status = None
            else:
                status = self.statuses.pop(0) if self.statuses else 200
        record = {
            "connection": connection,
            "tls": tls,
            "head": head.decode("latin-1"),
            "body": base64.b64encode(body).decode("ascii"),
        }
        path = os.path.join(self.out, "%04d.json" % number)
        with open(path + ".tmp", "w") as f:
            json.dump(record, f)
        os.rename(path + ".tmp", path)
        if number == 1 and self.delay_first > 0:
            time.sleep(self.delay_first)
        return status


def read_request(conn, pending):
    """One request from `conn`: (head, body, rest) or None when the client closed."""
    while b"\r\n\r\n" not in pending:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        pending += chunk
    head, _, rest = pending.partition(b"\r\n\r\n")
    head += b"\r\n\r\n"
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        rest += chunk
    return head, rest[:length], rest[length:]


def serve(conn, recorder, context):
    tls = context is not None
    pending = b""
    try:
        if tls:
            # A client that fails the handshake (an untrusted certificate) is dropped here.
            conn = context.wrap_socket(conn, server_side=True)
        connection = recorder.next_connection()
        while True:
            request = read_request(conn, pending)
            if request is None:
                return
            head, body, pending = request
            status = recorder.record(connection, head, body, tls)
            if status is None:
                return
            reason = REASONS.get(status, "Status")
            text = b"" if status < 400 else ("error %d from the sink" % status).encode()
            response = "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n" % (
                status, reason, len(text))
            if 300 <= status < 400:
                response += "Location: /elsewhere\r\n"
            if recorder.keep_alive_timeout is not None:
                response += "Keep-Alive: timeout=%d\r\n" % recorder.keep_alive_timeout
            if recorder.close:
                response += "Connection: close\r\n"
            conn.sendall(response.encode() + b"\r\n" + text)
            if recorder.close:
                return
            if recorder.idle_close > 0 and not pending:
                conn.settimeout(recorder.idle_close)
                try:
                    pending = conn.recv(65536)
                except socket.timeout:
                    return
                if not pending:
                    return
                conn.settimeout(None)
    except (OSError, ssl.SSLError):
        return
    finally:
        try:
            conn.close()
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--tls", nargs=2)
    parser.add_argument("--statuses", default="")
    parser.add_argument("--close", action="store_true")
    parser.add_argument("--delay-first", type=float, default=0.0)
    parser.add_argument("--idle-close", type=float, default=0.0)
    parser.add_argument("--no-answer", default="")
    parser.add_argument("--keep-alive-timeout", type=int)
    parser.add_argument("--lifetime", type=float, default=600.0)
    args = parser.parse_args()
    statuses = [int(s) for s in args.statuses.split(",") if s]
    no_answer = [int(n) for n in args.no_answer.split(",") if n]
    recorder = Recorder(args.out, statuses, args.close, args.delay_first, args.idle_close,
                        no_answer, args.keep_alive_timeout)
    context = None
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    listener.settimeout(0.2)

    def accept():
        while True:
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            conn.settimeout(args.lifetime)
            threading.Thread(target=serve, args=(conn, recorder, context),
                             daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    print("ready %d" % listener.getsockname()[1], flush=True)
    # Ends when the test closes stdin (or the lifetime runs out).
    deadline = time.time() + args.lifetime
    stdin = threading.Thread(target=sys.stdin.read, daemon=True)
    stdin.start()
    while stdin.is_alive() and time.time() < deadline:
        stdin.join(0.2)
    listener.close()


if __name__ == "__main__":
    main()
