"""scripts/bench probe: `mediatool probe` of 200 mixed uploads (camera and phone photos, HEIC, WebP,
TIFF, MP4, MOV and WebM videos) in one run, against one `exiftool -json -fast` over the same folder
and a loop of `ffprobe -show_format -show_streams -of json`, one process a file, as upload pipelines
run it. Targets: 10x exiftool, 20x the ffprobe loop, peak memory under 60 MiB."""
import os
import shutil
import subprocess

import crop
from measure import arguments, compare, table

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *args], check=True)


def made(path, make):
    """`path`, made by `make(partial)` once and kept in the bench folder."""
    if not os.path.exists(path):
        partial = path + ".part" + os.path.splitext(path)[1]
        make(partial)
        os.replace(partial, path)
    return path


def sources():
    jpeg = os.path.join(FOLDER, "photo-24mp-orientation6.jpg")
    png = os.path.join(FOLDER, "photo-24mp.png")
    crop.pictures(jpeg, png)

    def camera(partial):
        shutil.copy(jpeg, partial)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-Make=Mediatool", "-Model=Bench 24", "-DateTimeOriginal=2024:05:01 12:34:56",
                        "-OffsetTimeOriginal=+02:00", "-GPSLatitude=48.8583", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945",
                        "-GPSLongitudeRef=E", partial], check=True)

    def phone_heic(partial):
        wide = partial + ".png"
        subprocess.run(["vips", "thumbnail", png, wide, "4032", "--size", "force", "--height", "3024"], check=True)
        subprocess.run(["heif-enc", "-q", "80", "-t", "320", wide, "-o", partial], check=True, capture_output=True)
        os.remove(wide)

    def phone_mov(partial):
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=10", "-f", "lavfi", "-i", "sine=duration=10:sample_rate=48000",
               "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le",
               "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", "-tag:v", "hvc1", "-c:a", "aac",
               "-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.creationdate=2024-05-01T12:34:56+0200",
               "-metadata", "com.apple.quicktime.location.ISO6709=+48.8583+002.2945+035.000/",
               "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15 Pro", "-f", "mov", partial)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-Track1:MatrixStructure=0 1 0 -1 0 0 0 0 1", partial], check=True)

    def mp4(partial):
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25:duration=60", "-f", "lavfi", "-i", "sine=duration=60",
               "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-pix_fmt", "yuv420p", "-c:a", "aac", partial)

    def webm(partial):
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:duration=20", "-f", "lavfi", "-i", "sine=duration=20",
               "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "2M", "-g", "125", "-c:a", "libopus", "-f", "webm", partial)

    return [
        (made(os.path.join(FOLDER, "probe-camera-24mp.jpg"), camera), 60),
        (made(os.path.join(FOLDER, "photo-12mp-thumbnail.heic"), phone_heic), 30),
        (made(os.path.join(FOLDER, "photo-24mp.webp"), lambda p: subprocess.run(["vips", "copy", png, p + "[Q=90]"], check=True)), 20),
        (made(os.path.join(FOLDER, "photo-24mp.tif"), lambda p: subprocess.run(["vips", "copy", png, p + "[compression=deflate]"], check=True)), 20),
        (made(os.path.join(FOLDER, "probe-1080p-60s.mp4"), mp4), 30),
        (made(os.path.join(FOLDER, "probe-phone-hlg.mov"), phone_mov), 20),
        (made(os.path.join(FOLDER, "probe-720p-vp9.webm"), webm), 20),
    ]


def uploads():
    """200 files: each source linked under as many names as its share."""
    folder = os.path.join(FOLDER, "probe-uploads")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for source, count in sources():
        extension = os.path.splitext(source)[1]
        for index in range(count):
            os.link(source, os.path.join(folder, f"{os.path.basename(source).rsplit('.', 1)[0]}-{index:03d}{extension}"))
    return folder


def main():
    options = arguments(__doc__)
    folder = uploads()
    names = sorted(os.path.join(folder, name) for name in os.listdir(folder))
    loop = 'for f in "$@"; do ffprobe -v quiet -show_format -show_streams -of json "$f"; done'
    print(f"{len(names)} files, median of {options.runs} runs")
    results = compare({
        "mediatool probe": [MEDIATOOL, "probe", "--quiet", "--format", "json", folder],
        "mediatool probe --sandbox off": [MEDIATOOL, "probe", "--quiet", "--format", "json", "--sandbox", "off", folder],
        "exiftool -json -fast": ["exiftool", "-json", "-fast", folder],
        "ffprobe loop": ["bash", "-c", loop, "ffprobe-loop", *names],
    }, options.runs)
    table(results)
    ours = results["mediatool probe"][0]
    print(f"mediatool probe: {1000 * ours / len(names):.2f} ms a file; "
          f"{results['exiftool -json -fast'][0] / ours:.1f}x exiftool (target >= 10), "
          f"{results['ffprobe loop'][0] / ours:.1f}x the ffprobe loop (target >= 20), "
          f"peak {results['mediatool probe'][1] / 1024:.1f} MiB (target < 60)")


if __name__ == "__main__":
    main()
