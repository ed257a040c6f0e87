"""scripts/bench library: MediaToolKit's calls against the command line's jobs, one process a job on
each side (Examples/LibraryBench, release), so that both pay the same start: a video's exact frame,
a photo's three sizes, a crop, 200 uploads probed, and the statistics of 16 MiB of doubles. Each
side twice: in-process (the library's `.inProcess`, the tool's `--sandbox off`) and sandboxed (the
library's default workers, the tool's default). The bar: the library no slower than the command
line, job for job. Then what a call costs in a server, workers kept warm: a thumbnail and a probe,
50 calls one after another in one process, in-process against sandboxed."""
import importlib.util
import os
import subprocess

import crop
import probe
import thumbnail
from measure import arguments, compare, table

# This folder's doubles.py by its path: probe.py puts scripts/fixtures, which has a doubles.py too, first on the path.
_spec = importlib.util.spec_from_file_location("bench_doubles", os.path.join(os.path.dirname(os.path.abspath(__file__)), "doubles.py"))
bench_doubles = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_doubles)

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def library_bench():
    package = os.path.join(ROOT, "Examples", "LibraryBench")
    subprocess.run(["swift", "build", "-c", "release", "-q", "--package-path", package], check=True)
    return os.path.join(package, ".build", "release", "LibraryBench")


def main():
    options = arguments(__doc__)
    bench = library_bench()
    out = os.path.join(FOLDER, "library-out")
    os.makedirs(out, exist_ok=True)
    video = os.path.join(FOLDER, "clip-1080p-gop10s.mp4")
    thumbnail.clip(video)
    jpeg = os.path.join(FOLDER, "photo-24mp-orientation6.jpg")
    crop.pictures(jpeg, os.path.join(FOLDER, "photo-24mp.png"))
    uploads = os.path.join(FOLDER, "probe-uploads")
    if not os.path.isdir(uploads):
        probe.uploads()
    doubles = os.path.join(FOLDER, "doubles-16M.bin")
    bench_doubles.random_doubles(doubles)
    off = ["--sandbox", "off"]
    jobs = {
        "still": ({"library": [bench, "still", video, "15", f"{out}/l.png"],
                   "mediatool": [MEDIATOOL, "thumbnail", "--overwrite", "--at", "15", video, "-o", f"{out}/m.png"] + off},
                  "1080p H.264, the exact frame 5 s into a 10 s GOP, full-size PNG"),
        "sizes": ({"library": [bench, "sizes", jpeg, f"{out}/l", "1600,640,160"],
                   "mediatool": [MEDIATOOL, "thumbnail", "--overwrite", "--size", "1600x1600", "--size", "640x640", "--size", "160x160",
                                 jpeg, "-o", f"{out}/m-{{size}}.png"] + off},
                  "24 MP JPEG (orientation 6), three sizes from one decode, PNG"),
        "crop": ({"library": [bench, "crop", jpeg, "1000,800,1200,900", f"{out}/lc.png"],
                  "mediatool": [MEDIATOOL, "crop", "--overwrite", "--rect", "1000,800,1200,900", jpeg, "-o", f"{out}/mc.png"] + off},
                 "24 MP JPEG (orientation 6), a 1200x900 crop as shown, PNG"),
        "probe": ({"library": [bench, "probe", uploads],
                   "mediatool": [MEDIATOOL, "probe", "--json", "--jobs", "1", uploads] + off},
                  "200 uploads (photos and videos) probed one after another"),
        "stats": ({"library": [bench, "stats", doubles],
                   "mediatool": [MEDIATOOL, "dump-doubles", "--stats", doubles]},
                  "16 MiB of doubles: count, sum, minimum, maximum"),
    }
    sandboxed = {"LIBRARY_WORKER": MEDIATOOL}
    for name, (tools, what) in jobs.items():
        if options.only and not name.startswith(options.only):
            continue
        print(f"{what}, median of {options.runs} runs")
        tools = dict(tools)
        tools["library sandboxed"] = ["/usr/bin/env", f"LIBRARY_WORKER={MEDIATOOL}"] + tools["library"]
        tools["mediatool sandboxed"] = [word for word in tools["mediatool"] if word not in off]
        results = compare(tools, options.runs)
        table(results)
        print(f"library / command line: {results['library'][0] / results['mediatool'][0]:.2f} of the time in-process, "
              f"{results['library sandboxed'][0] / results['mediatool sandboxed'][0]:.2f} sandboxed\n")
    if not options.only or options.only.startswith("calls"):
        photo = os.path.join(FOLDER, "photo-8mp.jpg")
        if not os.path.exists(photo):
            subprocess.run(["/usr/bin/python3", "-c", "from PIL import Image; Image.effect_mandelbrot((3456, 2304), (-2.2, -1.2, 1.0, 1.2), 60)"
                            f".convert('RGB').save('{photo}', quality=90)"], check=True)
        for kind, path in (("thumbnail", photo), ("probe", video)):
            said = {}
            for side, environment in (("in-process", {}), ("sandboxed", sandboxed)):
                run = subprocess.run([bench, "calls", "50", kind, path], check=True, capture_output=True, text=True,
                                     env={**os.environ, **environment})
                said[side] = float(run.stdout.strip())
            print(f"a {kind} call in a server (50 one after another, median): in-process {said['in-process']:.1f} ms, "
                  f"sandboxed {said['sandboxed']:.1f} ms, +{said['sandboxed'] - said['in-process']:.1f} ms a call")


if __name__ == "__main__":
    main()
