"""Checks pack-array for the types other than f64 against NumPy: the bytes it
writes are the ones NumPy writes for the same values (tofile, np.save), never the tool's own.

    numpy_pack.py TOOL FOLDER SET

SET is one of:
- roundtrip: for every type but f64, in both byte orders, random bit patterns written with
  NumPy's tofile are dumped by dump-array in each layout (--index, --hex, csv with --header, json,
  columns) and packed back by pack-array with the same --index/--hex/--header: the raw output is
  the file's bytes exactly (with --hex, NaN payloads included; without, every NaN becomes the
  quiet NaN NumPy writes for np.nan in that type, and the rest is the file's bytes exactly).
  Sets of their own: roundtrip-json-hex, JSON's {"value": V, "hex": H} objects (H has the type's
  2 to 8 bytes); roundtrip-json-64bit, i64 and u64 in JSON, whose integers pass 2^53.
- numpy-text: NumPy's own text of the values (repr's shortest digits, str of integers) packed
  raw is NumPy's tofile of them; packed with --npy --columns C, np.load gives the dtype, the shape
  (N/C, C) and the same bits.
- bf16: decimals packed as bf16 are the upper half of the correctly rounded f32 (found exactly,
  with fractions), rounded to nearest even: ties both ways, decimals just past a tie that the f32
  rounds onto it (the README's "to nearest even from the correctly rounded f32"), random decimals.
- f16: decimals packed as f16 are the f16 nearest the decimal (found exactly, with fractions; ties
  to even): NumPy's float16 bytes of it.
- f16-double-rounding: decimals just past a midpoint of two f16s whose nearest f32 is the
  midpoint itself (2049.0001): the f16 nearest the decimal is the one past the midpoint.

Prints each failure; exits 1 if any."""
import os
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np

tool, folder, which = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []
rng = np.random.default_rng(24)

CODES = {"f32": "f4", "f16": "f2", "i8": "i1", "i16": "i2", "i32": "i4", "i64": "i8",
         "u8": "u1", "u16": "u2", "u32": "u4", "u64": "u8"}


def run(arguments, data=None):
    """The tool's run (a deadline on each, as on every child the suite starts): its output, or None."""
    try:
        process = subprocess.run([tool] + arguments, input=data, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        failures.append(f"{' '.join(arguments)}: did not end within 120 s: killed (a hang)")
        return None
    if process.returncode != 0:
        failures.append(f"{' '.join(arguments)}: exit {process.returncode}: {process.stderr.decode(errors='replace').strip()}")
        return None
    return process.stdout


def pack(arguments, text, name):
    """pack-array's raw output for `text`, or None."""
    out = os.path.join(folder, name)
    if run(["pack-array", "--overwrite"] + arguments + ["-o", out], data=text) is None:
        return None
    with open(out, "rb") as packed:
        return packed.read()


def bit_patterns(ours, order, count):
    """`count` random bit patterns of the type (every float class: NaNs with payloads, subnormals,
    infinities), and the extremes, as NumPy holds them in byte order `order`; bf16 as <u2/>u2."""
    size = 2 if ours == "bf16" else int(CODES[ours][1])
    bits = rng.integers(0, (1 << (8 * size)) - 1, count, dtype=np.uint64, endpoint=True).astype(f"u{size}")
    if ours == "bf16":
        return bits.astype(order + "u2")
    kind = CODES[ours]
    if kind[0] == "f":
        values = np.concatenate([bits.view(kind), np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, -1, 0.1], dtype=kind)])
    else:
        info = np.iinfo(kind)
        values = np.concatenate([bits.view(kind), np.array([info.min, info.max, 0, 1], dtype=kind)])
    return values.astype(order + kind)


def canonical_nans(array, ours):
    """The bytes pack-array must write for `array` dumped without --hex: every NaN the quiet NaN
    NumPy writes for np.nan in the type (bf16: the upper half of np.float32's), the rest as they are."""
    order = array.dtype.byteorder if array.dtype.byteorder in "<>" else "<"
    if ours == "bf16":
        halves = array.astype("=u2")
        nan = ((halves & 0x7F80) == 0x7F80) & ((halves & 0x7F) != 0)
        quiet = np.uint16(np.array([np.nan], dtype=np.float32).view(np.uint32)[0] >> 16)
        return np.where(nan, quiet, halves).astype(order + "u2").tobytes()
    if array.dtype.kind != "f":
        return array.tobytes()
    nan = np.isnan(array)
    return np.where(nan, np.array(np.nan, dtype=array.dtype), array).astype(array.dtype).tobytes()


LAYOUTS = [
    [], ["--index"], ["--hex"], ["--index", "--hex"], ["--columns", "3", "--index", "--hex"],
    ["--format", "csv", "--header"], ["--format", "csv", "--header", "--index", "--hex", "--columns", "4"],
    ["--format", "json"], ["--format", "json", "--hex", "--columns", "3"],
]


def roundtrip_set(ours, layout):
    """The set a round trip belongs to: JSON's {"value", "hex"} objects, and JSON integers past
    2^53 (i64, u64), are sets of their own."""
    if "json" in layout and "--hex" in layout:
        return "roundtrip-json-hex"
    if "json" in layout and ours in ("i64", "u64"):
        return "roundtrip-json-64bit"
    return "roundtrip"


if which.startswith("roundtrip"):
    for ours in ["f32", "f16", "bf16", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]:
        for order, endian in (("<", "little"), (">", "big")):
            array = bit_patterns(ours, order, 3001)
            raw = os.path.join(folder, f"{ours}-{endian}.bin")
            array.tofile(raw)
            for layout in [layout for layout in LAYOUTS if roundtrip_set(ours, layout) == which]:
                text = run(["dump-array", "--type", ours, "--endian", endian] + layout + [raw])
                if text is None:
                    continue
                again = [option for option in layout if option in ("--index", "--hex", "--header")]
                packed = pack(["--type", ours, "--endian", endian] + again, text, f"{ours}-{endian}.packed")
                if packed is None:
                    continue
                expected = array.tobytes() if "--hex" in layout else canonical_nans(array, ours)
                if packed != expected:
                    at = next((i for i in range(min(len(packed), len(expected))) if packed[i] != expected[i]), None)
                    failures.append(f"{ours} {endian} {' '.join(layout) or '(plain)'}: packed {len(packed)} bytes, NumPy's "
                                    f"{len(expected)}, first difference at byte {at}")

elif which == "numpy-text":
    for ours in ["f32", "f16", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]:
        for order, endian in (("<", "little"), (">", "big")):
            array = bit_patterns(ours, order, 2996)
            if array.dtype.kind == "f":
                array = array[np.isfinite(array)][:2400]
                # NumPy's shortest digits of each value in its own type (Dragon4), one a line, or a few.
                words = [np.format_float_scientific(v, unique=True, trim="-") if v != 0 else ("-0.0" if np.signbit(v) else "0")
                         for v in array]
            else:
                array = array[:2400]
                words = [str(v) for v in array.tolist()]
            text = "".join(word + ("\n" if i % 5 == 4 else " ") for i, word in enumerate(words)).encode()
            packed = pack(["--type", ours, "--endian", endian], text, f"{ours}-{endian}.raw")
            reference = os.path.join(folder, f"{ours}-{endian}.tofile")
            array.tofile(reference)
            if packed is not None and packed != open(reference, "rb").read():
                failures.append(f"{ours} {endian}: the raw output is not NumPy's tofile of the values")
            for columns in (1, 6):
                npy = os.path.join(folder, f"{ours}-{endian}-{columns}.npy")
                if run(["pack-array", "--overwrite", "--type", ours, "--endian", endian, "--npy", "--columns", str(columns), "-o", npy],
                       data=text) is None:
                    continue
                loaded = np.load(npy)
                shape = (len(array),) if columns == 1 else (len(array) // columns, columns)
                if loaded.dtype != array.dtype or loaded.shape != shape:
                    failures.append(f"{ours} {endian} --columns {columns}: np.load gives {loaded.dtype} {loaded.shape}, "
                                    f"not {array.dtype} {shape}")
                elif loaded.reshape(-1).tobytes() != array.tobytes():
                    failures.append(f"{ours} {endian} --columns {columns}: np.load gives other values")


def nearest(text, kind):
    """The value of type `kind` (np.float32, np.float16) nearest the decimal `text`, ties to even:
    exactly, comparing fractions (NumPy's own parsing rounds through float64 first)."""
    if text.lstrip("-") == "inf":
        return kind(float(text))
    exact = Fraction(Decimal(text))
    if exact == 0:
        return kind(-0.0) if text.startswith("-") else kind(0.0)
    guess = kind(float(exact))
    with np.errstate(over="ignore"):
        candidates = [np.nextafter(guess, kind(-np.inf)), guess, np.nextafter(guess, kind(np.inf))]
    candidates = [c for c in candidates if np.isfinite(c)]
    size = np.dtype(kind).itemsize

    def key(candidate):
        bits = int(np.array(candidate, dtype=kind).view(f"u{size}"))
        return (abs(Fraction(float(candidate)) - exact), bits & 1)
    return min(candidates, key=key)


def bf16_of(text):
    """The bf16 bits of a decimal: the upper half of its correctly rounded f32, rounded to nearest even."""
    bits = int(np.array(nearest(text, np.float32), dtype=np.float32).view(np.uint32))
    return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16


def exact_decimal(value):
    """All the digits of a binary float (every one has a finite decimal expansion)."""
    return format(Decimal(float(value)), "f")


def check_decimals(ours, texts, expected):
    """pack-array's bytes of `texts` (one a line) against `expected` (uint16 bits), in both byte orders."""
    for order, endian in (("<", "little"), (">", "big")):
        packed = pack(["--type", ours, "--endian", endian], "".join(t + "\n" for t in texts).encode(), f"{ours}-{endian}.dec")
        if packed is None:
            continue
        want = np.array(expected, dtype=np.uint16).astype(order + "u2").tobytes()
        if packed != want:
            got = np.frombuffer(packed, dtype=order + "u2")
            wrong = [f"{t} -> {g:04X}, NumPy {e:04X}" for t, g, e in zip(texts, got.tolist(), expected) if g != e]
            failures.append(f"{ours} {endian}: {len(wrong)} of {len(texts)} differ ({len(packed)} bytes): " + "; ".join(wrong[:4]))


if which == "bf16":
    texts = []
    # Ties of the f32's upper half, written with all their digits: an even upper half stays, an odd one goes up.
    for high in rng.integers(0x0080, 0x7F00, 200).tolist() + [0x3F80, 0x3F81]:
        for low in (0x8000, 0x7FFF, 0x8001):
            value = np.array([high << 16 | low], dtype=np.uint32).view(np.float32)[0]
            texts += [exact_decimal(value), "-" + exact_decimal(value)]
    # Just past a tie, by less than half an f32 step: the f32 is the tie, so it rounds to even (down
    # from an even upper half), where rounding the decimal straight to bf16 would go up.
    for high in rng.integers(0x0080, 0x7F00, 100).tolist() + [0x3F80]:
        high &= ~1
        tie = Fraction(float(np.array([high << 16 | 0x8000], dtype=np.uint32).view(np.float32)[0]))
        step = Fraction(float(np.array([high << 16 | 0x8001], dtype=np.uint32).view(np.float32)[0])) - tie
        past = tie + step / 1000
        texts.append(format(Decimal(past.numerator) / Decimal(past.denominator), ".40g"))
    texts += ["1.0039062500001", "1.0039063"]
    # Random decimals of every magnitude bf16 holds, with many digits.
    for _ in range(600):
        mantissa = rng.integers(10 ** 15, 10 ** 16)
        exponent = int(rng.integers(-52, 22))
        texts.append(f"{'-' if rng.integers(2) else ''}{mantissa}e{exponent}")
    texts += ["0", "-0", "inf", "-inf", "1", "-1", "0.1", "3.3895313892515355e38"]
    check_decimals("bf16", texts, [bf16_of(t) for t in texts])

elif which in ("f16", "f16-double-rounding"):
    texts = []
    if which == "f16":
        # Ties of two f16s, written with all their digits: to the even one.
        for bits in rng.integers(0x0001, 0x7BFF, 300).tolist():
            low, high = (np.array([bits, bits + 1], dtype=np.uint16).view(np.float16).astype(np.float64))
            middle = (Fraction(float(low)) + Fraction(float(high))) / 2
            texts.append(format(Decimal(middle.numerator) / Decimal(middle.denominator), "f"))
        for _ in range(600):
            mantissa = rng.integers(10 ** 15, 10 ** 16)
            exponent = int(rng.integers(-22, -11))
            texts.append(f"{'-' if rng.integers(2) else ''}{mantissa}e{exponent}")
        texts += ["0", "-0", "inf", "-inf", "1", "0.1", "65504", "65519.99", "6.103515625e-05", "5.9604644775390625e-08", "2049", "2051"]
    else:
        # Past a midpoint by less than half an f32 step: the f32 nearest the decimal is the midpoint.
        for bits in rng.integers(0x0400, 0x7BFF, 100).tolist() + [0x6800]:
            low, high = (np.array([bits, bits + 1], dtype=np.uint16).view(np.float16).astype(np.float64))
            middle = (Fraction(float(low)) + Fraction(float(high))) / 2
            f32_step = Fraction(float(np.spacing(np.float32(float(middle)))))
            for sign in (1, -1):
                past = middle + sign * f32_step / 4
                texts.append(format(Decimal(past.numerator) / Decimal(past.denominator), ".30g"))
        texts.append("2049.0001")
    expected = [int(np.array(nearest(t, np.float16), dtype=np.float16).view(np.uint16)) for t in texts]
    check_decimals("f16", texts, expected)

elif not which.startswith("roundtrip") and which != "numpy-text":
    failures.append(f"no set '{which}'")

for failure in failures:
    print(failure)
sys.exit(1 if failures else 0)
