#!/usr/bin/python3
"""The example upload service (Examples/UploadService) on loopback under attack. Each attack comes
from an address of its own in 127/8 (all of it is loopback), and a normal user's photo from
another must still be answered while it goes on.

usage: upload_attacks.py PORT REPOSITORY SERVER_PID [ATTACK...]   (all of them, in order, by default)"""
import concurrent.futures
import http.client
import json
import os
import resource
import socket
import sys
import time

from loopback import listens

port, root, server_pid, chosen = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4:]
if not listens(port, 60):
    sys.exit(f"example: the upload service did not listen on port {port} within 60 s")

with open(f"{root}/Fixtures/pictures/orientation6.jpg", "rb") as file:
    photo = file.read()

# The held connections below are more than a shell's usual 1024 descriptors.
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft < 4096:
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))


def check(condition, what):
    if not condition:
        sys.exit(f"example: {what}")


def exchange(body, source, timeout=60, headers=None):
    """The HTTP status and answer of `body` posted from `source`, sent whole before the answer is
    read (as most scripts do), or the error's name and b"" when no answer came (a reset, a timeout).
    A body that is an iterator of pieces is sent chunked (Transfer-Encoding: chunked), a chunk a piece."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        connection.request("POST", "/uploads?size=32", body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    except OSError as error:
        return type(error).__name__, b""
    finally:
        connection.close()


def post(body, source, timeout=60, headers=None):
    """The HTTP status of `body` posted from `source`, as `exchange`."""
    return exchange(body, source, timeout, headers)[0]


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


def closed_within(connection, seconds):
    """Whether the server closed the connection within `seconds` (all it sent before is read past)."""
    connection.settimeout(seconds)
    try:
        while connection.recv(65536):
            pass
        return True
    except socket.timeout:
        return False
    except OSError:
        return True


def cpu_seconds(pid):
    """The CPU time the server has used, user and system (/proc/PID/stat, in clock ticks)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def chunked(pieces):
    """`pieces` framed as a chunked body (Transfer-Encoding: chunked), its last chunk included."""
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces if piece) + b"0\r\n\r\n"


def head(content_type=None, length=None):
    lines = ["POST /uploads?size=32 HTTP/1.1", "Host: x"]
    lines += [f"Content-Type: {content_type}"] if content_type else []
    lines += [f"Content-Length: {length}"] if length is not None else ["Transfer-Encoding: chunked"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


user = "127.0.0.2"  # the normal user, whose photo must be answered while the attacks go on
boundary = "attack"
form_type = f"multipart/form-data; boundary={boundary}"


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


def endless_forms():
    """A chunked form (no Content-Length) of endless small fields had no cap: it was read and
    parsed to its end. A form has at most 64 parts and 1 MiB besides its file, however framed."""
    field = f"--{boundary}\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n".encode()
    closing = f"--{boundary}--\r\n".encode()
    status = post(iter([field * 64] * 256 + [closing]), "127.0.0.3", headers={"Content-Type": form_type})
    check(status == 413, f"a chunked form of 16384 small fields: {status}")
    text = f"--{boundary}\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\n".encode()
    status = post(iter([text] + [b"x" * (64 << 10)] * 24 + [b"\r\n", closing]), "127.0.0.3", headers={"Content-Type": form_type})
    check(status == 413, f"a chunked form of a 1.5 MiB text field: {status}")
    # A form of the most parts taken, its file the last, is answered.
    file = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\n\r\n".encode() + photo
            + b"\r\n" + closing)
    status = post(iter([field * 63, file]), "127.0.0.3", headers={"Content-Type": form_type})
    check(status == 200, f"a chunked form of 63 fields and a file: {status}")
    print("example: chunked forms past 64 parts or 1 MiB besides the file: 413; of 64 parts: 200", file=sys.stderr)


def headers_a_byte_a_chunk():
    """A part's headers sent as 1-byte chunks were searched again from their start at each chunk:
    16 parts of 16 KiB headers took minutes of CPU. The parser goes on from where it stopped."""
    header = b"Content-Disposition: form-data; name=\"f\"\r\nX-Padding: " + b"p" * (15 << 10) + b"\r\n\r\n"
    pieces = []
    for _ in range(16):
        pieces.append(f"--{boundary}\r\n".encode())
        pieces += [header[index:index + 1] for index in range(len(header))]
        pieces.append(b"x\r\n")
    # The file in 3-byte chunks, so that the boundary after it is cut across chunks too.
    file = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\n\r\n".encode() + photo
            + f"\r\n--{boundary}--\r\n".encode())
    pieces += [file[index:index + 3] for index in range(0, len(file), 3)]
    status, bare = exchange(photo, user)
    check(status == 200, f"the user's photo: {status}")
    connection = connect("127.0.0.3")
    connection.settimeout(120)
    before = cpu_seconds(server_pid)
    connection.sendall(head(content_type=form_type) + chunked(pieces))
    answer = http.client.HTTPResponse(connection)
    answer.begin()
    spent = cpu_seconds(server_pid) - before
    check(answer.status == 200, f"a form of 16 parts whose headers came a byte a chunk: {answer.status}")
    check(json.loads(answer.read()) == json.loads(bare), "the photo of a form sent in small chunks: answered otherwise than sent bare")
    connection.close()
    check(spent < 30, f"a form of 16 parts whose headers came a byte a chunk took {spent:.1f} CPU-s")
    print(f"example: 256 KiB of part headers a byte a chunk, the file 3 bytes a chunk: as sent bare, {spent:.1f} CPU-s",
          file=sys.stderr)


def crowd_of_uploads():
    """Uploads past a client's slots and past the places to read refused bodies were cut with a
    reset: a client that sends its whole body before it reads saw no 503. Each waits for a place."""
    noise = bytes(range(256)) * (16 << 10)  # 4 MiB, more than a socket's buffers hold
    with concurrent.futures.ThreadPoolExecutor(max_workers=32) as pool:
        statuses = list(pool.map(lambda _: post(noise, "127.0.0.4"), range(32)))
    check(all(status in (415, 503) for status in statuses), f"32 uploads at once from one client: {sorted(map(str, statuses))}")
    print(f"example: 32 uploads at once from one client: {statuses.count(415)} 415, {statuses.count(503)} 503, no reset",
          file=sys.stderr)


def slow_heads():
    """1100 connections that sent their request's head slowly held every descriptor: no one was
    answered. A client has 256 open connections at most and all clients 1024; past them a new one
    is answered 503 at once, and a head not whole within 15 s has its connection closed."""
    slow = []
    for index in range(1024):
        connection = connect(f"127.0.1.{1 + index // 256}")
        connection.sendall(b"POST /uploads HTTP/1.1\r\n")
        slow.append(connection)
    time.sleep(2)  # every one of them counted (set up on the server's threads) before the next comes
    late = connect("127.0.1.1")  # the first client's 257th
    line = status_line(late, 10)
    late.close()
    check(line is not None and (line == b"" or b" 503 " in line), f"a client's 257th connection: {line!r}, not refused at once")
    stranger = connect("127.0.1.9")  # the 1025th in all, from a client of its own
    line = status_line(stranger, 10)
    stranger.close()
    check(line is not None and (line == b"" or b" 503 " in line), f"the 1025th connection: {line!r}, not refused at once")
    deadline = time.monotonic() + 30
    still_open = sum(not closed_within(connection, max(0.1, deadline - time.monotonic())) for connection in slow)
    for connection in slow:
        connection.close()
    check(still_open == 0, f"{still_open} heads still coming after 30 s: their connections open")
    check(post(photo, user) == 200, "the user's photo once slow heads were closed")
    print("example: past 256 connections a client, 1024 in all, 503 at once; slow heads closed", file=sys.stderr)


def large_heads():
    """A request's header fields are capped as a browser's need, not at Hummingbird's 80 KiB: past
    8 KiB a field or 32 KiB in all, 400 and the connection closed, before any body is read."""
    for name, fields in [("a 9 KiB field", {"X-Padding": "p" * (9 << 10)}),
                         ("40 KiB of fields", {f"X-Padding-{index}": "p" * 4000 for index in range(10)})]:
        status = post(photo, "127.0.0.5", headers=fields)
        check(status == 400, f"a request with {name}: {status}")
    print("example: header fields past 8 KiB a field, 32 KiB in all: 400", file=sys.stderr)


attacks = [slow_bodies, endless_forms, headers_a_byte_a_chunk, crowd_of_uploads, slow_heads, large_heads]
check(post(photo, user) == 200, "the user's photo, before any attack")
for attack in attacks:
    if not chosen or attack.__name__ in chosen:
        attack()
