"""scripts/bench transcode: the web video of two uploads, mediatool against the ffmpeg recipe a
site would write for the same result, at the same x264 preset and CRF (veryfast, 23), sound as AAC,
+faststart:
  - 10 s of 1080p SDR H.264 at 30 fps with stereo sound, to 720p;
  - 5 s of 4K HLG HEVC 10-bit (an iPhone's kind) at 30 fps made from an SDR pattern by BT.2100's
    maths, to 1080p SDR: ffmpeg scales first, then zscale and tonemap (hable) to BT.709, the
    recipe of its documentation's examples;
  - a 3-rung HLS ladder (720, 480 and 360 lines, 4 s segments at the same frames, fragmented MP4
    by byte range) of 10 s of 720p SDR H.264 with sound: one `transcode --hls` against three
    ffmpeg runs of its hls muxer, one a rendition, keyframes forced every 4 s and no scene cuts.
Then what came out: its bytes, and the PSNR of its frames against the SDR it was made from (the
1080p source; the pattern itself for the HLG clip), all decoded by ffmpeg as a player shows them."""
import math
import os
import subprocess
import sys

import numpy

from measure import arguments, compare, table
from probe import ffmpeg, made

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fixtures"))
import hdr  # noqa: E402

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]


def sources():
    hd = made(os.path.join(FOLDER, "transcode-1080p.mp4"), lambda partial: ffmpeg(
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=10", "-f", "lavfi", "-i", "sine=frequency=440:duration=10",
        "-c:v", "libx264", "-preset", "medium", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", partial))
    # A moving 4K pattern made HLG from its SDR pixels by BT.2100's maths (SDR white at HDR
    # reference white, as the HDR fixtures are made): tone mapped back, each tool's frames can
    # be compared with the SDR pattern itself.
    hlg = made(os.path.join(FOLDER, "transcode-4k-hlg-from-sdr.mp4"), hlg_from_sdr)
    hd720 = made(os.path.join(FOLDER, "transcode-720p.mp4"), lambda partial: ffmpeg(
        "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=10", "-f", "lavfi", "-i", "sine=frequency=440:duration=10",
        "-c:v", "libx264", "-preset", "medium", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", partial))
    return hd, hlg, hd720


PATTERN = ["-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30:duration=5"]


def hlg_from_sdr(partial, width=3840, height=2160):
    """The 4K pattern's sRGB frames to 10-bit HLG HEVC (BT.2020), a frame at a time through numpy."""
    a = 0.17883277
    b, c = 1 - 4 * a, 0.5 - a * math.log(4 * a)
    codes = numpy.arange(256) / 255
    to_linear = numpy.where(codes <= 0.04045, codes / 12.92, ((codes + 0.055) / 1.055) ** 2.4).astype(numpy.float32)
    to_2020 = numpy.array(hdr.TO_2020, numpy.float32).T
    reader = subprocess.Popen(["ffmpeg", "-v", "error", *PATTERN, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], stdout=subprocess.PIPE)
    writer = subprocess.Popen(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb48le", "-s", f"{width}x{height}", "-r", "30",
                               "-i", "-", "-vf", "scale=out_color_matrix=bt2020:out_range=tv:flags=accurate_rnd+full_chroma_int",
                               "-pix_fmt", "yuv420p10le", "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "keyint=30:log-level=error",
                               "-tag:v", "hvc1", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", partial],
                              stdin=subprocess.PIPE)
    size = width * height * 3
    while len(frame := reader.stdout.read(size)) == size:
        nits = to_linear[numpy.frombuffer(frame, numpy.uint8).reshape(-1, 3)] * numpy.float32(hdr.WHITE) @ to_2020
        luminance = nits @ numpy.array([0.2627, 0.6780, 0.0593], numpy.float32)
        gain = 1000 * numpy.maximum(luminance / 1000, 1e-12) ** numpy.float32(0.2 / 1.2)
        scene = numpy.maximum(nits / gain[:, None], 0)
        signals = numpy.where(scene <= 1 / 12, numpy.sqrt(3 * scene), a * numpy.log(numpy.maximum(12 * scene - b, 1e-12)) + c)
        signals[luminance <= 0] = 0
        writer.stdin.write((numpy.clip(signals, 0, 1) * 65535).round().astype("<u2").tobytes())
    writer.stdin.close()
    if reader.wait() != 0 or writer.wait() != 0:
        raise SystemExit("bench: the HLG source could not be made")


def frames(path, width, height, count=10):
    """The first `count` frames of `path` (a file, or a list of ffmpeg's input arguments) as RGB."""
    # Read as a player shows them: every file here is HD, tagged BT.709 or untagged (which players
    # take as BT.709 at this size). Left to itself, FFmpeg 5.1's conversion reads BT.601 whatever
    # the tag, which made two files with the same colours 10 dB apart.
    source = path if isinstance(path, list) else ["-i", path]
    raw = subprocess.run(["ffmpeg", "-v", "error", *source, "-frames:v", str(count), "-vf",
                          f"scale={width}:{height}:flags=bicubic+accurate_rnd+full_chroma_int:in_color_matrix=bt709:in_range=tv,format=rgb24",
                          "-f", "rawvideo", "-"], capture_output=True, check=True).stdout
    return numpy.frombuffer(raw, numpy.uint8).astype(float)


def psnr(a, b):
    n = min(a.size, b.size)
    squares = numpy.mean((a[:n] - b[:n]) ** 2)
    return float("inf") if squares == 0 else 10 * numpy.log10(255 * 255 / squares)


def main():
    options = arguments(__doc__)
    hd, hlg, hd720 = sources()
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
          "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"], PATTERN),
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
    if not options.only or "3-rung HLS ladder".startswith(options.only):
        ladder(hd720, out, x264, options.runs)


def ladder(source, out, x264, runs):
    """One `transcode --hls` against three ffmpeg runs, a rendition each."""
    mine = os.path.join(out, "ladder-mediatool")
    theirs = os.path.join(out, "ladder-ffmpeg")
    os.makedirs(theirs, exist_ok=True)
    renditions = []
    for height in (720, 480, 360):
        renditions.append(" ".join([
            "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", source, "-vf", f"scale=-2:{height}",
            *[argument for argument in x264 if argument not in ("-movflags", "+faststart")],
            "-force_key_frames", "'expr:gte(t,n_forced*4)'", "-sc_threshold", "0",
            "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4", "-hls_flags", "single_file",
            os.path.join(theirs, f"{height}p.m3u8")]))
    results = compare({
        "mediatool transcode --hls": ["sh", "-c", f'rm -rf "{mine}" && exec "{MEDIATOOL}" transcode --hls "{mine}" "{source}"'],
        "ffmpeg x3": ["sh", "-c", " && ".join(renditions)],
    }, runs)
    print("3-rung HLS ladder of 720p SDR H.264 (720, 480, 360)")
    table(results)
    ratio = results["ffmpeg x3"][0] / results["mediatool transcode --hls"][0]
    stem = os.path.splitext(os.path.basename(source))[0]
    mine_bytes = sum(os.path.getsize(os.path.join(mine, f"{stem}.{height}p.mp4")) for height in (720, 480, 360))
    theirs_bytes = sum(os.path.getsize(os.path.join(theirs, f"{height}p.m4s")) for height in (720, 480, 360))
    print(f"  mediatool {ratio:.2f}x three ffmpeg runs; bytes {mine_bytes} against {theirs_bytes} ({mine_bytes / theirs_bytes - 1:+.1%})\n")


if __name__ == "__main__":
    main()
