"""HEIF decoys made from a fixture: its Exif item given 65535 extents (the most
iloc counts), each the whole of the file's mdat, or its ipco given tens of thousands of empty
properties.

    heif_decoys.py extents|properties SOURCE.heic OUT.heic

The file stays a valid box structure: every size is rewritten, and the items' offsets (iloc
version 1, offsets and lengths of 4 bytes, no base offset, as scripts/fixtures/heif.py writes them)
moved by what the meta box grew."""
import struct
import sys


def boxes(data, start, end):
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        yield at, size, kind
        at += size


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind) + payload


def rebuild_meta(meta_payload, transform):
    """meta's payload (after its full box header) with each child box passed through `transform`."""
    out = meta_payload[:4]
    for at, size, kind in boxes(meta_payload, 4, len(meta_payload)):
        out += transform(kind, meta_payload[at:at + size])
    return out


def iloc_entries(iloc):
    """(item, method, [(offset, length)]) of an iloc of version 1, 4-byte fields, no base offset."""
    count = struct.unpack(">H", iloc[14:16])[0]
    at, items = 16, []
    for _ in range(count):
        item, method, _, extents = struct.unpack(">HHHH", iloc[at:at + 8])
        at += 8
        spans = [struct.unpack(">II", iloc[at + 8 * i:at + 8 * i + 8]) for i in range(extents)]
        at += 8 * extents
        items.append((item, method, spans))
    return items


def write_iloc(items, shift):
    entries = b""
    for item, method, spans in items:
        entries += struct.pack(">HHHH", item, method, 0, len(spans))
        entries += b"".join(struct.pack(">II", offset + (shift if method == 0 else 0), length) for offset, length in spans)
    return box(b"iloc", struct.pack(">BBBBBBH", 1, 0, 0, 0, 0x44, 0x00, len(items)) + entries)


def main():
    mode, source, out = sys.argv[1:4]
    data = open(source, "rb").read()
    top = list(boxes(data, 0, len(data)))
    meta_at, meta_size, _ = next(b for b in top if b[2] == b"meta")
    meta = data[meta_at:meta_at + meta_size]
    iloc_box = next(meta[8 + at:8 + at + size] for at, size, kind in boxes(meta[8:], 4, len(meta) - 8) if kind == b"iloc")
    items = iloc_entries(iloc_box)
    exif_item = max(item for item, *_ in items)
    mdat_at, mdat_size, _ = next(b for b in top if b[2] == b"mdat")

    def grown(kind, child):
        if mode == "properties" and kind == b"iprp":
            ipco_at, ipco_size, _ = next(b for b in boxes(child, 8, len(child)) if b[2] == b"ipco")
            ipco = child[ipco_at:ipco_at + ipco_size]
            ipco = box(b"ipco", ipco[8:] + box(b"free", b"") * 40000)
            return box(b"iprp", child[8:ipco_at] + ipco + child[ipco_at + ipco_size:])
        return child

    def with_extents(shift):
        def transform(kind, child):
            child = grown(kind, child)
            if kind != b"iloc":
                return child
            whole = [(mdat_at + 8, mdat_size - 8)] * 65535
            changed = [(item, method, whole if mode == "extents" and item == exif_item else spans)
                       for item, method, spans in items]
            return write_iloc(changed, shift)
        return transform

    first = box(b"meta", rebuild_meta(meta[8:], with_extents(0)))
    shift = len(first) - meta_size
    meta_new = box(b"meta", rebuild_meta(meta[8:], with_extents(shift)))
    result = data[:meta_at] + meta_new + data[meta_at + meta_size:]
    open(out, "wb").write(result)


if __name__ == "__main__":
    main()
