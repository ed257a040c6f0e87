"""scripts/bench thumbnail: a full-size PNG from a 1080p H.264 clip with B-frames and a 10-second
GOP, in the middle of a GOP: exact against the ffmpeg CLI, keyframe against ffmpegthumbnailer; then a
4K HLG clip (10-bit HEVC, as phones record), keyframe against ffmpegthumbnailer (which does not tone
map) and against ffmpeg's zscale and tonemap filters. --only sdr|hlg runs one part."""
import os
import subprocess

from measure import arguments, compare, table

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]
SECONDS = 15  # keyframes at 0, 10, 20 s: 5 s (125 frames) into a GOP


def clip(path):
    """30 s of moving 1080p test pattern, 25 fps, x264 veryfast (3 B-frames, pyramid), GOP 250."""
    if os.path.exists(path):
        return
    subprocess.run([
        "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
        "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25:duration=30",
        "-c:v", "libx264", "-preset", "veryfast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0",
        "-pix_fmt", "yuv420p", path + ".part.mp4",
    ], check=True)
    os.replace(path + ".part.mp4", path)


def hlg_clip(path, transfer):
    """2 s of moving 4K test pattern in 10-bit HEVC (x265 ultrafast), GOP 1 s, tagged BT.2020 with `transfer`."""
    if os.path.exists(path):
        return
    subprocess.run([
        "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
        "-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30:duration=2",
        "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "keyint=30:log-level=error", "-pix_fmt", "yuv420p10le",
        "-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc", path + ".part.mp4",
    ], check=True)
    os.replace(path + ".part.mp4", path)


def hlg(options, out):
    source = os.path.join(FOLDER, "clip-4k-hlg.mp4")
    hlg_clip(source, "arib-std-b67")
    untagged = os.path.join(FOLDER, "clip-4k-10bit-sdr.mp4")
    hlg_clip(untagged, "bt709")
    print(f"4K HLG (10-bit HEVC), keyframe at 1 s, full-size PNG, median of {options.runs} runs")
    results = compare({
        "mediatool --keyframe": [MEDIATOOL, "thumbnail", "--overwrite", "--keyframe", "--at", "1", source, "-o", f"{out}/h.png"],
        "mediatool, same frame as SDR": [MEDIATOOL, "thumbnail", "--overwrite", "--keyframe", "--at", "1", untagged, "-o", f"{out}/s.png"],
        "ffmpegthumbnailer": ["ffmpegthumbnailer", "-i", source, "-o", f"{out}/ht.png", "-s", "0", "-t", "00:00:01"],
        # ffmpegthumbnailer cannot seek in this clip and decodes the first frame: the same work, for memory.
        "mediatool --keyframe --at 0": [MEDIATOOL, "thumbnail", "--overwrite", "--keyframe", "--at", "0", source, "-o", f"{out}/h0.png"],
        "ffmpegthumbnailer -t 0": ["ffmpegthumbnailer", "-i", source, "-o", f"{out}/ht0.png", "-s", "0", "-t", "0"],
        "ffmpeg zscale+tonemap": ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-ss", "1", "-i", source,
                                  "-frames:v", "1", "-vf", "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,"
                                  "tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=rgb24", f"{out}/hz.png"],
    }, options.runs)
    table(results)
    ratio = lambda a, b: results[b][0] / results[a][0]
    print(f"mediatool is {ratio('mediatool --keyframe', 'ffmpegthumbnailer'):.2f}x as fast as ffmpegthumbnailer (target >= 1.5), "
          f"{ratio('mediatool --keyframe', 'ffmpeg zscale+tonemap'):.2f}x as fast as ffmpeg's zscale (target >= 3); "
          f"tone mapping costs {results['mediatool --keyframe'][0] / results['mediatool, same frame as SDR'][0]:.2f}x "
          f"the SDR path (target <= 1.3); peak {results['mediatool --keyframe'][1] / 1024:.1f} MiB against "
          f"ffmpegthumbnailer {results['ffmpegthumbnailer'][1] / 1024:.1f} MiB (target: no more); at the first frame, which "
          f"ffmpegthumbnailer decodes either way: {results['mediatool --keyframe --at 0'][1] / 1024:.1f} MiB against "
          f"{results['ffmpegthumbnailer -t 0'][1] / 1024:.1f} MiB")


def main():
    options = arguments(__doc__)
    out = os.path.join(FOLDER, "thumbnail-out")
    os.makedirs(out, exist_ok=True)
    if options.only != "hlg":
        sdr(options, out)
    if options.only in (None, "hlg"):
        hlg(options, out)


def sdr(options, out):
    source = os.path.join(FOLDER, "clip-1080p-gop10s.mp4")
    clip(source)
    stamp = f"00:00:{SECONDS:02d}"
    print(f"1080p H.264, B-frames, 10 s GOP, frame at {SECONDS} s, full-size PNG, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "thumbnail", "--overwrite", "--at", str(SECONDS), source, "-o", f"{out}/m.png"],
        "ffmpeg": ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-ss", str(SECONDS),
                   "-i", source, "-frames:v", "1", f"{out}/f.png"],
        # The same job at the GOP's own keyframe: everything but decoding the frames between.
        "mediatool at 10 s": [MEDIATOOL, "thumbnail", "--overwrite", "--at", "10", source, "-o", f"{out}/m10.png"],
        "mediatool --keyframe": [MEDIATOOL, "thumbnail", "--overwrite", "--keyframe", "--at", str(SECONDS), source,
                                 "-o", f"{out}/mk.png"],
        "ffmpegthumbnailer": ["ffmpegthumbnailer", "-i", source, "-o", f"{out}/t.png", "-s", "0", "-t", stamp],
        # The first frame, which ffmpegthumbnailer decodes whatever time it is given: memory alike.
        "mediatool --keyframe --at 0": [MEDIATOOL, "thumbnail", "--overwrite", "--keyframe", "--at", "0", source,
                                        "-o", f"{out}/mk0.png"],
        "ffmpegthumbnailer -t 0": ["ffmpegthumbnailer", "-i", source, "-o", f"{out}/t0.png", "-s", "0", "-t", "0"],
    }, options.runs)
    table(results)
    ratio = lambda a, b: results[b][0] / results[a][0]
    print(f"exact: mediatool is {ratio('mediatool', 'ffmpeg'):.2f}x as fast as ffmpeg -ss (target >= 3)")
    floor = results["mediatool at 10 s"][0]
    print(f"exact: {results['mediatool'][0] - floor:.3f} s of it decodes the 5 s from the keyframe; the rest, "
          f"{floor:.3f} s, is the same job at the keyframe (3x would leave "
          f"{results['ffmpeg'][0] / 3 - floor:.3f} s for that decoding)")
    print(f"keyframe: mediatool is {ratio('mediatool --keyframe', 'ffmpegthumbnailer'):.2f}x as fast as "
          f"ffmpegthumbnailer (target >= 1.5)")
    print(f"peak memory: mediatool {results['mediatool'][1] / 1024:.1f} MiB exact, "
          f"{results['mediatool --keyframe'][1] / 1024:.1f} MiB keyframe; "
          f"ffmpegthumbnailer {results['ffmpegthumbnailer'][1] / 1024:.1f} MiB (target: no more); at the first frame, which "
          f"ffmpegthumbnailer decodes either way: {results['mediatool --keyframe --at 0'][1] / 1024:.1f} MiB against "
          f"{results['ffmpegthumbnailer -t 0'][1] / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
