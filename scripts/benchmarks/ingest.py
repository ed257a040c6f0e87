"""scripts/bench ingest: everything a site needs from an upload, with the default recipe.

A 24 MP camera JPEG (orientation 6): one `mediatool ingest` against the peer pipeline a site runs
today: `vips thumbnail` for each of WordPress's six sizes (150 filled where the attention is, 300,
768 wide, 1024, 1536, 2048, JPEG at quality 82, never enlarged), `exiftool -json -fast`, and one
Python process with the references from PyPI as their documentation uses them (ImageHash's dhash
and phash of the opened picture, thumbhash-python's image_to_thumbhash, blurhash of Pillow's
100x100 thumbnail). Bar: 3x, and no more memory than one vips run.

A 10 s 1080p phone clip (30 fps, a keyframe every 2 s, AAC, turned 90 degrees): one ingest,
which makes its web video too (the clip is stored turned) from the one decode, against
mediatool's own five runs (probe; thumbnail --at auto in the six sizes; storyboard; preview;
transcode), and against an ingest without a web video followed by a transcode (two decodes).
Bar: 1.3x.

Floors: what no tool can go under on this machine: the JPEG decoded at 1/2 scale (djpeg, the
least the 2048 rendition needs), and every frame of the clip decoded (ffmpeg -f null), which a
storyboard of 100 cells over 10 s needs."""
import os
import shutil
import subprocess

from measure import arguments, compare, table
import crop

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]
REFERENCES = os.path.join(os.path.dirname(os.path.dirname(FOLDER)), ".build", "references", "bin", "python")
PYTHON_PEER = """
import sys, blurhash, imagehash
from PIL import Image, ImageOps
from thumbhash import image_to_thumbhash
path = sys.argv[1]
image = Image.open(path)
print(imagehash.dhash(image), imagehash.phash(image))
print(image_to_thumbhash(path))
small = ImageOps.exif_transpose(Image.open(path)).convert("RGB")
small.thumbnail((100, 100))
print(blurhash.encode([[list(small.getpixel((x, y))) for x in range(small.width)] for y in range(small.height)], 4, 3))
"""


def phone_clip(path):
    if os.path.exists(path):
        return
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                    "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=10",
                    "-f", "lavfi", "-i", "sine=frequency=440:duration=10",
                    "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-pix_fmt", "yuv420p",
                    "-metadata:s:v:0", "rotate=90", "-c:a", "aac", "-shortest", path + ".part.mp4"], check=True)
    os.replace(path + ".part.mp4", path)


def fresh(folder):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return folder


def main():
    options = arguments(__doc__)
    jpeg = os.path.join(FOLDER, "photo-24mp-orientation6.jpg")
    crop.pictures(jpeg, os.path.join(FOLDER, "photo-24mp.png"))
    clip = os.path.join(FOLDER, "phone-10s-1080p.mp4")
    phone_clip(clip)
    out = os.path.join(FOLDER, "ingest-out")
    peer = os.path.join(out, "peer")
    if not options.only or "photo".startswith(options.only):
        vips = [f"vips thumbnail '{jpeg}' '{peer}/150.jpg[Q=82]' 150 --size down --crop attention"]
        vips += [f"vips thumbnail '{jpeg}' '{peer}/768.jpg[Q=82]' 768 --height 1000000 --size down"]
        vips += [f"vips thumbnail '{jpeg}' '{peer}/{size}.jpg[Q=82]' {size} --size down" for size in (300, 1024, 1536, 2048)]
        pipeline = "; ".join(vips + [f"exiftool -json -fast '{jpeg}' > /dev/null", f"'{REFERENCES}' -c '{PYTHON_PEER}' '{jpeg}' > /dev/null"])
        print(f"24 MP camera JPEG, default recipe, median of {options.runs} runs")
        fresh(peer)
        results = compare({
            "mediatool ingest": ["sh", "-c", f"rm -rf '{out}/m' && '{MEDIATOOL}' ingest --out-dir '{out}/m' '{jpeg}'"],
            "vips x6 + exiftool + Python references": ["sh", "-c", pipeline],
            "one vips thumbnail (2048)": ["vips", "thumbnail", jpeg, f"{peer}/one.jpg[Q=82]", "2048", "--size", "down"],
            "floor: djpeg -scale 1/2": ["sh", "-c", f"djpeg -scale 1/2 '{jpeg}' > /dev/null"],
        }, options.runs)
        table(results)
        ours = results["mediatool ingest"]
        print(f"mediatool is {results['vips x6 + exiftool + Python references'][0] / ours[0]:.2f}x as fast as the pipeline (target >= 3); "
              f"peak {ours[1] / 1024:.1f} MiB against one vips run's {results['one vips thumbnail (2048)'][1] / 1024:.1f} MiB (target: no more); "
              f"the floor is {results['floor: djpeg -scale 1/2'][0]:.3f} s\n")
    if not options.only or "video".startswith(options.only):
        sizes = "150,300,768x,1024,1536,2048"
        five = "; ".join([f"rm -rf '{out}/f' && mkdir -p '{out}/f'", f"'{MEDIATOOL}' probe '{clip}' > /dev/null",
                          f"'{MEDIATOOL}' thumbnail --at auto --sizes {sizes} --format jpeg --quality 82 --out-dir '{out}/f' '{clip}'",
                          f"'{MEDIATOOL}' storyboard --out-dir '{out}/f' '{clip}' 2> /dev/null",
                          f"'{MEDIATOOL}' preview --out-dir '{out}/f' '{clip}'",
                          f"'{MEDIATOOL}' transcode --out-dir '{out}/f' '{clip}'"])
        recipe = os.path.join(FOLDER, "no-web-video.json")
        with open(recipe, "w") as text:
            text.write('{"web_video": false}')
        two = "; ".join([f"rm -rf '{out}/t' && '{MEDIATOOL}' ingest --recipe '{recipe}' --out-dir '{out}/t' '{clip}' 2> /dev/null",
                         f"'{MEDIATOOL}' transcode --out-dir '{out}/t' '{clip}'"])
        print(f"10 s 1080p phone clip, default recipe, median of {options.runs} runs")
        results = compare({
            "mediatool ingest": ["sh", "-c", f"rm -rf '{out}/m' && '{MEDIATOOL}' ingest --out-dir '{out}/m' '{clip}' 2> /dev/null"],
            "mediatool's five runs": ["sh", "-c", five],
            "ingest without web video, then transcode": ["sh", "-c", two],
            "floor: ffmpeg, every frame decoded": ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-i", clip, "-an", "-f", "null", "-"],
        }, options.runs)
        table(results)
        five_runs, ours = results["mediatool's five runs"][0], results["mediatool ingest"][0]
        print(f"mediatool ingest is {five_runs / ours:.2f}x as fast as its five runs (target >= 1.3), "
              f"{results['ingest without web video, then transcode'][0] / ours:.2f}x as fast as an ingest and a transcode; "
              f"the floor is {results['floor: ffmpeg, every frame decoded'][0]:.3f} s\n")


if __name__ == "__main__":
    main()
