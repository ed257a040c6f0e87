#ifndef MEDIATOOL_CMEDIASHIMS_H
#define MEDIATOOL_CMEDIASHIMS_H

#include <stddef.h>
#include <stdint.h>

// libpng reports errors by longjmp. These functions keep setjmp inside C and return a status,
// so no longjmp ever crosses a Swift frame.

/// Room for libpng's error message, or for ours.
enum { CMS_ERROR_MESSAGE_CAPACITY = 256 };

/// Colour description carried from a picture to its crop. Absent parts: `icc_profile` NULL,
/// `srgb_intent` -1, `gamma` 0, `has_chromaticities` 0.
typedef struct cms_color_info {
    const uint8_t *icc_profile;
    uint32_t icc_profile_length;
    int srgb_intent;
    /// gAMA, times 100000.
    int gamma;
    int has_chromaticities;
    /// cHRM white x, y, red x, y, green x, y, blue x, y, each times 100000.
    int chromaticities[8];
} cms_color_info;

/// Writes one PNG image to the file descriptor `fd`.
/// `rows` holds `height` pointers to rows of `width` pixels in libpng's layout for `color_type`
/// (PNG_COLOR_TYPE_*) and `bit_depth` (8 or 16; 16-bit samples big-endian). When `image_data` is
/// not NULL, it is the zlib stream of the filtered rows, already compressed: it goes into IDAT
/// chunks as it is, and `rows`, the compression settings and `filters` are not used.
/// `compression_strategy` is zlib's (Z_DEFAULT_STRATEGY 0, Z_FILTERED 1, Z_HUFFMAN_ONLY 2, Z_RLE 3).
/// `filters` is a mask of PNG_FILTER_* row filters libpng may choose from (0 for libpng's default).
/// `exif`, when not NULL, is written as an eXIf chunk before IDAT; `color`, when not NULL, as
/// iCCP, sRGB, gAMA and cHRM chunks; one libpng finds invalid is left out, with a message in
/// `warning_message` (empty when all were written).
/// Returns 0 on success; otherwise -1 with a message in `error_message`.
int cms_png_write(int fd,
                  uint32_t width, uint32_t height,
                  int bit_depth, int color_type,
                  const uint8_t *const *rows,
                  const uint8_t *image_data, size_t image_data_length,
                  int compression_level, int compression_strategy, int filters,
                  const uint8_t *exif, uint32_t exif_length,
                  const cms_color_info *color,
                  char warning_message[CMS_ERROR_MESSAGE_CAPACITY],
                  char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

// MARK: PNG reading

typedef struct cms_png_reader cms_png_reader;

typedef struct cms_png_header {
    uint32_t width;
    uint32_t height;
    /// After expansion: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
    int channels;
    /// After expansion: 8 or 16 (16-bit samples big-endian).
    int bit_depth;
    int interlaced;
    cms_color_info color;
} cms_png_header;

/// Reads the PNG file open as `fd` (from its start, through a duplicate of `fd`) and reads up to the image data, with every colour type and depth expanded to
/// 8 or 16-bit gray, gray+alpha, RGB or RGBA. NULL with a message on failure.
/// With `checksums_verified_elsewhere`, libpng computes neither chunk CRCs nor zlib's Adler-32:
/// only for a caller that checks every CRC of the file itself.
cms_png_reader *cms_png_open(int fd, cms_png_header *header, int checksums_verified_elsewhere,
                             char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

/// Reads the next `count` rows of a non-interlaced image; a NULL row is read and dropped.
int cms_png_read_rows(cms_png_reader *reader, uint8_t *const *rows, uint32_t count,
                      char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

/// Reads the whole image (interlaced images need every pass), `height` rows.
int cms_png_read_image(cms_png_reader *reader, uint8_t *const *rows,
                       char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

void cms_png_close(cms_png_reader *reader);

// MARK: JPEG reading

typedef struct cms_jpeg_reader cms_jpeg_reader;

typedef struct cms_jpeg_header {
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
} cms_jpeg_header;

/// Reads the header and markers of the JPEG file open as `fd` (from its start, through a duplicate). NULL with a message on failure.
cms_jpeg_reader *cms_jpeg_open(int fd, cms_jpeg_header *header,
                               char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

/// Starts decoding to 8-bit RGB (or gray) columns `*x` ..< `*x + *width`, which libjpeg may widen
/// to whole blocks: `*x` and `*width` come back as decoded.
int cms_jpeg_start(cms_jpeg_reader *reader, uint32_t *x, uint32_t *width,
                   char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

/// Skips `count` rows without decoding what it need not.
int cms_jpeg_skip_rows(cms_jpeg_reader *reader, uint32_t count,
                       char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

/// Reads the next `count` rows.
int cms_jpeg_read_rows(cms_jpeg_reader *reader, uint8_t *const *rows, uint32_t count,
                       char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

void cms_jpeg_close(cms_jpeg_reader *reader);

// MARK: JPEG writing

/// The libjpeg-turbo version built against, e.g. "2.1.5".
const char *cms_jpeg_library_version(void);

/// Writes a baseline JPEG of 8-bit gray (`components` 1) or RGB (3) rows to `fd`: `quality` 1 to
/// 100, `subsampling` 420, 422 or 444, optimised Huffman tables; `exif` (a TIFF block) as an APP1
/// segment and `icc_profile` as APP2 segments when not NULL.
/// Returns 0 on success; otherwise -1 with a message in `error_message`.
int cms_jpeg_write(int fd, uint32_t width, uint32_t height, int components,
                   const uint8_t *const *rows, int quality, int subsampling,
                   const uint8_t *exif, uint32_t exif_length,
                   const uint8_t *icc_profile, uint32_t icc_profile_length,
                   char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

#endif
