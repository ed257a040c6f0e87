#!/usr/bin/python3
"""The example upload service (Examples/UploadService) on loopback under attack. Each attack comes
from an address of its own in 127/8 (all of it is loopback), and a normal user's photo from
another must still be answered while it goes on.

usage: upload_attacks.py PORT REPOSITORY SERVER_PID [ATTACK...]   (all of them, in order, by default)"""
import http.client
import socket
import sys
import time

from loopback import listens

port, root, server_pid, chosen = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4:]
if not listens(port, 60):
    sys.exit(f"example: the upload service did not listen on port {port} within 60 s")

with open(f"{root}/Fixtures/pictures/orientation6.jpg", "rb") as file:
    photo = file.read()


def check(condition, what):
    if not condition:
        sys.exit(f"example: {what}")


def post(body, source, timeout=60, headers=None):
    """The HTTP status of `body` posted from `source`, sent whole before the answer is read (as most
    scripts do), or the error's name when no answer came (a reset, a timeout). A body that is an
    iterator of pieces is sent chunked (Transfer-Encoding: chunked), a chunk a piece."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        connection.request("POST", "/uploads?size=32", body=body, headers=headers or {})
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError as error:
        return type(error).__name__
    finally:
        connection.close()


def connect(source):
    connection = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection


def status_line(connection, seconds):
    """The first line the server sent within `seconds`; b"" when it closed without one, None when
    it sent nothing and kept the connection open."""
    connection.settimeout(seconds)
    answer = b""
    try:
        while b"\r\n" not in answer:
            piece = connection.recv(4096)
            if not piece:
                break
            answer += piece
    except socket.timeout:
        return answer.split(b"\r\n")[0] or None
    except OSError:
        pass
    return answer.split(b"\r\n")[0]


def head(content_type=None, length=None):
    lines = ["POST /uploads?size=32 HTTP/1.1", "Host: x"]
    lines += [f"Content-Type: {content_type}"] if content_type else []
    lines += [f"Content-Length: {length}"] if length is not None else ["Transfer-Encoding: chunked"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


user = "127.0.0.2"  # the normal user, whose photo must be answered while the attacks go on


def slow_bodies():
    """One client that held 16 uploads open with slow bodies took every upload slot: every other
    client had 503 for a minute. A client has 4 slots of the 16, and its fifth and later are 503."""
    held = []
    for _ in range(16):
        connection = connect("127.0.0.3")
        connection.sendall(head(length=1 << 20) + bytes(64 << 10))
        held.append(connection)
    time.sleep(1)  # every slow body under way before the user comes
    status = post(photo, user)
    refused = [line for line in (status_line(connection, 5) for connection in held) if line and b" 503 " in line]
    for connection in held:
        connection.close()
    check(status == 200, f"the user's photo while another client holds 16 slow uploads: {status}")
    check(len(refused) == 12, f"16 slow uploads of one client: {len(refused)} refused with 503, not 12")
    print("example: 16 slow uploads of one client: 4 under way, 12 refused (503), another's photo 200", file=sys.stderr)


attacks = [slow_bodies]
check(post(photo, user) == 200, "the user's photo, before any attack")
for attack in attacks:
    if not chosen or attack.__name__ in chosen:
        attack()
