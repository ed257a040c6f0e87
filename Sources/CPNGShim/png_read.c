#include "CPNGShim.h"
#include "idat_stream.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mt_png_reader {
    FILE *file;
    png_structp png;
    png_infop info;
    char *error_message;
    size_t row_bytes;
    uint8_t *scratch_row;
    /// Rows read straight from the IDAT chunks, where no libpng transform is needed.
    mt_idat_stream *idat;
};

static void record_error(png_structp png, png_const_charp message) {
    mt_png_reader *reader = png_get_error_ptr(png);
    snprintf(reader->error_message, MT_ERROR_MESSAGE_CAPACITY, "%s", message);
    png_longjmp(png, 1);
}

static void ignore_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void read_color_info(png_structp png, png_infop info, mt_color_info *color) {
    memset(color, 0, sizeof *color);
    color->srgb_intent = -1;
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 length;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &length) == PNG_INFO_iCCP) {
        color->icc_profile = profile;
        color->icc_profile_length = length;
    }
    int intent;
    if (png_get_sRGB(png, info, &intent) == PNG_INFO_sRGB) {
        color->srgb_intent = intent;
    }
    png_fixed_point gamma;
    if (png_get_gAMA_fixed(png, info, &gamma) == PNG_INFO_gAMA) {
        color->gamma = gamma;
    }
    png_fixed_point c[8];
    if (png_get_cHRM_fixed(png, info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]) == PNG_INFO_cHRM) {
        color->has_chromaticities = 1;
        for (int i = 0; i < 8; i++) color->chromaticities[i] = c[i];
    }
}

mt_png_reader *mt_png_open(int fd, mt_png_header *header, int checksums_verified_elsewhere,
                             char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    FILE *file = NULL;
    mt_png_reader *reader = mt_allocate_reader(sizeof *reader, fd, &file, error_message);
    if (reader == NULL) return NULL;
    reader->file = file;
    reader->error_message = error_message;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, record_error, ignore_warning);
    reader->info = reader->png ? png_create_info_struct(reader->png) : NULL;
    if (reader->info == NULL) {
        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "out of memory");
        mt_png_close(reader);
        return NULL;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        mt_png_close(reader);
        return NULL;
    }
    png_structp png = reader->png;
    png_infop info = reader->info;
    png_init_io(png, reader->file);
    if (checksums_verified_elsewhere) {
        png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
        png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
    }
    // Sizes are checked by the caller against its own limit, before any pixel is allocated.
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_read_info(png, info);

    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    header->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    if (header->interlaced) png_set_interlace_handling(png);
    png_read_update_info(png, info);

    header->width = png_get_image_width(png, info);
    header->height = png_get_image_height(png, info);
    header->channels = png_get_channels(png, info);
    header->bit_depth = png_get_bit_depth(png, info);
    read_color_info(png, info, &header->color);
    reader->row_bytes = png_get_rowbytes(png, info);

    // Samples of 8 or 16 bits, not a palette, no tRNS, not interlaced: libpng would hand out the
    // rows as stored, so they are read here, faster (ISA-L's inflate where built with it).
    // png_read_info stops just after the first IDAT chunk's header; a file that cannot seek
    // back to read its length (a pipe) goes through libpng.
    if (!header->interlaced && (bit_depth == 8 || bit_depth == 16) && color_type != PNG_COLOR_TYPE_PALETTE
        && !has_transparency) {
        long position = ftell(file);
        uint8_t chunk_header[8];
        if (position >= 8 && fseek(file, position - 8, SEEK_SET) == 0
            && fread(chunk_header, 1, 8, file) == 8 && memcmp(chunk_header + 4, "IDAT", 4) == 0) {
            uint32_t length = (uint32_t)chunk_header[0] << 24 | (uint32_t)chunk_header[1] << 16
                | (uint32_t)chunk_header[2] << 8 | chunk_header[3];
            reader->idat = mt_idat_open(file, length, reader->row_bytes,
                                        header->channels * header->bit_depth / 8, !checksums_verified_elsewhere);
        } else {
            // Back where libpng left it.
            fseek(file, position, SEEK_SET);
        }
    }
    return reader;
}

int mt_png_read_rows(mt_png_reader *reader, uint8_t *const *rows, uint32_t count,
                      char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    reader->error_message = error_message;
    if (reader->scratch_row == NULL) {
        reader->scratch_row = malloc(reader->row_bytes);
        if (reader->scratch_row == NULL) {
            snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "out of memory");
            return -1;
        }
    }
    if (reader->idat != NULL) {
        for (uint32_t i = 0; i < count; i++) {
            if (mt_idat_read_row(reader->idat, rows[i], error_message, MT_ERROR_MESSAGE_CAPACITY) != 0) return -1;
        }
        return 0;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        return -1;
    }
    for (uint32_t i = 0; i < count; i++) {
        png_read_row(reader->png, rows[i] != NULL ? rows[i] : reader->scratch_row, NULL);
    }
    return 0;
}

int mt_png_read_image(mt_png_reader *reader, uint8_t *const *rows,
                       char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    reader->error_message = error_message;
    if (setjmp(png_jmpbuf(reader->png))) {
        return -1;
    }
    png_read_image(reader->png, (png_bytepp)rows);
    return 0;
}

void mt_png_close(mt_png_reader *reader) {
    if (reader == NULL) return;
    mt_idat_close(reader->idat);
    if (reader->png != NULL) {
        png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    }
    if (reader->file != NULL) fclose(reader->file);
    free(reader->scratch_row);
    free(reader);
}
