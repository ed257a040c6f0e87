"""scripts/bench crop: a 1500x1000 crop from the middle of a 24-megapixel photo-like JPEG stored
with orientation 6, and of a 24-megapixel PNG, against vips and ImageMagick; JPEG to JPEG against
vips, and without loss against jpegtran; HEIC grids of 12 and 100 megapixels against vips.
--only jpeg|png|heic|webp|tiff runs one part."""
import os
import subprocess

from measure import arguments, compare, table
import heic

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]
WIDTH, HEIGHT = 6000, 4000
CROP_WIDTH, CROP_HEIGHT = 1500, 1000


def pictures(jpeg, png):
    """A noisy moving test pattern, as a camera's JPEG (quality 90, 4:2:0, orientation 6) and as PNG."""
    if os.path.exists(jpeg) and os.path.exists(png):
        return
    ppm = os.path.join(FOLDER, "photo.ppm")
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi",
                    "-i", f"testsrc2=size={WIDTH}x{HEIGHT}:rate=1,noise=alls=18:allf=t", "-frames:v", "1", ppm], check=True)
    subprocess.run(["cjpeg", "-quality", "90", "-outfile", jpeg + ".part", ppm], check=True)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-Orientation#=6", jpeg + ".part"], check=True)
    os.replace(jpeg + ".part", jpeg)
    subprocess.run(["convert", ppm, "png:" + png + ".part"], check=True)
    os.replace(png + ".part", png)
    os.remove(ppm)


def main():
    options = arguments(__doc__)
    jpeg = os.path.join(FOLDER, "photo-24mp-orientation6.jpg")
    png = os.path.join(FOLDER, "photo-24mp.png")
    pictures(jpeg, png)
    out = os.path.join(FOLDER, "crop-out")
    os.makedirs(out, exist_ok=True)
    for name, source, shown in (("JPEG", jpeg, (HEIGHT, WIDTH)), ("PNG", png, (WIDTH, HEIGHT))):
        if options.only and not name.lower().startswith(options.only):
            continue
        x, y = (shown[0] - CROP_WIDTH) // 2, (shown[1] - CROP_HEIGHT) // 2
        print(f"{name}: {CROP_WIDTH}x{CROP_HEIGHT} at {x},{y} of {shown[0]}x{shown[1]} as displayed, "
              f"median of {options.runs} runs")
        results = compare({
            "mediatool": [MEDIATOOL, "crop", "--overwrite", source, "--rect", f"{x},{y},{CROP_WIDTH},{CROP_HEIGHT}",
                          "-o", f"{out}/m.png"],
            "vips": ["vips", "crop", f"{source}[autorotate]" if name == "JPEG" else source, f"{out}/v.png",
                     str(x), str(y), str(CROP_WIDTH), str(CROP_HEIGHT)],
            "convert": ["convert", source, "-auto-orient", "-crop", f"{CROP_WIDTH}x{CROP_HEIGHT}+{x}+{y}", "+repage",
                        f"{out}/c.png"],
        }, options.runs)
        table(results)
        target = 2 if name == "JPEG" else 1.2
        print(f"mediatool is {results['vips'][0] / results['mediatool'][0]:.2f}x as fast as vips (target >= {target}), "
              f"{results['convert'][0] / results['mediatool'][0]:.2f}x as fast as convert (target >= 3); "
              f"peak {results['mediatool'][1] / 1024:.1f} MiB against vips {results['vips'][1] / 1024:.1f} MiB")

    if not options.only or options.only == "heic":
        heic_grids(out, options)
    if not options.only or options.only in ("webp", "tiff"):
        webp_and_tiff(png, out, options)
    if options.only and not options.only.startswith("jpeg"):
        return
    # JPEG to JPEG at quality 90, EXIF kept: what a photo crop for the web is.
    x, y = (HEIGHT - CROP_WIDTH) // 2, (WIDTH - CROP_HEIGHT) // 2
    print(f"JPEG to JPEG (quality 90): {CROP_WIDTH}x{CROP_HEIGHT} at {x},{y}, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "crop", "--overwrite", jpeg, "--rect", f"{x},{y},{CROP_WIDTH},{CROP_HEIGHT}",
                      "--quality", "90", "-o", f"{out}/m.jpg"],
        "vips": ["vips", "crop", f"{jpeg}[autorotate]", f"{out}/v.jpg[Q=90]", str(x), str(y), str(CROP_WIDTH), str(CROP_HEIGHT)],
    }, options.runs)
    table(results)
    print(f"mediatool is {results['vips'][0] / results['mediatool'][0]:.2f}x as fast as vips (target >= 2); "
          f"peak {results['mediatool'][1] / 1024:.1f} MiB against vips {results['vips'][1] / 1024:.1f} MiB (target: no more)")

    # Without loss: the source's blocks, turned upright and cropped on the 16-pixel grid.
    x, y = x // 16 * 16, y // 16 * 16
    print(f"JPEG to JPEG without loss: {CROP_WIDTH}x{CROP_HEIGHT} at {x},{y}, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "crop", "--overwrite", "--lossless", jpeg, "--rect", f"{x},{y},{CROP_WIDTH},{CROP_HEIGHT}",
                      "-o", f"{out}/m-lossless.jpg"],
        "jpegtran": ["jpegtran", "-perfect", "-rotate", "90", "-crop", f"{CROP_WIDTH}x{CROP_HEIGHT}+{x}+{y}", "-copy", "all",
                     "-outfile", f"{out}/j.jpg", jpeg],
    }, options.runs)
    table(results)
    print(f"mediatool is {results['jpegtran'][0] / results['mediatool'][0]:.2f}x as fast as jpegtran (target >= 1); "
          f"peak {results['mediatool'][1] / 1024:.1f} MiB against jpegtran {results['jpegtran'][1] / 1024:.1f} MiB (target: no more)")


def webp_and_tiff(png, out, options):
    """The 24 MP picture as a lossy WebP (quality 90) and as a striped Deflate TIFF, as vips writes them."""
    for name, suffix, settings in (("WebP", "webp", "[Q=90]"), ("TIFF", "tif", "[compression=deflate]")):
        if options.only and options.only != suffix[:4] and options.only != name.lower():
            continue
        path = os.path.join(FOLDER, f"photo-24mp.{suffix}")
        if not os.path.exists(path):
            subprocess.run(["vips", "copy", png, path + ".part." + suffix + settings], check=True)
            os.replace(path + ".part." + suffix, path)
        versus_vips(name, path, (WIDTH, HEIGHT), out, options, speed=1.5, memory="no more")


def heic_grids(out, options):
    """A phone's 12 MP HEIC (8x6 tiles of 512) and a 100 MP one (24x16 tiles), shown with orientation 6."""
    for label, columns, rows, speed, memory in (("12 MP", 8, 6, 2, 0.5), ("100 MP", 24, 16, 20, 0.1)):
        path = os.path.join(FOLDER, f"grid-{columns}x{rows}.heic")
        heic.make(path, columns, rows, FOLDER)
        versus_vips(f"HEIC {label}", path, (rows * heic.TILE, columns * heic.TILE), out, options,
                    speed=speed, memory=f"<= {memory:g} of it")


def versus_vips(label, path, shown, out, options, speed, memory):
    """A 1500x1000 crop from the middle of `path` (shown as `shown`), mediatool against `vips crop`."""
    x, y = (shown[0] - CROP_WIDTH) // 2, (shown[1] - CROP_HEIGHT) // 2
    print(f"{label}: {CROP_WIDTH}x{CROP_HEIGHT} at {x},{y} of {shown[0]}x{shown[1]} as displayed, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "crop", "--overwrite", path, "--rect", f"{x},{y},{CROP_WIDTH},{CROP_HEIGHT}", "-o", f"{out}/m.png"],
        "vips": ["vips", "crop", path, f"{out}/v.png", str(x), str(y), str(CROP_WIDTH), str(CROP_HEIGHT)],
    }, options.runs)
    table(results)
    print(f"mediatool is {results['vips'][0] / results['mediatool'][0]:.2f}x as fast as vips (target >= {speed}); "
          f"peak {results['mediatool'][1] / 1024:.1f} MiB against vips {results['vips'][1] / 1024:.1f} MiB (target: {memory})")


if __name__ == "__main__":
    main()
