"""scripts/bench doubles: text output of 16 MB of random doubles, against od and numpy; and peak
memory on a 1 GB input against a 1 KB one; the text read back by pack-doubles against numpy's
text reader (MB/s of text). Then dump-array: 16 MB of float32 against numpy's repr
of each element and od -t f4, 16 MB of int16 against od -t d2, and peak memory on a 1 GiB .npy.
--only doubles|packing|arrays runs one part."""
import os
import random
import shutil
import struct
import subprocess
import sys

from measure import arguments, compare, report, run_once

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]
VALUE_COUNT = 2 * 1024 * 1024  # 16 MiB

NUMPY_DUMP = (
    "import sys, numpy as np\n"
    "a = np.fromfile(sys.argv[1], dtype='<f8')\n"
    "sys.stdout.write('\\n'.join(map(repr, a.tolist())))\n"
    "sys.stdout.write('\\n')\n"
)


def random_doubles(path):
    """Doubles of every magnitude from 1e-300 to 1e300, both signs; the same file every time."""
    if os.path.exists(path):
        return
    generator = random.Random(16)
    values = [generator.gauss(0, 1) * 10.0 ** generator.uniform(-300, 300) for _ in range(VALUE_COUNT)]
    with open(path + ".part", "wb") as out:
        out.write(struct.pack(f"<{VALUE_COUNT}d", *values))
    os.replace(path + ".part", path)


def python_with_numpy():
    for candidate in (sys.executable, "/usr/bin/python3"):
        if subprocess.run([candidate, "-c", "import numpy"], capture_output=True).returncode == 0:
            return candidate
    raise SystemExit("bench: no python3 with numpy (scripts/bootstrap bench installs python3-numpy)")


NUMPY_DUMP_F32 = (
    "import sys, numpy as np\n"
    "a = np.fromfile(sys.argv[1], dtype='<f4')\n"
    "sys.stdout.write('\\n'.join(map(repr, a)))\n"
    "sys.stdout.write('\\n')\n"
)


def arrays(options):
    data = os.path.join(FOLDER, "floats-16M.f32")
    if not os.path.exists(data):
        generator = random.Random(32)
        count = 4 * 1024 * 1024
        values = [generator.gauss(0, 1) * 10.0 ** generator.uniform(-30, 30) for _ in range(count)]
        with open(data + ".part", "wb") as out:
            out.write(struct.pack(f"<{count}f", *values))
        os.replace(data + ".part", data)
    print(f"16 MiB of random float32, text to /dev/null, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "dump-array", "--type", "f32", data],
        "od": ["od", "-A", "n", "-v", "-t", "f4", "--endian=little", data],
        "numpy": [python_with_numpy(), "-c", NUMPY_DUMP_F32, data],
    }, options.runs)
    report(results, "mediatool")
    print("targets: at least 10x numpy, 15x od")
    shorts = os.path.join(FOLDER, "shorts-16M.i16")
    if not os.path.exists(shorts):
        with open(shorts, "wb") as out:
            out.write(random.Random(16).randbytes(16 * 1024 * 1024))
    print(f"16 MiB of random int16, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "dump-array", "--type", "i16", shorts],
        "od": ["od", "-A", "n", "-v", "-t", "d2", "--endian=little", shorts],
    }, options.runs)
    report(results, "mediatool")
    small = os.path.join(FOLDER, "small.npy")
    large = os.path.join(FOLDER, "large.npy")
    numpy = python_with_numpy()
    subprocess.run([numpy, "-c", f"import numpy as np; np.save('{small}', np.zeros(128))"], check=True)
    subprocess.run([numpy, "-c", f"import numpy as np; np.lib.format.open_memmap('{large}', mode='w+', dtype='<f8', shape=(1 << 27,))"], check=True)
    _, small_peak = run_once([MEDIATOOL, "dump-array", small])
    seconds, large_peak = run_once([MEDIATOOL, "dump-array", large])
    os.remove(large)
    print(f"peak memory: 1 KiB .npy {small_peak / 1024:.1f} MiB, 1 GiB .npy {large_peak / 1024:.1f} MiB "
          f"({seconds:.1f} s), difference {(large_peak - small_peak) / 1024:.1f} MiB (target: within 8 MiB)")


NUMPY_PACK = (
    "import sys, numpy as np\n"
    "np.fromfile(sys.argv[1], dtype='<f8', sep='\\n').tofile(sys.argv[2])\n"
)


def packing(options):
    """Text to binary: dump-doubles' own output (shortest round-trip digits, up to 17 of them, every
    magnitude), read back by pack-doubles, against numpy reading the same text."""
    data = os.path.join(FOLDER, "doubles-16M.bin")
    random_doubles(data)
    text = os.path.join(FOLDER, "doubles-16M.txt")
    if not os.path.exists(text):
        with open(text + ".part", "wb") as out:
            subprocess.run([MEDIATOOL, "dump-doubles", data], stdout=out, check=True)
        os.replace(text + ".part", text)
    size = os.path.getsize(text)
    packed = os.path.join(FOLDER, "packed.bin")
    print(f"{size / 1e6:.0f} MB of text (2 Mi doubles, up to 17 digits), packed to binary, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "pack-doubles", text, "-o", packed, "--overwrite"],
        "numpy": [python_with_numpy(), "-c", NUMPY_PACK, text, packed],
    }, options.runs)
    report(results, "mediatool")
    print(f"mediatool reads {size / 1e6 / results['mediatool'][0]:.0f} MB/s of text (target: at least 100)")
    os.remove(packed)


def main():
    options = arguments(__doc__)
    if options.only in (None, "doubles"):
        doubles(options)
    if options.only in (None, "packing"):
        packing(options)
    if options.only in (None, "arrays"):
        arrays(options)


def doubles(options):
    data = os.path.join(FOLDER, "doubles-16M.bin")
    random_doubles(data)
    print(f"16 MiB of random doubles, text to /dev/null, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "dump-doubles", data],
        "od": ["od", "-A", "n", "-v", "-t", "f8", "--endian=little", data],
        "numpy": [python_with_numpy(), "-c", NUMPY_DUMP, data],
    }, options.runs)
    report(results, "mediatool")
    print("targets: at least 10x numpy, 15x od")

    small = os.path.join(FOLDER, "doubles-1K.bin")
    with open(small, "wb") as out:
        out.write(open(data, "rb").read(1024))
    large = os.path.join(FOLDER, "doubles-1G.bin")
    with open(large, "wb") as out:
        out.truncate(1 << 30)  # sparse: reads as zeros, costs no disk
    _, small_peak = run_once([MEDIATOOL, "dump-doubles", small])
    seconds, large_peak = run_once([MEDIATOOL, "dump-doubles", large])
    os.remove(large)
    print(f"peak memory: 1 KiB input {small_peak / 1024:.1f} MiB, 1 GiB input {large_peak / 1024:.1f} MiB "
          f"({seconds:.1f} s), difference {(large_peak - small_peak) / 1024:.1f} MiB")
    print("targets: difference within 8 MiB, under 64 MiB")


if __name__ == "__main__":
    main()
