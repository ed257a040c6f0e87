#!/usr/bin/python3
"""Requests against the example upload service (Examples/UploadService) on loopback: a phone's
portrait HLG video, a phone's rotated JPEG, and a file that is no media. Each answer is checked
against what the fixtures are known to be and against the command line's thumbnail of the same file.

usage: upload_request.py PORT REPOSITORY MEDIATOOL"""
import base64
import http.client
import io
import json
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

from PIL import Image

from loopback import listens

port, root, mediatool = int(sys.argv[1]), sys.argv[2], sys.argv[3]

# The server is ready when it accepts a connection; it has a minute to start.
if not listens(port, 60):
    sys.exit(f"example: the upload service did not listen on port {port} within 60 s")


def upload(fixture, size, form=False, source="127.0.0.1"):
    """The fixture as the request's body, or (form) as a browser sends a form's file: a text field,
    then the file, in multipart/form-data (the boundary as curl -F makes one), from the client
    `source` (any address in 127/8)."""
    with open(f"{root}/Fixtures/{fixture}", "rb") as file:
        body = file.read()
    headers = {}
    if form:
        boundary = "------------------------d74496d66958873e"
        name = fixture.split("/")[-1]
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nmy photo\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + body + f"\r\n--{boundary}--\r\n".encode()
        headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        connection.request("POST", f"/uploads?size={size}", body=body, headers=headers)
        response = connection.getresponse()
        answer = response.read()
        return response.status, json.loads(answer) if response.status == 200 else answer.decode()
    finally:
        connection.close()


def command_line_thumbnail(fixture, size):
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([mediatool, "thumbnail", f"{root}/Fixtures/{fixture}", "--size", f"{size}x{size}",
                        "-o", f"{folder}/t.png"], check=True, timeout=60)
        with Image.open(f"{folder}/t.png") as picture:
            return picture.convert("RGB").tobytes()


def check(condition, what):
    if not condition:
        sys.exit(f"example: {what}")


for fixture, size, shown, thumbnail in [
    ("probe/phone-hlg-portrait.mov", 320, (64, 96), (64, 96)),
    ("pictures/orientation6.jpg", 32, (61, 41), (32, 22)),
]:
    status, answer = upload(fixture, size)
    check(status == 200, f"{fixture}: status {status}: {answer}")
    probe, picture = answer["probe"], answer["thumbnail"]
    check((probe["width"], probe["height"]) == shown, f"{fixture}: probe says {probe['width']}x{probe['height']}, not {shown}")
    check("gps" not in probe, f"{fixture}: the service gave the place away")
    check((picture["width"], picture["height"]) == thumbnail, f"{fixture}: thumbnail {picture['width']}x{picture['height']}")
    with Image.open(io.BytesIO(base64.b64decode(picture["png"]))) as png:
        check(png.format == "PNG" and png.size == thumbnail, f"{fixture}: the PNG is {png.format} {png.size}")
        check(png.convert("RGB").tobytes() == command_line_thumbnail(fixture, size),
              f"{fixture}: the service's thumbnail is not the command line's")
    print(f"example: {fixture}: {probe['kind']} {shown[0]}x{shown[1]}, thumbnail {thumbnail[0]}x{thumbnail[1]}", file=sys.stderr)

# A browser's form upload (curl -F file=@photo.jpg) was read as a video of JPEG
# frames, 422 "the duration is unknown". Its file is taken, and answered as the same file sent bare.
for fixture, size in [("pictures/orientation6.jpg", 32), ("probe/phone-hlg-portrait.mov", 320)]:
    status, answer = upload(fixture, size, form=True)
    check(status == 200, f"{fixture} in a form: status {status}: {answer}")
    check(answer == upload(fixture, size)[1], f"{fixture} in a form: answered otherwise than sent bare")
    print(f"example: {fixture} in a form: as sent bare", file=sys.stderr)
status, answer = upload("video/not-media.mp4", 320, form=True)
check(status == 415, f"not-media.mp4 in a form: status {status}: {answer}")

status, answer = upload("video/not-media.mp4", 320)
check(status == 415 and "upload: not a media file FFmpeg can open" in answer, f"not-media.mp4: status {status}: {answer}")
print("example: not-media.mp4: 415 Unsupported Media Type", file=sys.stderr)


def raw_request(headers, body, expect_more):
    """Sends `headers` and `body` on a socket of its own and reads the answer's status line without
    sending the rest the headers promise (`expect_more`): the server must answer from what it has."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        connection.sendall(headers.encode() + body)
        answer = b""
        while b"\r\n" not in answer:
            piece = connection.recv(4096)
            if not piece:
                break
            answer += piece
        return answer.split(b"\r\n")[0].decode(errors="replace")


# An upload that is no media is refused from its first MiB, while its client still has 98 MiB to send.
noise = bytes(range(256)) * (2 << 12)
status_line = raw_request(f"POST /uploads HTTP/1.1\r\nHost: x\r\nContent-Length: {100 << 20}\r\n\r\n", noise, True)
check(" 415 " in status_line, f"2 MiB of noise of a promised 100 MiB: {status_line!r}")
print("example: noise refused from its first MiB, the rest never sent", file=sys.stderr)

# A client that sends all before it reads (urllib, with Connection: close) was never answered: the
# service had stopped reading. What follows a refusal is read past, so the 415 reaches it.
request = urllib.request.Request(f"http://127.0.0.1:{port}/uploads", data=noise * 4, method="POST")
try:
    urllib.request.urlopen(request, timeout=60)
    check(False, "8 MiB of noise was answered 200")
except urllib.error.HTTPError as error:
    check(error.code == 415, f"8 MiB of noise sent before reading: {error.code}")
except OSError as error:
    check(False, f"8 MiB of noise sent before reading: no answer ({error})")
print("example: noise sent whole before reading: 415", file=sys.stderr)

# A body that says it is over the largest upload is refused before any of it is read.
status_line = raw_request(f"POST /uploads HTTP/1.1\r\nHost: x\r\nContent-Length: {300 << 20}\r\n\r\n", b"", True)
check(" 413 " in status_line, f"a promised 300 MiB: {status_line!r}")
print("example: a promised 300 MiB refused at once", file=sys.stderr)

# A form without a file is the client's mistake.
boundary = "xyz"
form = f"--{boundary}\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nno file\r\n--{boundary}--\r\n".encode()
request = urllib.request.Request(f"http://127.0.0.1:{port}/uploads", data=form, method="POST",
                                 headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
try:
    urllib.request.urlopen(request, timeout=60)
    check(False, "a form without a file was answered 200")
except urllib.error.HTTPError as error:
    check(error.code == 400, f"a form without a file: {error.code}")
print("example: a form without a file: 400", file=sys.stderr)

# Sixteen requests at once, photos, videos and noise, from four clients (each has four uploads
# under way at most): each gets its own right answer.
from concurrent.futures import ThreadPoolExecutor

jobs = [("pictures/orientation6.jpg", 32, 200), ("probe/phone-hlg-portrait.mov", 320, 200), ("video/not-media.mp4", 320, 415),
        ("video/counter.mp4", 64, 200)] * 4
with ThreadPoolExecutor(max_workers=16) as pool:
    answers = list(pool.map(lambda numbered: upload(numbered[1][0], numbered[1][1], source=f"127.0.0.{1 + numbered[0] % 4}"),
                            enumerate(jobs)))
for (fixture, size, expected), (status, answer) in zip(jobs, answers):
    check(status == expected, f"{fixture} among 16 at once: status {status}: {answer}")
    if status == 200:
        check(answer == upload(fixture, size)[1], f"{fixture} among 16 at once: answered otherwise than alone")
print("example: 16 requests at once, each answered as alone", file=sys.stderr)
