"""The placeholders and hashes of pictures by their reference implementations from PyPI
(thumbhash-python, blurhash, ImageHash), against mediatool's.

    digest_references.py pixels WIDTH HEIGHT RAW...
        Each RAW file is WIDTH x HEIGHT RGBA, 8 bits. One JSON object a file: the references'
        thumbhash (base64; null over 100x100), blurhash (4x3), dhash and phash of exactly those pixels.
    digest_references.py compare
        Reads JSON lines {"path", "thumbhash", "blurhash", "dhash", "phash"} (mediatool's) on standard
        input ("upright": true for a picture decoded upright already). Each picture is hashed as a
        site would: opened by Pillow and turned upright by its EXIF orientation; BlurHash's pure-Python encoder from Pillow's 100x100 thumbnail, as its
        documentation advises (the whole of a large picture takes it minutes). One JSON line each:
        the references' values, the PSNR (dB) between the pictures both placeholders decode to
        with the references' decoders, how many bits of each hash differ, how many of the
        reference's bits are fragile (`fragile_bits`), and Pillow's mode for the picture. --keep-going: a
        picture the reference cannot read gives {"error": ...} and the rest go on.
"""
import base64, json, math, sys
import blurhash, imagehash, thumbhash
from thumbhash.encode import rgba_to_thumbhash
from PIL import Image, ImageOps

SIDE = 32


def rows(image):
    image = image.convert("RGB")
    return [[list(image.getpixel((x, y))) for x in range(image.width)] for y in range(image.height)]


def thumbhash_of(image):
    rgba = image.convert("RGBA")
    return base64.b64encode(rgba_to_thumbhash(rgba.width, rgba.height, list(rgba.tobytes()))).decode()


def psnr(first, second):
    errors = [(a - b) ** 2 for row_a, row_b in zip(first, second) for pa, pb in zip(row_a, row_b) for a, b in zip(pa, pb)]
    mse = sum(errors) / len(errors)
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def thumbhash_picture(text):
    return rows(thumbhash.thumbhash_to_image(text).convert("RGB").resize((SIDE, SIDE), Image.Resampling.BILINEAR))


def fragile_bits(image):
    """The bits of the reference's hashes that any rounding may flip: dHash's neighbours within one
    level of each other, and pHash's coefficients within 8 of their median (one level more or less
    in one pixel of the 32x32 moves a coefficient by up to 4). A flat picture's are nearly all."""
    import numpy
    import scipy.fftpack
    grey = numpy.asarray(image.convert("L").resize((9, 8), Image.Resampling.LANCZOS), dtype=float)
    dhash = int((abs(grey[:, 1:] - grey[:, :-1]) <= 1).sum())
    pixels = numpy.asarray(image.convert("L").resize((32, 32), Image.Resampling.LANCZOS), dtype=float)
    low = scipy.fftpack.dct(scipy.fftpack.dct(pixels, axis=0), axis=1)[:8, :8]
    phash = int((abs(low - numpy.median(low)) < 8).sum())
    return {"dhash_fragile": dhash, "phash_fragile": phash}


def bits(first, second):
    return bin(int(first, 16) ^ int(second, 16)).count("1")


def main():
    if sys.argv[1] == "pixels":
        width, height = int(sys.argv[2]), int(sys.argv[3])
        for path in sys.argv[4:]:
            with open(path, "rb") as raw:
                image = Image.frombytes("RGBA", (width, height), raw.read())
            print(json.dumps({
                "thumbhash": thumbhash_of(image) if width <= 100 and height <= 100 else None,
                "blurhash": blurhash.encode(rows(image), 4, 3),
                "dhash": str(imagehash.dhash(image)), "phash": str(imagehash.phash(image)),
            }), flush=True)
        return
    keep_going = "--keep-going" in sys.argv
    try:
        # HEIC and AVIF where pillow-heif is there (scripts/realworld's references have it).
        import pillow_heif
        pillow_heif.register_heif_opener()
    except ImportError:
        pass
    for line in sys.stdin:
        ours = json.loads(line)
        if keep_going:
            try:
                compare(ours)
            except Exception as error:  # a picture the reference cannot read: said, not fatal
                print(json.dumps({"error": str(error)}), flush=True)
        else:
            compare(ours)


def compare(ours):
    image = Image.open(ours["path"])
    image.load()
    # A picture decoded upright already (a HEIF by heif-convert, which keeps its EXIF; a TIFF by
    # Pillow 9.4's libtiff reader) is not turned again.
    if not ours.get("upright"):
        image = ImageOps.exif_transpose(image)
    # Converted before it is reduced, as thumbhash-python does: Pillow reduces a palette picture
    # by its nearest pixel, not by its filter.
    small = image.convert("RGBA")
    small.thumbnail((100, 100))
    reference = {"thumbhash": thumbhash_of(small), "blurhash": blurhash.encode(rows(small), 4, 3),
                 "dhash": str(imagehash.dhash(image)), "phash": str(imagehash.phash(image))}
    print(json.dumps({
        "reference": reference,
        "mode": image.mode,
        # BlurHash and ImageHash take the colours hidden under transparent pixels, which
        # mediatool's reduction, weighing colours by their alpha, does not keep.
        "transparent": image.convert("RGBA").getextrema()[3][0] < 255,
        **fragile_bits(image),
        "thumbhash_db": psnr(thumbhash_picture(ours["thumbhash"]), thumbhash_picture(reference["thumbhash"])),
        "blurhash_db": psnr(blurhash.decode(ours["blurhash"], SIDE, SIDE), blurhash.decode(reference["blurhash"], SIDE, SIDE)),
        "dhash_bits": bits(ours["dhash"], reference["dhash"]),
        "phash_bits": bits(ours["phash"], reference["phash"]),
    }), flush=True)


if __name__ == "__main__":
    main()
