"""What dump-doubles and dump-array print for a binary file, made by NumPy: the file read
with np.fromfile as the options say (type, record layout, byte order, offset, count), every float
written as the shortest digits for its own type (f32: NumPy's np.format_float_scientific(unique=True),
Dragon4; f64: CPython's repr, David Gay's; neither is mediatool's Schubfach; f16 and bf16 through the
f32 they widen to), laid out as README says (Swift's description: exponential below 1e-4 and above
2^24 for f32, 2^53 for f64), hex from the file's own bytes, then compared with what the tool
printed. --stats: the counts, min and max exactly, mean and stddev within 1e-9 relative of NumPy's
(summation order differs).

    numpy_layouts.py INPUT OUTPUT [dump options...]    exit 0 when OUTPUT is what NumPy expects

Prints the first differing line and exits 1 otherwise."""
import json
import sys
from decimal import Decimal

import numpy as np

source, printed, options = sys.argv[1], sys.argv[2], sys.argv[3:]


def option(name, default=None):
    return options[options.index(name) + 1] if name in options else default


SIZES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i8": 1, "i16": 2, "i32": 4, "i64": 8,
         "u8": 1, "u16": 2, "u32": 4, "u64": 8}
types = option("--type", "f64").split(",")
order = ">" if option("--endian") == "big" else "<"
natural = option("--align") == "natural"

# The record's fields and their offsets, as C lays out a struct with --align natural.
offsets, at = [], 0
for kind in types:
    if natural:
        at = (at + SIZES[kind] - 1) // SIZES[kind] * SIZES[kind]
    offsets.append(at)
    at += SIZES[kind]
record_size = at
if natural:
    largest = max(SIZES[kind] for kind in types)
    record_size = (record_size + largest - 1) // largest * largest
record_size = int(option("--stride", record_size))

data = np.fromfile(source, dtype=np.uint8)
data = data[int(option("--offset", "0"), 0):]
count = len(data) // record_size
if option("--count") is not None:
    count = min(count, int(option("--count"), 0))
records = data[:count * record_size].reshape(count, record_size)


def field_bytes(index):
    return records[:, offsets[index]:offsets[index] + SIZES[types[index]]]


def field_values(index):
    kind, raw = types[index], np.ascontiguousarray(field_bytes(index))
    if kind == "bf16":
        # NumPy has no bf16: its bits are the upper half of an f32's.
        halves = raw.view(order + "u2").astype(np.uint32)
        return (halves << 16).view(np.float32).reshape(-1)
    code = {"f64": "f8", "f32": "f4", "f16": "f2"}.get(kind) or kind[0] + str(SIZES[kind])
    return raw.view(order + code).reshape(-1)


def swift_layout(value, bits):
    """NumPy's shortest digits of the value as an f32 (bits 24) or f64 (bits 53), in the layout of
    Swift's description."""
    if np.isnan(value):
        return "nan"
    if np.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == 0:
        return "-0.0" if np.signbit(value) else "0.0"
    if bits == 53:
        # f64: CPython's repr (David Gay's shortest digits), far faster than Dragon4 here.
        sign, digits, exponent = Decimal(repr(float(value))).normalize().as_tuple()
    else:
        sign, digits, exponent = Decimal(np.format_float_scientific(value, unique=True, trim="-")).normalize().as_tuple()
    digits = "".join(map(str, digits))
    point = len(digits) + exponent  # the value is 0.digits x 10^point
    minus = "-" if sign else ""
    if point - 1 < -4 or abs(float(value)) > 2.0 ** bits:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{minus}{mantissa}e{'-' if point - 1 < 0 else '+'}{abs(point - 1):02d}"
    if point <= 0:
        return f"{minus}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{minus}{digits}{'0' * (point - len(digits))}.0"
    return f"{minus}{digits[:point]}.{digits[point:]}"


def texts(index):
    """Each value of field `index` as text, and as JSON (non-finite floats as strings)."""
    kind, values = types[index], field_values(index)
    if kind[0] in "iu":
        words = [str(v) for v in values.tolist()]
        return words, words
    if kind == "f64":
        words = [swift_layout(v, 53) for v in values]
    elif kind == "f32":
        words = [swift_layout(v, 24) for v in values]
    else:
        # f16 and bf16: every pattern formatted once, through the f32 it widens to.
        patterns = np.arange(65536, dtype=np.uint16)
        wide = patterns.view(np.float16).astype(np.float32) if kind == "f16" else (patterns.astype(np.uint32) << 16).view(np.float32)
        table = [swift_layout(v, 24) for v in wide]
        halves = values.view(np.uint16) if kind == "f16" else (values.view(np.uint32) >> 16).astype(np.uint16)
        words = [table[bits] for bits in halves.tolist()]
    special = {"nan": '"NaN"', "inf": '"Infinity"', "-inf": '"-Infinity"'}
    return words, [special.get(word, word) for word in words]


def hexes(index):
    return [bytes(row).hex().upper() for row in field_bytes(index)]


def expected_values():
    fmt = option("--format", "text")
    columns = int(option("--columns", "1"))
    with_hex, with_index, header = "--hex" in options, "--index" in options, "--header" in options
    fields = [texts(i) for i in range(len(types))]
    hexed = [hexes(i) for i in range(len(types))] if with_hex else None
    if len(types) > 1:
        # Records: one a line, one column a field.
        items = [[(fields[f][0][r], fields[f][1][r], hexed[f][r] if with_hex else None) for f in range(len(types))]
                 for r in range(count)]
        rows = [(r, items[r]) for r in range(count)]
        width = len(types)
    else:
        items = [(fields[0][0][r], fields[0][1][r], hexed[0][r] if with_hex else None) for r in range(count)]
        rows = [(r, items[r:r + columns]) for r in range(0, count, columns)]
        width = columns
    names = option("--names")
    names = names.split(",") if names else [f"c{i}" for i in range(width)]
    if fmt == "json":
        def value(item):
            return f'{{"value":{item[1]},"hex":"{item[2]}"}}' if with_hex else item[1]
        if len(types) == 1 and columns == 1:
            return "[" + ",".join(value(item[0]) for _, item in rows) + "]\n"
        return "[" + ",".join("[" + ",".join(value(item) for item in row) + "]" for _, row in rows) + "]\n"
    lines = []
    if fmt == "csv":
        if header:
            lines.append(",".join((["index"] if with_index else []) + [c for n in names for c in ([n, n + "_hex"] if with_hex else [n])]))
        for start, row in rows:
            cells = [c for item in row for c in ([item[0], item[2]] if with_hex else [item[0]])]
            cells += [""] * ((width - len(row)) * (2 if with_hex else 1))
            lines.append(",".join(([str(start)] if with_index else []) + cells))
    else:
        for start, row in rows:
            words = [w for item in row for w in ([item[0], item[2]] if with_hex else [item[0]])]
            lines.append((f"{start}: " if with_index else "") + " ".join(words))
    return "".join(line + "\n" for line in lines)


def compare_stats(text):
    """The summary of a single f64 field: its counts and extremes exactly, mean and stddev close."""
    values = field_values(0).astype(np.float64)
    finite = values[np.isfinite(values)]
    expected = {"count": len(values), "finite": len(finite), "nan": int(np.isnan(values).sum()),
                "pos_inf": int(np.isposinf(values).sum()), "neg_inf": int(np.isneginf(values).sum()),
                "zeros": int((values == 0).sum()),
                "subnormals": int(((finite != 0) & (np.abs(finite) < np.finfo(np.float64).tiny)).sum()),
                "min": swift_layout(finite.min(), 53), "max": swift_layout(finite.max(), 53)}
    if option("--format") == "json":
        got = {key: str(value) for key, value in json.loads(text).items()}
        got["min"], got["max"] = text.split('"min":')[1].split(",")[0], text.split('"max":')[1].split(",")[0]
    else:
        got = dict(line.split(None, 1) for line in text.splitlines())
    failures = [f"{key}: {got.get(key)}, NumPy {value}" for key, value in expected.items() if str(got.get(key)) != str(value)]
    # Scaled by the largest magnitude first: the sums of values near the largest double overflow.
    scale = float(np.abs(finite).max()) or 1.0
    scaled = finite / scale
    mean, stddev = float(np.mean(scaled)) * scale, float(np.std(scaled)) * scale
    for key, value in (("mean", mean), ("stddev", stddev)):
        ours = float(got.get(key, "nan"))
        if not abs(ours - value) <= 1e-9 * abs(value):
            failures.append(f"{key}: {ours}, NumPy {value}")
    return failures


text = open(printed, encoding="utf-8").read()
if "--stats" in options:
    failures = compare_stats(text)
else:
    expected = expected_values()
    failures = []
    if text != expected:
        got_lines, expected_lines = text.splitlines(), expected.splitlines()
        for number, (a, b) in enumerate(zip(got_lines, expected_lines)):
            if a != b:
                failures.append(f"line {number + 1}: printed {a[:300]!r}, NumPy {b[:300]!r}")
                break
        else:
            failures.append(f"{len(got_lines)} lines printed, NumPy {len(expected_lines)}")
for failure in failures:
    print(failure)
sys.exit(1 if failures else 0)
