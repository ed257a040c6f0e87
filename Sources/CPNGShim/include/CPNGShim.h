#ifndef MEDIATOOL_PNG_SHIM_H
#define MEDIATOOL_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include "CShimSupport.h"

// libpng reports errors by longjmp. These functions keep setjmp inside C and return a status,
// so no longjmp ever crosses a Swift frame.

/// Colour description carried from a picture to its crop. Absent parts: `icc_profile` NULL,
/// `srgb_intent` -1, `gamma` 0, `has_chromaticities` 0.
typedef struct mt_color_info {
    const uint8_t *icc_profile;
    uint32_t icc_profile_length;
    int srgb_intent;
    /// gAMA, times 100000.
    int gamma;
    int has_chromaticities;
    /// cHRM white x, y, red x, y, green x, y, blue x, y, each times 100000.
    int chromaticities[8];
} mt_color_info;

/// Writes one PNG image to the file descriptor `fd`.
/// `rows` holds `height` pointers to rows of `width` pixels in libpng's layout for `color_type`
/// (PNG_COLOR_TYPE_*) and `bit_depth` (8 or 16; 16-bit samples big-endian). When `image_data` is
/// not NULL, it is the zlib stream of the filtered rows, already compressed: it goes into IDAT
/// chunks as it is, and `rows`, the compression settings and `filters` are not used.
/// `compression_strategy` is zlib's (Z_DEFAULT_STRATEGY 0, Z_FILTERED 1, Z_HUFFMAN_ONLY 2, Z_RLE 3).
/// `filters` is a mask of PNG_FILTER_* row filters libpng may choose from (0 for libpng's default).
/// `exif`, when not NULL, is written as an eXIf chunk before IDAT; `xmp` (NUL-terminated), when
/// not NULL, as an uncompressed iTXt "XML:com.adobe.xmp" chunk; `cicp` (4 bytes: primaries,
/// transfer, matrix, full-range flag), when not NULL, as a cICP chunk before PLTE and IDAT; `color`, when not NULL, as
/// iCCP, sRGB, gAMA and cHRM chunks; one libpng finds invalid is left out, with a message in
/// `warning_message` (empty when all were written).
/// Returns 0 on success; otherwise -1 with a message in `error_message`.
int mt_png_write(int fd,
                  uint32_t width, uint32_t height,
                  int bit_depth, int color_type,
                  const uint8_t *const *rows,
                  const uint8_t *image_data, size_t image_data_length,
                  int compression_level, int compression_strategy, int filters,
                  const uint8_t *exif, uint32_t exif_length,
                  const char *xmp,
                  const uint8_t *cicp,
                  const mt_color_info *color,
                  char warning_message[MT_ERROR_MESSAGE_CAPACITY],
                  char error_message[MT_ERROR_MESSAGE_CAPACITY]);

// MARK: Deflate

/// Raw deflate streams that join end to end: ISA-L's at levels 1 to 3 where built with it
/// (MEDIATOOL_WITH_ISAL), about 2-3x zlib's speed; zlib's otherwise (its `strategy` too).
typedef struct mt_deflater mt_deflater;

enum { MT_DEFLATE_MORE = 0, MT_DEFLATE_SYNC = 1, MT_DEFLATE_FINISH = 2 };

/// Whether `level` is compressed by ISA-L in this build.
int mt_deflater_uses_isal(int level);

/// A deflater primed with `dictionary` (the bytes before the stream's first, up to 32 KiB); NULL on failure.
mt_deflater *mt_deflater_create(int level, int strategy, const uint8_t *dictionary, size_t dictionary_length);

/// Takes `input` (pass NULL and 0 to go on with the input given before) and writes compressed bytes
/// to `output`. `flush`: MT_DEFLATE_MORE, MT_DEFLATE_SYNC (end on a byte boundary, so that another
/// stream may follow), MT_DEFLATE_FINISH (the final block). Returns the bytes written, -1 on failure;
/// when that fills `capacity`, call again with NULL input for the rest.
long mt_deflater_compress(mt_deflater *deflater, const uint8_t *input, size_t length, int flush,
                          uint8_t *output, size_t capacity);

void mt_deflater_free(mt_deflater *deflater);

/// The CRC-32 of PNG chunks (and gzip, zlib) of `bytes`, continuing from `crc` (0 to start):
/// ISA-L's where built with it, zlib's otherwise.
uint32_t mt_crc32(uint32_t crc, const uint8_t *bytes, size_t length);

// MARK: PNG reading

typedef struct mt_png_reader mt_png_reader;

typedef struct mt_png_header {
    uint32_t width;
    uint32_t height;
    /// After expansion: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
    int channels;
    /// After expansion: 8 or 16 (16-bit samples big-endian).
    int bit_depth;
    int interlaced;
    mt_color_info color;
} mt_png_header;

/// Reads the PNG file open as `fd` (from its start, through a duplicate of `fd`) and reads up to the image data, with every colour type and depth expanded to
/// 8 or 16-bit gray, gray+alpha, RGB or RGBA. NULL with a message on failure.
/// With `checksums_verified_elsewhere`, libpng computes neither chunk CRCs nor zlib's Adler-32:
/// only for a caller that checks every CRC of the file itself.
mt_png_reader *mt_png_open(int fd, mt_png_header *header, int checksums_verified_elsewhere,
                             char error_message[MT_ERROR_MESSAGE_CAPACITY]);

/// Reads the next `count` rows of a non-interlaced image; a NULL row is read and dropped.
int mt_png_read_rows(mt_png_reader *reader, uint8_t *const *rows, uint32_t count,
                      char error_message[MT_ERROR_MESSAGE_CAPACITY]);

/// Reads the whole image (interlaced images need every pass), `height` rows.
int mt_png_read_image(mt_png_reader *reader, uint8_t *const *rows,
                       char error_message[MT_ERROR_MESSAGE_CAPACITY]);

void mt_png_close(mt_png_reader *reader);

#endif
