#ifndef MEDIATOOL_TIFF_SHIM_H
#define MEDIATOOL_TIFF_SHIM_H

#include <stdint.h>
#include <tiffio.h>

// libtiff reads and sets tags through variadic functions, which Swift cannot call: one typed
// function each for what mediatool reads.

/// A 16-bit tag, its default where libtiff has one. 1 when found.
int mt_tiff_u16(TIFF *tiff, uint32_t tag, uint16_t *value);

/// A 32-bit tag, its default where libtiff has one. 1 when found.
int mt_tiff_u32(TIFF *tiff, uint32_t tag, uint32_t *value);

/// A tag of bytes with a 32-bit count (ICC profile, XMP packet). 1 when found; the bytes are libtiff's.
int mt_tiff_bytes(TIFF *tiff, uint32_t tag, uint32_t *count, const uint8_t **data);

/// The ExtraSamples tag: how many, and what each is (0 unspecified, 1 associated alpha, 2 unassociated).
int mt_tiff_extra_samples(TIFF *tiff, uint16_t *count, const uint16_t **types);

/// The colour map of a palette picture: 2^BitsPerSample 16-bit entries per channel.
int mt_tiff_colormap(TIFF *tiff, const uint16_t **red, const uint16_t **green, const uint16_t **blue);

/// Asks libtiff's JPEG codec for RGB, not the YCbCr it stores.
int mt_tiff_jpeg_as_rgb(TIFF *tiff);

#endif
