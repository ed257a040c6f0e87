#ifndef MEDIATOOL_CMEDIASHIMS_H
#define MEDIATOOL_CMEDIASHIMS_H

#include <stddef.h>
#include <stdint.h>

// libpng reports errors by longjmp. These functions keep setjmp inside C and return a status,
// so no longjmp ever crosses a Swift frame.

/// Room for libpng's error message, or for ours.
enum { CMS_ERROR_MESSAGE_CAPACITY = 256 };

/// Writes one PNG image to the file descriptor `fd`.
/// `rows` holds `height` pointers to rows of `width` pixels in libpng's layout for `color_type`
/// (PNG_COLOR_TYPE_*) and `bit_depth` (8 or 16; 16-bit samples big-endian).
/// `filters` is a mask of PNG_FILTER_* row filters libpng may choose from (0 for libpng's default).
/// `exif`, when not NULL, is written as an eXIf chunk before IDAT.
/// Returns 0 on success; otherwise -1 with a message in `error_message`.
int cms_png_write(int fd,
                  uint32_t width, uint32_t height,
                  int bit_depth, int color_type,
                  const uint8_t *const *rows,
                  int compression_level, int filters,
                  const uint8_t *exif, uint32_t exif_length,
                  char error_message[CMS_ERROR_MESSAGE_CAPACITY]);

#endif
