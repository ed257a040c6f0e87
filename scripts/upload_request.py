#!/usr/bin/python3
"""Requests against the example upload service (Examples/UploadService) on loopback: a phone's
portrait HLG video, a phone's rotated JPEG, and a file that is no media. Each answer is checked
against what the fixtures are known to be and against the command line's thumbnail of the same file.

usage: upload_request.py PORT REPOSITORY MEDIATOOL"""
import base64
import io
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from PIL import Image

port, root, mediatool = int(sys.argv[1]), sys.argv[2], sys.argv[3]

# The server is ready when it accepts a connection; it has a minute to start.
deadline = time.monotonic() + 60
while True:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        break
    except OSError:
        if time.monotonic() > deadline:
            sys.exit(f"example: the upload service did not listen on port {port} within 60 s")
        time.sleep(0.1)


def upload(fixture, size, form=False):
    """The fixture as the request's body, or (form) as a browser sends a form's file: a text field,
    then the file, in multipart/form-data (the boundary as curl -F makes one)."""
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
    request = urllib.request.Request(f"http://127.0.0.1:{port}/uploads?size={size}", data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


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
