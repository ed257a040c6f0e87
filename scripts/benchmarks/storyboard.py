"""scripts/bench storyboard: a 100-cell sprite (10x10 cells 160 px wide) of a 60 s 1080p H.264 clip with
a 2 s GOP: mediatool (by default, which here decodes each cell's own frame as keyframes are sparser than
the cells; --keyframe, which repeats them; and --exact) against ffmpeg's fps+scale+tile filters (which decode
every frame) and against 100 calls of ffmpegthumbnailer, one per time."""
import os
import subprocess

from measure import arguments, compare, table

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]


def clip(path):
    """60 s of moving 1080p test pattern, 30 fps, x264 veryfast (B-frames), GOP 60 (2 s)."""
    if os.path.exists(path):
        return
    subprocess.run([
        "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=60",
        "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0",
        "-pix_fmt", "yuv420p", path + ".part.mp4",
    ], check=True)
    os.replace(path + ".part.mp4", path)


def main():
    options = arguments(__doc__)
    out = os.path.join(FOLDER, "storyboard-out")
    os.makedirs(out, exist_ok=True)
    source = os.path.join(FOLDER, "clip-1080p-60s-gop2s.mp4")
    clip(source)
    # The times mediatool takes for --count 100: the middles of 100 equal intervals.
    times = [(index + 0.5) * 60 / 100 for index in range(100)]
    calls = " ".join(f"ffmpegthumbnailer -i {source} -o {out}/ft-{index}.jpg -s 160 -t {time:.2f}"
                     for index, time in enumerate(times))
    print(f"100-cell sprite (10x10, 160 px) of 60 s 1080p H.264, 2 s GOP, median of {options.runs} runs")
    results = compare({
        "mediatool storyboard": [MEDIATOOL, "storyboard", "--overwrite", "--vtt", f"{out}/m.vtt", source],
        "mediatool storyboard --keyframe": [MEDIATOOL, "storyboard", "--overwrite", "--keyframe", "--vtt", f"{out}/k.vtt", source],
        "mediatool storyboard --exact": [MEDIATOOL, "storyboard", "--overwrite", "--exact", "--vtt", f"{out}/e.vtt", source],
        "ffmpeg fps,scale,tile": ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", source,
                                  "-vf", "fps=100/60,scale=160:-2,tile=10x10", "-frames:v", "1", f"{out}/f.jpg"],
        "100 x ffmpegthumbnailer": ["sh", "-c", calls.replace(" ffmpegthumbnailer", "; ffmpegthumbnailer")],
    }, options.runs)
    table(results)
    base = results["mediatool storyboard"][0]
    print(f"mediatool is {results['ffmpeg fps,scale,tile'][0] / base:.1f}x as fast as ffmpeg's tile (target >= 5), "
          f"{results['100 x ffmpegthumbnailer'][0] / base:.1f}x as fast as 100 ffmpegthumbnailer calls (target >= 10); "
          f"--keyframe {results['ffmpeg fps,scale,tile'][0] / results['mediatool storyboard --keyframe'][0]:.1f}x ffmpeg; "
          f"--exact {results['ffmpeg fps,scale,tile'][0] / results['mediatool storyboard --exact'][0]:.1f}x ffmpeg; "
          f"peak {results['mediatool storyboard'][1] / 1024:.1f} MiB against ffmpeg {results['ffmpeg fps,scale,tile'][1] / 1024:.1f} MiB "
          f"(target: no more)")


if __name__ == "__main__":
    main()
