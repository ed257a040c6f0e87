"""HEIC grid pictures for `scripts/bench crop`, as phones write them: 512x512 HEVC tiles (x265,
all intra, 4:2:0) sharing one hvcC, the grid turned by irot (orientation 6), its colour on the grid.
Written with scripts/fixtures/heif.py's box writer; tiles cut by FFmpeg's untile filter."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fixtures"))
import heif  # noqa: E402

TILE = 512


def make(path, columns, rows, folder, phone=False):
    """A stored columns*512 x rows*512 picture (a noisy test pattern) as a grid HEIC shown with orientation 6.
    `phone`: as an iPhone writes a 12 MP photo: the grid 4032x3024 (its last tiles cut), a Display P3
    ICC profile (colr prof) and a 576x432 depth map (a hidden auxl image)."""
    if os.path.exists(path):
        return
    width, height = columns * TILE, rows * TILE
    stream = os.path.join(folder, "tiles.hevc")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi",
                    "-i", f"testsrc2=size={width}x{height}:rate=1:duration=1,noise=alls=12:allf=t", "-frames:v", str(columns * rows),
                    "-vf", f"untile={columns}x{rows}", "-pix_fmt", "yuv420p", "-c:v", "libx265", "-preset", "fast",
                    "-x265-params", f"keyint=1:crf={18 if phone else 24}:log-level=error", "-f", "hevc", stream], check=True)
    units = heif.nal_units(open(stream, "rb").read())
    os.remove(stream)
    slices = [u for u in units if (u[0] >> 1) & 0x3F < 32]
    assert len(slices) == columns * rows, (len(slices), columns * rows)
    sets = {kind: next(u for u in units if (u[0] >> 1) & 0x3F == kind) for kind in (32, 33, 34)}
    hvcc = heif.hvcc_box(sets, chroma_format=1)
    tiles = [(hvcc, len(s).to_bytes(4, "big") + s) for s in slices]
    colour, auxiliary = None, None
    if phone:
        width, height = width - 64, height - 48
        colour = heif.box(b"colr", b"prof" + display_p3_profile(folder))
        auxiliary = depth_map(576, 432, folder)
    with open(path + ".part", "wb") as out:
        out.write(heif.grid_file(tiles, columns, rows, TILE, width, height, heif.TRANSFORMS[6], colour=colour,
                                 auxiliary=auxiliary))
    os.replace(path + ".part", path)


def display_p3_profile(folder):
    """vips's own Display P3 profile, as a picture it converted carries it."""
    picture, tagged = os.path.join(folder, "black.v"), os.path.join(folder, "p3.png")
    subprocess.run(["vips", "black", picture, "8", "8", "--bands", "3"], check=True)
    subprocess.run(["vips", "icc_transform", picture, tagged, "p3"], check=True)
    profile = subprocess.run(["exiftool", "-b", "-icc_profile", tagged], check=True, capture_output=True).stdout
    os.remove(picture)
    os.remove(tagged)
    assert profile[36:40] == b"acsp", "vips wrote no ICC profile"
    return profile


def depth_map(width, height, folder):
    """A smooth grey ramp coded as one HEVC picture: (hvcC, data, width, height, the depth auxC urn)."""
    stream = os.path.join(folder, "depth.hevc")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi",
                    "-i", f"gradients=size={width}x{height}:rate=1:duration=1", "-frames:v", "1", "-pix_fmt", "yuv420p",
                    "-c:v", "libx265", "-x265-params", "crf=30:log-level=error", "-f", "hevc", stream], check=True)
    units = heif.nal_units(open(stream, "rb").read())
    os.remove(stream)
    sets = {kind: next(u for u in units if (u[0] >> 1) & 0x3F == kind) for kind in (32, 33, 34)}
    data = b"".join(len(u).to_bytes(4, "big") + u for u in units if (u[0] >> 1) & 0x3F < 32)
    return heif.hvcc_box(sets, chroma_format=1), data, width, height, b"urn:mpeg:hevc:2015:auxid:2"
