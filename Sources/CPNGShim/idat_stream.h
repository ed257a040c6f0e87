#ifndef MEDIATOOL_IDAT_STREAM_H
#define MEDIATOOL_IDAT_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// The image data of a non-interlaced PNG of 8 or 16-bit samples, read row by row straight from the
// IDAT chunks: inflated by ISA-L (built with MEDIATOOL_WITH_ISAL) or zlib, and unfiltered here. The
// rows come out as libpng gives them with no transform: samples as stored, 16-bit big-endian.
typedef struct mt_idat_stream mt_idat_stream;

/// `file` stands just after the header of the first IDAT chunk, whose data is `first_length`
/// bytes. `verify_crc`: check each chunk's CRC (else the caller has checked them).
mt_idat_stream *mt_idat_open(FILE *file, uint32_t first_length, size_t row_bytes, int bytes_per_pixel,
                             int verify_crc);

/// Reads the next row into `row` (`row_bytes` bytes), or reads and drops it when `row` is NULL.
/// 0, or -1 with a message in `error_message`.
int mt_idat_read_row(mt_idat_stream *stream, uint8_t *row, char *error_message, size_t capacity);

void mt_idat_close(mt_idat_stream *stream);

/// Undoes a PNG row filter in place: `row` holds the filtered bytes, `previous` the row above
/// unfiltered (zeros for the first). 0, or -1 for an unknown filter type.
int mt_png_unfilter(int filter, uint8_t *row, const uint8_t *previous, size_t row_bytes, int bytes_per_pixel);

#endif
