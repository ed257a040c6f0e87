"""scripts/bench example: the example upload service (Examples/UploadService, release) under attack.
A normal photo's latency is measured on an idle server, then while hostile clients upload without
pause: MP4s whose sample table claims 40 million samples, progressive JPEGs of 3000 scans, and
20 MB of noise, all from one address (127.0.0.1) while the normal user is another (127.0.0.2):
the service shares its decoders' turns between clients. The bar (issue 39): within 2x of the
idle latency."""
import http.client
import os
import socket
import statistics
import struct
import sys
import subprocess
import threading
import time

from measure import arguments

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from loopback import listens  # noqa: E402 (scripts/, beside this folder)

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def decoys():
    """The attackers' files, made from the repository's fixtures."""
    counter = open(os.path.join(ROOT, "Fixtures/video/counter.mp4"), "rb").read()
    stsz = counter.index(b"stsz")
    samples = counter[:stsz + 8] + struct.pack(">II", 100, 40_000_000) + counter[stsz + 16:]
    progressive = open(os.path.join(ROOT, "Fixtures/pictures/progressive6.jpg"), "rb").read()
    last = progressive.rindex(b"\xff\xda")
    scans = progressive[:-2] + progressive[last:-2] * 3000 + b"\xff\xd9"
    noise = os.urandom(20 << 20)
    return {"samples": samples, "scans": scans, "noise": noise}


def photo():
    path = os.path.join(FOLDER, "photo-8mp.jpg")
    if not os.path.exists(path):
        subprocess.run(["/usr/bin/python3", "-c", "from PIL import Image; Image.effect_mandelbrot((3456, 2304), (-2.2, -1.2, 1.0, 1.2), 60)"
                        f".convert('RGB').save('{path}', quality=90)"], check=True)
    return open(path, "rb").read()


def post(port, body, timeout=120, source="127.0.0.1"):
    """(seconds, HTTP status), the status "timeout" when no answer came in time. Like most scripts,
    it sends its whole body before it reads, so it is answered only if the server reads it all.
    `source` is the client's address: the attackers are one host, the normal user another."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    started = time.perf_counter()
    try:
        connection.request("POST", "/uploads?size=320", body=body, headers={"Connection": "close"})
        response = connection.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = "timeout"
    finally:
        connection.close()
    return time.perf_counter() - started, status


def main():
    options = arguments(__doc__)
    package = os.path.join(ROOT, "Examples", "UploadService")
    subprocess.run(["swift", "build", "-c", "release", "-q", "--package-path", package], check=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = dict(os.environ, PATH=os.path.dirname(MEDIATOOL) + ":" + os.environ["PATH"])
    server = subprocess.Popen([os.path.join(package, ".build", "release", "UploadService"), "--port", str(port)],
                              env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not listens(port, 60):
            raise SystemExit("bench: the service did not listen")
        body = photo()
        runs = max(options.runs, 5) * 2
        user = "127.0.0.2"  # another host than the attackers' (all of 127/8 is loopback)
        post(port, body, source=user)  # the workers started
        idle = [post(port, body, source=user)[0] for _ in range(runs)]
        attacks = decoys()
        stop = threading.Event()
        answered = {name: [] for name in attacks}

        def attacker(name):
            while not stop.is_set():
                answered[name].append(post(port, attacks[name], timeout=20)[1])

        attackers = [threading.Thread(target=attacker, args=(name,)) for name in ["samples"] * 5 + ["scans"] * 5 + ["noise"] * 2]
        for thread in attackers:
            thread.start()
        time.sleep(2)  # the attack under way before the first measured request
        attacked = [post(port, body, source=user) for _ in range(runs)]
        stop.set()
        for thread in attackers:
            thread.join()
    finally:
        server.terminate()
        server.wait()
    idle_median = statistics.median(idle)
    attacked_median = statistics.median(seconds for seconds, _ in attacked)
    print(f"a normal photo (8 MP JPEG, 320 px thumbnail and probe), median of {runs}: idle {idle_median * 1000:.0f} ms, "
          f"under attack {attacked_median * 1000:.0f} ms, {attacked_median / idle_median:.2f}x (target <= 2); "
          f"statuses under attack: {sorted(set(status for _, status in attacked))}")
    for name, statuses in answered.items():
        print(f"  {name}: {len(statuses)} uploads, statuses {sorted(set(map(str, statuses)))}")


if __name__ == "__main__":
    main()
