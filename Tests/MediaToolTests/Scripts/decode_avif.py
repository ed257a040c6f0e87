"""Decodes an AVIF with pillow-heif (its own libheif and aom, from PyPI: not the libheif mediatool
links) and writes its pixels as PNG with Pillow (8-bit pictures); prints what the file says as
JSON, and, for each --at X,Y, that pixel's samples as decoded (16-bit ones scaled to 0-65535).
usage: decode_avif.py IN.avif OUT.png [--profile-of SOURCE] [--at X,Y ...]"""
import argparse
import json

import numpy
import pillow_heif
from PIL import Image

parser = argparse.ArgumentParser()
parser.add_argument("avif")
parser.add_argument("png")
parser.add_argument("--profile-of")
parser.add_argument("--at", action="append", default=[])
options = parser.parse_args()

heif = pillow_heif.open_heif(options.avif, convert_hdr_to_8bit=False)
facts = {"mode": heif.mode, "width": heif.size[0], "height": heif.size[1], "bit_depth": heif.info.get("bit_depth", 8),
         "has_icc": bool(heif.info.get("icc_profile")), "has_exif": bool(heif.info.get("exif")), "has_xmp": bool(heif.info.get("xmp")),
         "nclx": [heif.info["nclx_profile"][key] for key in ("color_primaries", "transfer_characteristics", "matrix_coefficients", "full_range_flag")]
                 if heif.info.get("nclx_profile") else None}
if ";16" not in heif.mode:
    Image.frombytes(heif.mode, heif.size, bytes(heif.data), "raw", heif.mode, heif.stride).save(options.png, format="PNG")
samples = numpy.asarray(heif)
facts["at"] = [[int(value) for value in samples[int(y), int(x)]] for x, y in (point.split(",") for point in options.at)]
if options.profile_of:
    facts["same_icc"] = heif.info.get("icc_profile") == Image.open(options.profile_of).info.get("icc_profile")
print(json.dumps(facts))
