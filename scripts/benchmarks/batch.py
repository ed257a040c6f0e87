"""scripts/bench batch: keyframe thumbnails of 40 clips (20 of 1080p H.264, 20 of 720p VP9) with two
workers in one process, against GNU parallel running two ffmpegthumbnailer processes at a time."""
import os
import shutil
import subprocess

from measure import arguments, compare, table

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *args], check=True)


def clips():
    """The 40 clips: two sources, each linked under 20 names."""
    h264 = os.path.join(FOLDER, "clip-1080p-gop10s.mp4")
    if not os.path.exists(h264):
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25:duration=30", "-c:v", "libx264", "-preset", "veryfast",
               "-g", "250", "-keyint_min", "250", "-sc_threshold", "0", "-pix_fmt", "yuv420p", h264 + ".part.mp4")
        os.replace(h264 + ".part.mp4", h264)
    vp9 = os.path.join(FOLDER, "clip-720p-vp9.webm")
    if not os.path.exists(vp9):
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:duration=20", "-c:v", "libvpx-vp9", "-deadline", "realtime",
               "-cpu-used", "8", "-b:v", "2M", "-g", "125", vp9 + ".part.webm")
        os.replace(vp9 + ".part.webm", vp9)
    folder = os.path.join(FOLDER, "batch-clips")
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    names = []
    for index in range(20):
        for source, extension in ((h264, "mp4"), (vp9, "webm")):
            name = os.path.join(folder, f"clip{index:02d}-{extension}.{extension}")
            os.link(source, name)
            names.append(name)
    return names


def main():
    options = arguments(__doc__)
    names = clips()
    ours = os.path.join(FOLDER, "batch-out-mediatool")
    theirs = os.path.join(FOLDER, "batch-out-parallel")
    for folder in (ours, theirs):
        os.makedirs(folder, exist_ok=True)
    print(f"{len(names)} clips (1080p H.264 and 720p VP9), keyframe at 10%, 2 at a time, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "thumbnail", "--keyframe", "--jobs", "2", "--at", "10%", "--quiet", "--overwrite",
                      "--out-dir", ours, *names],
        "parallel": ["parallel", "-j2", "ffmpegthumbnailer", "-i", "{}", "-o", theirs + "/{/.}.png", "-s", "0",
                     "-t", "10%", ":::", *names],
    }, options.runs)
    table(results)
    rate = {name: len(names) / seconds for name, (seconds, _) in results.items()}
    print(f"throughput: mediatool {rate['mediatool']:.1f} clips/s, parallel + ffmpegthumbnailer "
          f"{rate['parallel']:.1f} clips/s: {rate['mediatool'] / rate['parallel']:.2f}x (target >= 2)")


if __name__ == "__main__":
    main()
