"""scripts/bench preview: a hover preview (4 pieces of 1 s, 10 fps, 320 px wide, animated WebP at
quality 75) of a 60 s 1080p H.264 clip with a 2 s GOP: mediatool against the two ffmpeg recipes users
copy, `-ss` per piece and concat (each piece seeks to its keyframe and decodes from there) and one
`select` filter (decodes the whole video). Then the frames' fidelity: each frame of mediatool's preview
against ffmpeg's decode of the frame at its time, scaled to the preview's size."""
import json
import os
import subprocess
import tempfile

import numpy
from PIL import Image

from measure import arguments, compare, table
from storyboard import clip

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]
# The recipes' pieces of 1 s, each centred in its quarter of 60 s (mediatool starts each on the
# keyframe nearest that, which its --json line reports).
STARTS = [7.0, 22.0, 37.0, 52.0]


def psnr(a, b):
    squares = numpy.mean((a.astype(float) - b.astype(float)) ** 2)
    return float("inf") if squares == 0 else 10 * numpy.log10(255 * 255 / squares)


def luma(rgb):
    rgb = rgb.astype(float)
    return 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]


def fidelity(source, preview, starts):
    """Each frame against ffmpeg's exact frame at its time (accurate -ss), made RGB and scaled by ffmpeg.
    The clip is HD with no colour matrix stated, which mediatool reads as BT.709 (as players do) and
    swscale, unless told, as BT.601: told here, or the colours alone cost 15 dB."""
    picture = Image.open(preview)
    width, height = picture.size
    rgb, y = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(picture.n_frames):
            picture.seek(index)
            time = starts[index // 10] + (index % 10) / 10
            reference = os.path.join(scratch, f"{index}.png")
            subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-ss", f"{time:.3f}", "-i", source,
                            "-frames:v", "1", "-vf", f"scale=in_color_matrix=bt709:in_range=tv,format=rgb24,scale={width}:{height}:flags=lanczos", reference], check=True)
            ours = numpy.asarray(picture.convert("RGB"))
            theirs = numpy.asarray(Image.open(reference).convert("RGB"))
            rgb.append(psnr(ours, theirs))
            y.append(psnr(luma(ours), luma(theirs)))
    return picture.n_frames, min(rgb), numpy.mean(rgb), min(y), numpy.mean(y)


def main():
    options = arguments(__doc__)
    out = os.path.join(FOLDER, "preview-out")
    os.makedirs(out, exist_ok=True)
    source = os.path.join(FOLDER, "clip-1080p-60s-gop2s.mp4")
    clip(source)
    pieces = []
    for start in STARTS:
        pieces += ["-ss", f"{start}", "-t", "1", "-i", source]
    concat = "".join(f"[{index}:v]" for index in range(len(STARTS))) + f"concat=n={len(STARTS)}:v=1,fps=10,scale=320:-2"
    select = "+".join(f"between(t,{start},{start + 1 - 0.001})" for start in STARTS)
    webp = ["-c:v", "libwebp_anim", "-quality", "75", "-loop", "0"]
    print(f"hover preview, 4 x 1 s at 10 fps, 320 px, of 60 s 1080p H.264 (2 s GOP), median of {options.runs} runs")
    results = compare({
        "mediatool preview": [MEDIATOOL, "preview", "--overwrite", source, "-o", f"{out}/m.webp"],
        "ffmpeg -ss per piece + concat": ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + pieces
                                         + ["-filter_complex", concat] + webp + [f"{out}/concat.webp"],
        "mediatool preview --format mp4": [MEDIATOOL, "preview", "--overwrite", source, "-o", f"{out}/m.mp4"],
        "ffmpeg -ss per piece + concat, libx264": ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + pieces
                                                  + ["-filter_complex", concat, "-c:v", "libx264", "-preset", "veryfast", "-crf", "21",
                                                     "-bf", "0", "-pix_fmt", "yuv420p", "-an", f"{out}/concat.mp4"],
        "ffmpeg select": ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", source,
                          "-vf", f"select='{select}',setpts=N/(30*TB),fps=10,scale=320:-2"] + webp + [f"{out}/select.webp"],
        # No tool decodes less: the frames others refer to, from the keyframes mediatool starts on,
        # into nothing (no scaling, no encoding), as one process.
        "floor: ffmpeg -skip_frame noref, decode only": ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
            + [argument for start in (6, 22, 36, 52) for argument in ("-skip_frame", "noref", "-ss", f"{start}", "-t", "1", "-i", source)]
            + ["-filter_complex", "".join(f"[{index}:v]" for index in range(4)) + "concat=n=4:v=1", "-f", "null", "-"],
    }, options.runs)
    table(results)
    base, peak = results["mediatool preview"]
    fastest = min(("ffmpeg -ss per piece + concat", "ffmpeg select"), key=lambda name: results[name][0])
    floor = results["floor: ffmpeg -skip_frame noref, decode only"][0]
    print(f"the decode floor alone is {results[fastest][0] / floor:.1f}x as fast as the faster recipe: the most any tool can reach")
    print(f"mediatool is {results[fastest][0] / base:.1f}x as fast as the faster recipe ({fastest}; target >= 3), "
          f"peak {peak / 1024:.1f} MiB against its {results[fastest][1] / 1024:.1f} MiB (target: no more)")
    made = subprocess.run([MEDIATOOL, "preview", "--overwrite", "--json", source, "-o", f"{out}/m.webp"],
                          check=True, capture_output=True, text=True).stdout
    starts = [segment["start"] for segment in json.loads(made)["segments"]]
    print(f"mediatool's pieces start at {', '.join(f'{start:g}' for start in starts)} s")
    mp4, peer = results["mediatool preview --format mp4"][0], results["ffmpeg -ss per piece + concat, libx264"][0]
    print(f"MP4: mediatool is {peer / mp4:.1f}x as fast as the concat recipe with libx264")
    frames, rgb_min, rgb_mean, y_min, y_mean = fidelity(source, f"{out}/m.webp", starts)
    print(f"{frames} frames against ffmpeg's at their times: luma PSNR min {y_min:.1f} dB, mean {y_mean:.1f} dB "
          f"(target >= 30); RGB min {rgb_min:.1f} dB, mean {rgb_mean:.1f} dB")


if __name__ == "__main__":
    main()
