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


def upload(fixture, size):
    with open(f"{root}/Fixtures/{fixture}", "rb") as file:
        body = file.read()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/uploads?size={size}", data=body, method="POST")
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

status, answer = upload("video/not-media.mp4", 320)
check(status == 415 and "upload: not a media file FFmpeg can open" in answer, f"not-media.mp4: status {status}: {answer}")
print("example: not-media.mp4: 415 Unsupported Media Type", file=sys.stderr)
