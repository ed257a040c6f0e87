#ifndef MEDIATOOL_JPEG_SHIM_H
#define MEDIATOOL_JPEG_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include "CShimSupport.h"

// libjpeg reports errors by longjmp. These functions keep setjmp inside C and return a status,
// so no longjmp ever crosses a Swift frame.

// MARK: JPEG reading

/// How a scan is decoded from two places at once (jpeg_split_scan.c).
typedef struct mt_jpeg_split_settings {
    /// Of the scan's data, the share a helper thread decodes, from the end.
    double tail_share;
    /// Bytes of coefficients the helper keeps at most; past them this thread decodes the rest.
    size_t store_limit;
    /// Scans of fewer bytes are decoded on one thread.
    uint64_t minimum_bytes;
} mt_jpeg_split_settings;

typedef struct mt_jpeg_reader mt_jpeg_reader;

typedef struct mt_jpeg_header {
    uint32_t width;
    uint32_t height;
    /// 1 gray, 3 YCbCr or RGB, 4 CMYK or YCCK.
    int components;
    int is_cmyk;
    /// The TIFF block of the first APP1 "Exif" segment (after its 6-byte header), or NULL.
    const uint8_t *exif;
    uint32_t exif_length;
    /// The ICC profile from APP2 segments, or NULL; owned by the reader.
    const uint8_t *icc_profile;
    uint32_t icc_profile_length;
    /// Why the APP2 segments gave no profile, or NULL.
    const char *icc_note;
    /// Bytes the decoder keeps for the whole picture (a progressive or multi-scan picture's
    /// coefficients), 0 for a single-scan one.
    uint64_t whole_image_bytes;
    /// Bytes of rows of the whole width the decoder keeps, about.
    uint64_t row_buffer_bytes;
    /// Pixels across one MCU: 8, 16 or 32.
    uint32_t mcu_width;
    /// Pixels down one MCU: 8, 16 or 32.
    uint32_t mcu_height;
    /// Luma samples per chroma sample across and down (2 and 2 for 4:2:0), 0 for gray or an
    /// unusual sampling.
    int chroma_step_x;
    int chroma_step_y;
    /// The XMP packet of the first APP1 XMP segment (after its namespace header), or NULL.
    const uint8_t *xmp;
    uint32_t xmp_length;
} mt_jpeg_header;

/// Reads the header and markers of the JPEG file open as `fd` (from its start, through a duplicate). NULL with a message on failure.
mt_jpeg_reader *mt_jpeg_open(int fd, mt_jpeg_header *header,
                               char error_message[MT_ERROR_MESSAGE_CAPACITY]);

/// Starts decoding to 8-bit RGB (or gray) at 1/`denominator` of the size (1, 2, 4 or 8:
/// libjpeg-turbo scales in the inverse DCT, which is shrink-on-load), columns `*x` ..< `*x + *width`
/// of the size decoded (`*width` 0: all), which libjpeg may widen to whole blocks: `*x` and `*width`
/// come back as decoded, `*height` as the rows there are. With `split` (and the whole width
/// asked for, and a baseline scan in a regular file), the scan is decoded from two places at
/// once, to the coefficients libjpeg's own decoder gives.
int mt_jpeg_start(mt_jpeg_reader *reader, unsigned denominator, uint32_t *x, uint32_t *width, uint32_t *height,
                  const mt_jpeg_split_settings *split, char error_message[MT_ERROR_MESSAGE_CAPACITY]);

/// Whether the scan was decoded from two places and they met (for tests).
int mt_jpeg_split_met(const mt_jpeg_reader *reader);
/// Whether a scan may be decoded from two places at once: built against the libjpeg-turbo it was
/// written for, that library loaded, and not forbidden (tests force libjpeg's own decoder so).
int mt_jpeg_split_scan_available(void);
void mt_jpeg_forbid_split_scan(int forbidden);

/// Skips `count` rows without decoding what it need not.
int mt_jpeg_skip_rows(mt_jpeg_reader *reader, uint32_t count,
                       char error_message[MT_ERROR_MESSAGE_CAPACITY]);

/// Reads the next `count` rows.
int mt_jpeg_read_rows(mt_jpeg_reader *reader, uint8_t *const *rows, uint32_t count,
                       char error_message[MT_ERROR_MESSAGE_CAPACITY]);

void mt_jpeg_close(mt_jpeg_reader *reader);

// MARK: JPEG writing

/// The libjpeg-turbo version built against, e.g. "2.1.5".
const char *mt_jpeg_library_version(void);

/// Writes a JPEG of 8-bit gray (`components` 1) or RGB (3) rows to `fd`: `quality` 1 to 100, luma
/// samples per chroma sample `chroma_step_x` by `chroma_step_y` (2 by 2 is 4:2:0; 1 or 2 each),
/// progressive or baseline, optimised Huffman tables; `segments` (complete marker segments, APPn
/// with their markers and lengths) right after the JFIF header.
/// Returns 0 on success; otherwise -1 with a message in `error_message`.
int mt_jpeg_write(int fd, uint32_t width, uint32_t height, int components,
                  const uint8_t *const *rows, int quality, int chroma_step_x, int chroma_step_y, int progressive,
                  const uint8_t *segments, size_t segments_length,
                  char error_message[MT_ERROR_MESSAGE_CAPACITY]);

/// Checks the scans of a whole JPEG in memory against the decoder's limits (more than 500 scans, a
/// bogus progression, more than 80 passes over each block) from its markers alone; -1 with the
/// refusal's words in `error_message`, 0 otherwise (a JPEG it cannot walk is left to the decoder).
int mt_jpeg_check_scans(const uint8_t *bytes, size_t length, char error_message[MT_ERROR_MESSAGE_CAPACITY]);

#endif
