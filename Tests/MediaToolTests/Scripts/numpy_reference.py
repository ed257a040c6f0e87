"""Checks dump-array and pack-array against NumPy: for every type and both byte orders,
random arrays of every magnitude written with tofile and np.save print text that reads back, in
NumPy, to the same bits; a structured dtype's records likewise; pack-array --npy gives a file np.load
reads back to the same array. Prints each failure; exits 1 if any."""
import os
import subprocess
import sys

import numpy as np

tool, folder = sys.argv[1], sys.argv[2]
failures = []
rng = np.random.default_rng(18)


def run(arguments, data=None):
    # A deadline on every run of the tool, as on every child the suite starts.
    try:
        process = subprocess.run([tool] + arguments, input=data, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        failures.append(f"{' '.join(arguments)}: did not end within 120 s: killed (a hang)")
        return ""
    if process.returncode != 0:
        failures.append(f"{' '.join(arguments)}: {process.stderr.decode(errors='replace').strip()}")
    return process.stdout.decode()


def values_of(dtype, count):
    kind, size = dtype.kind, dtype.itemsize
    if kind == "f":
        bits = rng.integers(0, (1 << (8 * size)) - 1, count, dtype=np.uint64, endpoint=True).astype(f"u{size}")
        values = bits.view(f"f{size}")
        return np.concatenate([values, np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, -1, 0.1], dtype=f"f{size}")])
    native = dtype.newbyteorder("=")
    info = np.iinfo(native)
    extremes = np.array([info.min, info.max, 0, 1], dtype=native)
    return np.concatenate([rng.integers(info.min, info.max, count, dtype=native, endpoint=True), extremes])


def same_bits(expected, got):
    if expected.dtype.kind == "f":
        nan = np.isnan(expected)
        return bool(np.array_equal(np.isnan(got), nan) and np.array_equal(expected[~nan].view(f"u{expected.itemsize}"),
                                                                            got[~nan].view(f"u{expected.itemsize}")))
    return bool(np.array_equal(expected, got))


names = {"f8": "f64", "f4": "f32", "f2": "f16", "i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64",
         "u1": "u8", "u2": "u16", "u4": "u32", "u8": "u64"}
for code, ours in names.items():
    for order, endian in (("<", "little"), (">", "big")):
        dtype = np.dtype(order + code)
        array = values_of(dtype, 2000).astype(dtype)
        raw = os.path.join(folder, f"{ours}-{endian}.bin")
        array.tofile(raw)
        text = run(["dump-array", "--type", ours, "--endian", endian, raw])
        # Parsed straight into the type, as NumPy reads repr text: no rounding through float64 first.
        back = np.array([dtype.type(token) if dtype.kind == "f" else int(token) for token in text.split()], dtype=dtype)
        if not same_bits(array, back):
            failures.append(f"{ours} {endian}: the text does not read back to the same bits")
        saved = os.path.join(folder, f"{ours}-{endian}.npy")
        np.save(saved, array.reshape(-1, 2) if len(array) % 2 == 0 else array)
        grid = run(["dump-array", saved])
        if [line.split() for line in grid.splitlines()][0].__len__() != (2 if len(array) % 2 == 0 else 1):
            failures.append(f"{ours} {endian}: .npy rows are not the last dimension")
        if grid.split() != text.split():
            failures.append(f"{ours} {endian}: .npy prints other values than the raw file")
        packed = os.path.join(folder, f"{ours}-{endian}-packed.npy")
        run(["pack-array", "--overwrite", "--type", ours, "--endian", endian, "--npy", "-o", packed], data=text.encode())
        if os.path.exists(packed):
            loaded = np.load(packed)
            if loaded.dtype != dtype or not same_bits(array, loaded):
                failures.append(f"{ours} {endian}: pack-array --npy does not load back as {dtype} with the same bits")

# Records: a structured dtype, packed and aligned, both through tofile and np.save.
for aligned in (False, True):
    dtype = np.dtype([("t", "<f8"), ("x", "<i4"), ("flag", "u1"), ("y", "<f4")], align=aligned)
    records = np.zeros(500, dtype=dtype)
    for name in dtype.names:
        records[name] = values_of(dtype[name], 500)[:500]
    raw = os.path.join(folder, f"records-{aligned}.bin")
    records.tofile(raw)
    layout = ["--type", "f64,i32,u8,f32"] + (["--align", "natural"] if aligned else [])
    text = run(["dump-array"] + layout + [raw])
    rows = [line.split() for line in text.splitlines()]
    ok = len(rows) == len(records)
    for name, column in zip(dtype.names, zip(*rows)):
        kind = dtype[name]
        got = np.array([kind.type(token) if kind.kind == "f" else int(token) for token in column], dtype=kind)
        ok = ok and same_bits(records[name], got)
    if not ok:
        failures.append(f"records (aligned {aligned}): the text does not read back to the same fields")
    saved = os.path.join(folder, f"records-{aligned}.npy")
    np.save(saved, records)
    if run(["dump-array", saved]) != text:
        failures.append(f"records (aligned {aligned}): .npy prints other values than the raw file")
    packed = os.path.join(folder, f"records-{aligned}-packed.npy")
    run(["pack-array", "--overwrite"] + layout + ["--names", "t,x,flag,y", "--npy", "-o", packed], data=text.encode())
    if os.path.exists(packed):
        loaded = np.load(packed)
        if loaded.dtype != dtype or any(not same_bits(records[name], loaded[name]) for name in dtype.names):
            failures.append(f"records (aligned {aligned}): pack-array --npy loads back as {loaded.dtype}, not {dtype}")

# Fortran order.
fortran = np.asfortranarray(np.arange(35, dtype="<i4").reshape(5, 7))
np.save(os.path.join(folder, "fortran.npy"), fortran)
if run(["dump-array", os.path.join(folder, "fortran.npy")]).split() != [str(v) for v in fortran.flatten(order="C")]:
    failures.append("a Fortran-order array does not print in C order")

for failure in failures:
    print(failure)
sys.exit(1 if failures else 0)
