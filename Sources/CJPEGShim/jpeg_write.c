#include "CJPEGShim.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>

struct jpeg_writer {
    struct jpeg_compress_struct compress;
    struct jpeg_error_mgr errors;
    struct jpeg_destination_mgr destination;
    jmp_buf jump;
    int fd;
    char *error_message;
    JOCTET buffer[65536];
};

static void writer_error(j_common_ptr common) {
    struct jpeg_writer *writer = (struct jpeg_writer *)common->client_data;
    char message[JMSG_LENGTH_MAX];
    common->err->format_message(common, message);
    snprintf(writer->error_message, MT_ERROR_MESSAGE_CAPACITY, "libjpeg: %s", message);
    longjmp(writer->jump, 1);
}

static void writer_warning(j_common_ptr common, int level) {
    (void)common;
    (void)level;
}

static int write_all(struct jpeg_writer *writer, const JOCTET *data, size_t length) {
    return mt_write_all(writer->fd, data, length, writer->error_message);
}

static void start_destination(j_compress_ptr compress) {
    struct jpeg_writer *writer = (struct jpeg_writer *)compress->client_data;
    writer->destination.next_output_byte = writer->buffer;
    writer->destination.free_in_buffer = sizeof writer->buffer;
}

static boolean empty_buffer(j_compress_ptr compress) {
    struct jpeg_writer *writer = (struct jpeg_writer *)compress->client_data;
    if (write_all(writer, writer->buffer, sizeof writer->buffer) != 0) longjmp(writer->jump, 1);
    writer->destination.next_output_byte = writer->buffer;
    writer->destination.free_in_buffer = sizeof writer->buffer;
    return TRUE;
}

static void finish_destination(j_compress_ptr compress) {
    struct jpeg_writer *writer = (struct jpeg_writer *)compress->client_data;
    size_t pending = sizeof writer->buffer - writer->destination.free_in_buffer;
    if (write_all(writer, writer->buffer, pending) != 0) longjmp(writer->jump, 1);
}

int mt_jpeg_write(int fd, uint32_t width, uint32_t height, int components,
                  const uint8_t *const *rows, int quality, int chroma_step_x, int chroma_step_y, int progressive,
                  const uint8_t *segments, size_t segments_length,
                  char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    struct jpeg_writer *writer = calloc(1, sizeof *writer);
    if (writer == NULL) {
        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    writer->fd = fd;
    writer->error_message = error_message;
    struct jpeg_compress_struct *c = &writer->compress;
    c->err = jpeg_std_error(&writer->errors);
    writer->errors.error_exit = writer_error;
    writer->errors.emit_message = writer_warning;
    c->client_data = writer;
    if (setjmp(writer->jump)) {
        jpeg_destroy_compress(c);
        free(writer);
        return -1;
    }
    jpeg_create_compress(c);
    writer->destination.init_destination = start_destination;
    writer->destination.empty_output_buffer = empty_buffer;
    writer->destination.term_destination = finish_destination;
    c->dest = &writer->destination;
    c->image_width = width;
    c->image_height = height;
    c->input_components = components;
    c->in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(c);
    jpeg_set_quality(c, quality, TRUE);
    // Smaller files for the same pixels; the time it costs is small beside the DCT.
    c->optimize_coding = TRUE;
    if (progressive) jpeg_simple_progression(c);
    if (components == 3) {
        c->comp_info[0].h_samp_factor = chroma_step_x;
        c->comp_info[0].v_samp_factor = chroma_step_y;
        c->comp_info[1].h_samp_factor = c->comp_info[1].v_samp_factor = 1;
        c->comp_info[2].h_samp_factor = c->comp_info[2].v_samp_factor = 1;
    }
    jpeg_start_compress(c, TRUE);
    // Whole segments, marker and length included, as JPEGSegments made them.
    for (size_t at = 0; at + 4 <= segments_length;) {
        size_t length = (size_t)segments[at + 2] << 8 | segments[at + 3];
        if (length < 2 || at + 2 + length > segments_length) break;
        jpeg_write_marker(c, segments[at + 1], segments + at + 4, (unsigned)(length - 2));
        at += 2 + length;
    }
    while (c->next_scanline < c->image_height) {
        JSAMPROW row = (JSAMPROW)rows[c->next_scanline];
        jpeg_write_scanlines(c, &row, 1);
    }
    jpeg_finish_compress(c);
    jpeg_destroy_compress(c);
    free(writer);
    return 0;
}

const char *mt_jpeg_library_version(void) {
#ifdef LIBJPEG_TURBO_VERSION
#define MT_STRINGIFY_(x) #x
#define MT_STRINGIFY(x) MT_STRINGIFY_(x)
    return MT_STRINGIFY(LIBJPEG_TURBO_VERSION);
#else
    return "unknown";
#endif
}
