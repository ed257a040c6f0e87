"""Decodes an AVIF with pillow-heif (its own libheif and aom, from PyPI: not the libheif mediatool
links) and writes its pixels as PNG with Pillow; prints what the file says as JSON.
usage: decode_avif.py IN.avif OUT.png [PROFILE_SOURCE]"""
import json
import sys

import pillow_heif
from PIL import Image

heif = pillow_heif.open_heif(sys.argv[1], convert_hdr_to_8bit=False)
Image.frombytes(heif.mode, heif.size, bytes(heif.data), "raw", heif.mode, heif.stride).save(sys.argv[2])
facts = {"mode": heif.mode, "width": heif.size[0], "height": heif.size[1], "bit_depth": heif.info.get("bit_depth", 8),
         "has_icc": bool(heif.info.get("icc_profile")), "has_exif": bool(heif.info.get("exif")), "has_xmp": bool(heif.info.get("xmp"))}
if len(sys.argv) > 3:
    facts["same_icc"] = heif.info.get("icc_profile") == Image.open(sys.argv[3]).info.get("icc_profile")
print(json.dumps(facts))
