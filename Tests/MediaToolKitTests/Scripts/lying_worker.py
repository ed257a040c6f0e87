#!/usr/bin/python3
"""A worker gone wrong, for the library's tests: it speaks mediatool's worker protocol on descriptor
3 (packets led by a byte that says whether more follow; messages as Sources/Sandbox/WireMessage.swift
writes them) and lies as LYING_WORKER says:

  silent       never answers its setup
  hog          asks for the whole budget, then for one byte more, and waits
  big          answers every picture asked with one of 4096x4096
  swollen      answers with a report of 60 million nulls
  gps          answers a probe with a position
  environment  fails, its message the names of its environment's variables
  protocol-1   says hello as a worker of protocol 1 did (no version)
  protocol-5   says hello as a worker of a protocol to come
  progress     says it made one more frame every 0.3 s for 3 s, then answers a probe
  stuck        says it made frame 1 every 0.3 s, again and again, for 9 s, then answers as progress does
  deployment   fails every job, saying it is the deployment's fault
  descriptors  says hello with 4 descriptors of this script attached, fails its job and ends"""
import array
import os
import socket
import struct
import sys
import time

MODE = os.environ.get("LYING_WORKER", "")
channel = socket.socket(fileno=3)
PACKET = 64 << 10


def send(message):
    offset = 0
    while True:
        end = min(len(message), offset + PACKET - 1)
        channel.sendmsg([bytes([1 if end < len(message) else 0]) + message[offset:end]])
        offset = end
        if offset >= len(message):
            return


def receive():
    data, descriptors = b"", []
    while True:
        packet, ancillary, _, _ = channel.recvmsg(PACKET, socket.CMSG_SPACE(16))
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                numbers = array.array("i")
                numbers.frombytes(payload[:len(payload) - len(payload) % 4])
                descriptors += list(numbers)
        if not packet:
            return None, []
        data += packet[1:]
        if packet[0] == 0:
            return data, descriptors


def integer(value):
    return struct.pack("<q", value)


def string(text):
    data = text.encode()
    return integer(len(data)) + data


def done(fields=b"", count=0):
    send(b"\x04\x07" + integer(count) + fields + integer(0))


def write_all(descriptor, data):
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]


setup, _ = receive()
if MODE == "silent":
    time.sleep(600)
    sys.exit(0)
if MODE == "protocol-1":
    send(b"\x02" + integer(0) + integer(os.getpid()))
elif MODE == "protocol-5":
    send(b"\x11" + integer(5) + b"whatever protocol 5 says next")
elif MODE == "descriptors":
    # This script itself, which nothing else of the library's process opens: the tests count those.
    itself = os.open(os.path.abspath(__file__), os.O_RDONLY)
    socket.send_fds(channel, [b"\x00\x11" + integer(4) + integer(0) + integer(os.getpid())], [itself] * 4)
else:
    send(b"\x11" + integer(4) + integer(0) + integer(os.getpid()))
while True:
    job, descriptors = receive()
    if job is None:
        sys.exit(0)
    output = descriptors[1] if len(descriptors) > 1 else None
    if MODE == "hog":
        maximum = struct.unpack("<q", setup[1:9])[0]
        send(b"\x0a" + integer(maximum))
        receive()
        send(b"\x0a" + integer(1))
        time.sleep(600)
    elif MODE == "big":
        side = 4096
        header = b"MTPX" + struct.pack("<III", 0, side, side) + bytes([4, 1, 1, 0]) + b"\0" * 48 + b"\0" * 20
        write_all(output, header + b"\x80" * (side * side * 4))
        os.close(output)
        done()
    elif MODE == "swollen":
        count = 60 << 20
        done(string("x") + b"\x06" + integer(count) + b"\x05" * count, 1)
    elif MODE == "gps":
        fields = (string("kind") + b"\x01" + string("picture") + string("format") + b"\x01" + string("jpeg")
                  + string("mime") + b"\x01" + string("image/jpeg")
                  + string("gps") + b"\x07" + integer(2) + string("latitude") + b"\x03" + struct.pack("<d", 51.5)
                  + string("longitude") + b"\x03" + struct.pack("<d", -0.1))
        done(fields, 4)
    elif MODE in ("progress", "stuck"):
        for frame in range(1, 11):
            send(b"\x12" + integer(frame if MODE == "progress" else 1) + integer(1000 * frame) + integer(10000))
            time.sleep(0.3)
        if MODE == "stuck":
            for _ in range(20):
                send(b"\x12" + integer(1) + integer(1000) + integer(10000))
                time.sleep(0.3)
        done(string("kind") + b"\x01" + string("picture") + string("format") + b"\x01" + string("jpeg")
             + string("mime") + b"\x01" + string("image/jpeg"), 3)
    elif MODE == "descriptors":
        send(b"\x05" + string("a hello with descriptors") + string("damaged"))
        sys.exit(0)
    elif MODE == "deployment":
        send(b"\x05" + string("your installation is broken") + string("deployment"))
    elif MODE == "environment":
        send(b"\x05" + string(" ".join(sorted(os.environ))) + string("damaged"))
    else:
        send(b"\x05" + string("no such mode") + string("damaged"))
