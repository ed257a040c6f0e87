#include "CPNGShim.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct write_state {
    int fd;
    char *error_message;
    char *warning_message;
};

static void record_error(png_structp png, png_const_charp message) {
    struct write_state *state = png_get_error_ptr(png);
    snprintf(state->error_message, MT_ERROR_MESSAGE_CAPACITY, "libpng: %s", message);
    png_longjmp(png, 1);
}

/// libpng warns only about what it leaves out (a colour chunk it finds invalid): the first is kept
/// for the caller, and the pixels are written all the same.
static void record_warning(png_structp png, png_const_charp message) {
    struct write_state *state = png_get_error_ptr(png);
    if (state->warning_message != NULL && state->warning_message[0] == '\0') {
        snprintf(state->warning_message, MT_ERROR_MESSAGE_CAPACITY, "%s", message);
    }
}

static void write_to_fd(png_structp png, png_bytep data, size_t length) {
    struct write_state *state = png_get_io_ptr(png);
    if (mt_write_all(state->fd, data, length, state->error_message) != 0) png_longjmp(png, 1);
}

/// IDAT chunks of compressed data made outside libpng: any size up to 2^31-1 is valid; 256 KiB
/// keeps each chunk's CRC pass in cache.
#define IDAT_CHUNK_CAPACITY ((size_t)256 * 1024)

static void flush_nothing(png_structp png) { (void)png; }

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
                  char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    warning_message[0] = '\0';
    struct write_state state = { fd, error_message, warning_message };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, record_error, record_warning);
    if (png == NULL) {
        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "libpng: out of memory");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "libpng: out of memory");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, &state, write_to_fd, flush_nothing);
    // Metadata never fails a picture. The "HP sRGB IEC61966-2.1" profile of most camera JPEGs is one
    // libpng knows as subtly wrong and refuses by default: it is carried as it is, as vips and
    // Pillow carry it. Any other profile or chunk libpng finds invalid (an RGB profile on a gray
    // picture) is left out with a warning instead of an error.
    png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    png_set_benign_errors(png, 1);
    png_set_compression_level(png, compression_level);
    png_set_compression_strategy(png, compression_strategy);
    if (filters != 0) {
        png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    }
    png_set_IHDR(png, info, width, height, bit_depth, color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (exif != NULL && exif_length > 0) {
        png_set_eXIf_1(png, info, exif_length, (png_bytep)exif);
    }
    if (cicp != NULL) {
        // PNG third edition's coding-independent code points; libpng 1.6.39 writes it as an unknown chunk.
        png_unknown_chunk chunk;
        memset(&chunk, 0, sizeof chunk);
        memcpy(chunk.name, "cICP", 5);
        chunk.data = (png_bytep)cicp;
        chunk.size = 4;
        chunk.location = PNG_HAVE_IHDR;
        png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, (png_const_bytep)"cICP", 1);
        png_set_unknown_chunks(png, info, &chunk, 1);
    }
    if (xmp != NULL) {
        png_text text = { 0 };
        text.compression = PNG_ITXT_COMPRESSION_NONE;
        text.key = "XML:com.adobe.xmp";
        text.text = (png_charp)xmp;
        text.lang = "";
        text.lang_key = "";
        png_set_text(png, info, &text, 1);
    }
    if (color != NULL) {
        // An ICC profile and an sRGB chunk exclude each other (PNG 1.2, 11.3.3.3): the profile wins.
        if (color->icc_profile != NULL && color->icc_profile_length > 0) {
            png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE,
                         (png_const_bytep)color->icc_profile, color->icc_profile_length);
        } else if (color->srgb_intent >= 0) {
            png_set_sRGB(png, info, color->srgb_intent);
        }
        if (color->gamma > 0) {
            png_set_gAMA_fixed(png, info, color->gamma);
        }
        if (color->has_chromaticities) {
            const int *c = color->chromaticities;
            png_set_cHRM_fixed(png, info, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
        }
    }
    png_write_info(png, info);
    if (image_data != NULL) {
        for (size_t offset = 0; offset < image_data_length; offset += IDAT_CHUNK_CAPACITY) {
            size_t length = image_data_length - offset;
            if (length > IDAT_CHUNK_CAPACITY) length = IDAT_CHUNK_CAPACITY;
            png_write_chunk(png, (png_const_bytep)"IDAT", image_data + offset, length);
        }
        png_write_chunk(png, (png_const_bytep)"IEND", NULL, 0);
    } else {
        png_write_image(png, (png_bytepp)rows);
        // NULL, not info: passing info writes eXIf a second time (libpng 1.6.39).
        png_write_end(png, NULL);
    }
    png_destroy_write_struct(&png, &info);
    return 0;
}
