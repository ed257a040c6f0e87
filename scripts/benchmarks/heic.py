"""HEIC grid pictures for `scripts/bench crop`, as phones write them: 512x512 HEVC tiles (x265,
all intra, 4:2:0) sharing one hvcC, the grid turned by irot (orientation 6), its colour on the grid.
Written with scripts/fixtures/heif.py's box writer; tiles cut by FFmpeg's untile filter."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fixtures"))
import heif  # noqa: E402

TILE = 512


def make(path, columns, rows, folder):
    """A stored columns*512 x rows*512 picture (a noisy test pattern) as a grid HEIC shown with orientation 6."""
    if os.path.exists(path):
        return
    width, height = columns * TILE, rows * TILE
    stream = os.path.join(folder, "tiles.hevc")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi",
                    "-i", f"testsrc2=size={width}x{height}:rate=1:duration=1,noise=alls=12:allf=t", "-frames:v", str(columns * rows),
                    "-vf", f"untile={columns}x{rows}", "-pix_fmt", "yuv420p", "-c:v", "libx265", "-preset", "fast",
                    "-x265-params", "keyint=1:crf=24:log-level=error", "-f", "hevc", stream], check=True)
    units = heif.nal_units(open(stream, "rb").read())
    os.remove(stream)
    slices = [u for u in units if (u[0] >> 1) & 0x3F < 32]
    assert len(slices) == columns * rows, (len(slices), columns * rows)
    sets = {kind: next(u for u in units if (u[0] >> 1) & 0x3F == kind) for kind in (32, 33, 34)}
    hvcc = heif.hvcc_box(sets, chroma_format=1)
    tiles = [(hvcc, len(s).to_bytes(4, "big") + s) for s in slices]
    with open(path + ".part", "wb") as out:
        out.write(heif.grid_file(tiles, columns, rows, TILE, width, height, heif.TRANSFORMS[6]))
    os.replace(path + ".part", path)
