"""scripts/bench transcode: the web video of two uploads, mediatool against the ffmpeg recipe a
site would write for the same result, at the same x264 preset and CRF (veryfast, 23), sound as AAC,
+faststart:
  - 10 s of 1080p SDR H.264 at 30 fps with stereo sound, to 720p;
  - 5 s of 4K HLG HEVC 10-bit (an iPhone's kind) at 30 fps, to 1080p SDR: ffmpeg scales first,
    then zscale and tonemap (hable) to BT.709, the recipe of its documentation's examples.
Then what came out: its bytes, and the PSNR of its frames against the source (the SDR pattern the
HLG clip's signal is), both decoded by ffmpeg."""
import os
import subprocess

import numpy

from measure import arguments, compare, table
from probe import ffmpeg, made

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]


def sources():
    # Lossless H.264 (x264's -qp 0): the SDR picture itself, in a file of a few tens of MB.
    sdr_source = made(os.path.join(FOLDER, "transcode-sdr-source-4k.mkv"), lambda partial: ffmpeg(
        "-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30:duration=5", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0",
        "-pix_fmt", "yuv420p", partial))
    hd = made(os.path.join(FOLDER, "transcode-1080p.mp4"), lambda partial: ffmpeg(
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=10", "-f", "lavfi", "-i", "sine=frequency=440:duration=10",
        "-c:v", "libx264", "-preset", "medium", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", partial))
    # A moving 4K pattern in 10-bit HEVC tagged HLG, as thumbnail's bench makes it: its signal is
    # the pattern's, not an SDR picture turned HLG (zscale finds no path from an untagged source
    # in FFmpeg 5.1), so its PSNR says how the two tone maps differ, not how close either is.
    hlg = made(os.path.join(FOLDER, "transcode-4k-hlg.mp4"), lambda partial: ffmpeg(
        "-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30:duration=5", "-c:v", "libx265", "-preset", "ultrafast",
        "-x265-params", "keyint=30:log-level=error", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
        "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", partial))
    return sdr_source, hd, hlg


def frames(path, width, height, count=10):
    # Read as a player shows them: every file here is HD, tagged BT.709 or untagged (which players
    # take as BT.709 at this size). Left to itself, FFmpeg 5.1's conversion reads BT.601 whatever
    # the tag, which made two files with the same colours 10 dB apart.
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-frames:v", str(count), "-vf",
                          f"scale={width}:{height}:flags=bicubic+accurate_rnd+full_chroma_int:in_color_matrix=bt709:in_range=tv,format=rgb24",
                          "-f", "rawvideo", "-"], capture_output=True, check=True).stdout
    return numpy.frombuffer(raw, numpy.uint8).astype(float)


def psnr(a, b):
    n = min(a.size, b.size)
    squares = numpy.mean((a[:n] - b[:n]) ** 2)
    return float("inf") if squares == 0 else 10 * numpy.log10(255 * 255 / squares)


def main():
    options = arguments(__doc__)
    sdr_source, hd, hlg = sources()
    out = os.path.join(FOLDER, "transcode-out")
    os.makedirs(out, exist_ok=True)
    print(f"median of {options.runs} runs\n")
    x264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-profile:v", "high", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart"]
    cases = [
        ("1080p SDR H.264 to 720p", hd, 720, ["-vf", "scale=-2:720"], hd),
        ("4K HLG HEVC to 1080p SDR", hlg, 1080,
         ["-vf", "scale=-2:1080,zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,"
                 "zscale=t=bt709:m=bt709:r=tv,format=yuv420p",
          "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"], sdr_source),
    ]
    for label, source, height, filters, reference in cases:
        if options.only and not label.startswith(options.only):
            continue
        mine = os.path.join(out, "mediatool.mp4")
        theirs = os.path.join(out, "ffmpeg.mp4")
        results = compare({
            "mediatool transcode": [MEDIATOOL, "transcode", "--height", str(height), "--overwrite", source, "-o", mine],
            "ffmpeg": ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", source, *filters, *x264, theirs],
        }, options.runs)
        print(label)
        table(results)
        ratio = results["ffmpeg"][0] / results["mediatool transcode"][0]
        width = height * 16 // 9
        reference_frames = frames(reference, width, height)
        print(f"  mediatool {ratio:.2f}x ffmpeg's speed; bytes {os.path.getsize(mine)} against {os.path.getsize(theirs)} "
              f"({os.path.getsize(mine) / os.path.getsize(theirs) - 1:+.1%}); PSNR against the SDR source "
              f"{psnr(frames(mine, width, height), reference_frames):.2f} dB against ffmpeg's "
              f"{psnr(frames(theirs, width, height), reference_frames):.2f} dB\n")


if __name__ == "__main__":
    main()
