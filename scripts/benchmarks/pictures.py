"""scripts/bench pictures: thumbnails of photos against `vips thumbnail`, with the bars
set for it: a 24 MP camera JPEG (orientation 6) to 256 px; six sizes (150 to 2048) from it in one run
against six vips runs; a 12 MP phone HEIC (8x6 grid of 512 tiles) to 256 px, without and with the
thumbnail item phones write; a 24 MP PNG to 256 px (memory); WebP and TIFF to 256 px. Each output's
quality is its PSNR against Pillow's Lanczos reduction of the whole decoded, upright picture.
Then six AVIF sizes of a 24 MP camera JPEG (a real phone photo of the real-world corpus, enlarged
to 6000x4000) against six `vips thumbnail ... .avif` runs at vips's defaults (Q=50, effort 4):
bytes and PSNR at 1024 px compared, mediatool at --quality 80, the JPEG-scale quality that maps
to about vips's bytes.
--only jpeg|sizes|heic|png|webp|tiff|avif runs one part."""
import math
import os
import shutil
import subprocess

from measure import arguments, compare, table
import heic
import crop

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]
SIZES = (150, 300, 768, 1024, 1536, 2048)


def psnr_against_pillow(source, output):
    """PSNR of `output` against Pillow's Lanczos reduction of `source` (upright) to the same size."""
    from PIL import Image, ImageOps
    import numpy
    if source.endswith(".heic"):
        decoded = os.path.join(FOLDER, "pictures-out", "whole.png")
        subprocess.run(["heif-convert", source, decoded], check=True, capture_output=True)
        source = decoded
    with Image.open(source) as whole, Image.open(output) as made:
        upright = ImageOps.exif_transpose(whole).convert("RGB")
        reference = upright.resize(made.size, Image.LANCZOS)
        difference = numpy.asarray(made.convert("RGB"), float) - numpy.asarray(reference, float)
        mean = (difference ** 2).mean()
        return math.inf if mean == 0 else 10 * math.log10(255 ** 2 / mean)


def one_size(label, source, size, out, options, speed=None, memory=None):
    mine, theirs = os.path.join(out, "m.png"), os.path.join(out, "v.png")
    print(f"{label} to {size} px, median of {options.runs} runs")
    results = compare({
        "mediatool": [MEDIATOOL, "thumbnail", "--overwrite", "--size", str(size), source, "-o", mine],
        "vips": ["vips", "thumbnail", source, theirs, str(size)],
    }, options.runs)
    table(results)
    ours, vips = psnr_against_pillow(source, mine), psnr_against_pillow(source, theirs)
    print(f"mediatool is {results['vips'][0] / results['mediatool'][0]:.2f}x as fast as vips"
          + (f" (target >= {speed})" if speed else "")
          + f"; peak {results['mediatool'][1] / 1024:.1f} MiB against vips {results['vips'][1] / 1024:.1f} MiB"
          + (f" (target: {memory})" if memory else ""))
    print(f"PSNR against Pillow's Lanczos: mediatool {ours:.2f} dB, vips {vips:.2f} dB (target: >= vips - 0.5, >= 32)\n")


def six_sizes(source, out, options):
    print(f"JPEG to {len(SIZES)} sizes ({','.join(map(str, SIZES))}): one mediatool run against {len(SIZES)} vips runs, "
          f"median of {options.runs} runs")
    loop = "; ".join(f"vips thumbnail '{source}' '{out}/v{size}.png' {size}" for size in SIZES)
    results = compare({
        "mediatool": [MEDIATOOL, "thumbnail", "--overwrite", "--sizes", ",".join(map(str, SIZES)), source, "-o", f"{out}/m{{size}}.png"],
        "vips x6": ["sh", "-c", loop],
    }, options.runs)
    table(results)
    print(f"mediatool is {results['vips x6'][0] / results['mediatool'][0]:.2f}x as fast as six vips runs (target >= 3)")
    for size in SIZES:
        ours, vips = psnr_against_pillow(source, f"{out}/m{size}.png"), psnr_against_pillow(source, f"{out}/v{size}.png")
        print(f"  {size}: PSNR against Pillow's Lanczos: mediatool {ours:.2f} dB, vips {vips:.2f} dB")
    print()


CORPUS_PHOTO = os.path.join(os.environ.get("MEDIATOOL_CORPUS", os.path.expanduser("~/.cache/mediatool-realworld")),
                            "files/forensics-samples-files/usr/share/forensics-samples/original-files/pic2/IMG_20191224_234846.jpg")


def decoded_avif(path):
    """The AVIF decoded by libheif's heif-convert, as PNG, for Pillow."""
    png = path + ".png"
    subprocess.run(["heif-convert", path, png], check=True, capture_output=True)
    return png


def six_avif_sizes(out, options):
    source = os.path.join(FOLDER, "photo-24mp-camera.jpg")
    if not os.path.exists(source):
        if not os.path.exists(CORPUS_PHOTO):
            print(f"AVIF sizes: skipped, {CORPUS_PHOTO} is missing (scripts/realworld fetches the corpus)\n")
            return
        subprocess.run(["vips", "resize", CORPUS_PHOTO, source + ".part.jpg[Q=90]", "1.5"], check=True)
        os.replace(source + ".part.jpg", source)
    print(f"24 MP camera JPEG to {len(SIZES)} AVIF sizes: one mediatool run (--quality 80) against {len(SIZES)} vips runs "
          f"(its defaults), median of {options.runs} runs")
    loop = "; ".join(f"vips thumbnail '{source}' '{out}/v{size}.avif' {size}" for size in SIZES)
    results = compare({
        "mediatool": [MEDIATOOL, "thumbnail", "--overwrite", "--quality", "80", "--sizes", ",".join(map(str, SIZES)), source,
                      "-o", f"{out}/m{{size}}.avif"],
        "vips x6": ["sh", "-c", loop],
    }, options.runs)
    table(results)
    print(f"mediatool is {results['vips x6'][0] / results['mediatool'][0]:.2f}x as fast as six vips runs (target >= 2); "
          f"peak {results['mediatool'][1] / 1024:.1f} MiB against vips {results['vips x6'][1] / 1024:.1f} MiB (target: no more)")
    for size in SIZES:
        ours, vips = f"{out}/m{size}.avif", f"{out}/v{size}.avif"
        print(f"  {size}: {os.path.getsize(ours)} bytes against vips {os.path.getsize(vips)} "
              f"({os.path.getsize(ours) / os.path.getsize(vips) - 1:+.1%}); PSNR against Pillow's Lanczos: "
              f"mediatool {psnr_against_pillow(source, decoded_avif(ours)):.2f} dB, vips {psnr_against_pillow(source, decoded_avif(vips)):.2f} dB"
              + (" (target: bytes <= +10 %, PSNR >= vips - 0.5)" if size == 1024 else ""))
    print()


def main():
    options = arguments(__doc__)
    jpeg = os.path.join(FOLDER, "photo-24mp-orientation6.jpg")
    png = os.path.join(FOLDER, "photo-24mp.png")
    crop.pictures(jpeg, png)
    out = os.path.join(FOLDER, "pictures-out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)

    def wanted(part):
        return not options.only or options.only == part

    if wanted("jpeg"):
        one_size("24 MP JPEG (orientation 6)", jpeg, 256, out, options, speed=1.5, memory="no more")
    if wanted("sizes"):
        six_sizes(jpeg, out, options)
    if wanted("heic"):
        grid = os.path.join(FOLDER, "grid-8x6.heic")
        heic.make(grid, 8, 6, FOLDER)
        one_size("12 MP HEIC grid, no thumbnail item", grid, 256, out, options, speed=2)
        phone_grid = os.path.join(FOLDER, "grid-phone.heic")
        heic.make(phone_grid, 8, 6, FOLDER, phone=True)
        one_size("12 MP HEIC as an iPhone's: Display P3 profile, depth map", phone_grid, 256, out, options, speed=2)
        phone = os.path.join(FOLDER, "photo-12mp-thumbnail.heic")
        if not os.path.exists(phone):
            wide = os.path.join(out, "12mp.png")
            subprocess.run(["vips", "thumbnail", png, wide, "4032", "--size", "force", "--height", "3024"], check=True)
            subprocess.run(["heif-enc", "-q", "80", "-t", "320", wide, "-o", phone + ".part.heic"], check=True, capture_output=True)
            os.replace(phone + ".part.heic", phone)
        one_size("12 MP HEIC with a 320 px thumbnail item", phone, 256, out, options, speed=2)
    if wanted("png"):
        one_size("24 MP PNG", png, 256, out, options, memory="<= half of it")
    for suffix, settings in (("webp", "[Q=90]"), ("tiff", "[compression=deflate]")):
        if not wanted(suffix):
            continue
        path = os.path.join(FOLDER, f"photo-24mp.{suffix[:3] if suffix == 'tiff' else suffix}")
        if not os.path.exists(path):
            subprocess.run(["vips", "copy", png, path + ".part." + path.rsplit(".", 1)[1] + settings], check=True)
            os.replace(path + ".part." + path.rsplit(".", 1)[1], path)
        one_size(f"24 MP {suffix.upper()}", path, 256, out, options)
    if wanted("avif"):
        six_avif_sizes(out, options)


if __name__ == "__main__":
    main()
