#define _GNU_SOURCE
#include "CJPEGShim.h"
#include "jpeg_split_scan.h"
#include "jpeg_scan_limits.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>

/// The namespace that opens an APP1 segment holding an XMP packet (XMP part 3, 1.1.3).
static const char XMP_HEADER[] = "http://ns.adobe.com/xap/1.0/";
enum { XMP_HEADER_LENGTH = sizeof XMP_HEADER };

struct mt_jpeg_reader {
    struct jpeg_decompress_struct decompress;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    FILE *file;
    char *error_message;
    /// The first warning about corrupt data: decoding went on, but the pixels would be wrong.
    char warning[MT_ERROR_MESSAGE_CAPACITY];
    JOCTET *icc_profile;
    int started;
    /// The file, for decoding its scan from two places at once (jpeg_split_scan.c), or -1.
    int fd;
    mt_scan_split *split;
    /// The last scan whose blocks were counted, and the blocks all scans so far pass over.
    int counted_scan;
    uint64_t block_passes;
};

static void record_error(j_common_ptr common) {
    mt_jpeg_reader *reader = (mt_jpeg_reader *)common->client_data;
    char message[JMSG_LENGTH_MAX];
    common->err->format_message(common, message);
    snprintf(reader->error_message, MT_ERROR_MESSAGE_CAPACITY, "%s", message);
    longjmp(reader->jump, 1);
}

static uint64_t component_blocks(const jpeg_component_info *component) {
    return (uint64_t)component->width_in_blocks * component->height_in_blocks;
}

/// Called as libjpeg reads on: past MT_JPEG_MAX_SCANS scans, or MT_JPEG_MAX_PASSES_PER_BLOCK passes
/// a block, the picture is refused (jpeg_scan_limits.h).
static void count_scans(j_common_ptr common) {
    if (!common->is_decompressor) return;
    j_decompress_ptr decompress = (j_decompress_ptr)common;
    mt_jpeg_reader *reader = (mt_jpeg_reader *)common->client_data;
    if (decompress->input_scan_number > MT_JPEG_MAX_SCANS) {
        snprintf(reader->error_message, MT_ERROR_MESSAGE_CAPACITY, MT_JPEG_TOO_MANY_SCANS, MT_JPEG_MAX_SCANS);
        longjmp(reader->jump, 1);
    }
    if (decompress->input_scan_number <= reader->counted_scan || decompress->comps_in_scan < 1) return;
    reader->counted_scan = decompress->input_scan_number;
    uint64_t picture = 0;
    for (int c = 0; c < decompress->num_components; c++) picture += component_blocks(&decompress->comp_info[c]);
    for (int c = 0; c < decompress->comps_in_scan && c < MAX_COMPS_IN_SCAN; c++) {
        reader->block_passes += component_blocks(decompress->cur_comp_info[c]);
    }
    if (picture > 0 && reader->block_passes > picture * MT_JPEG_MAX_PASSES_PER_BLOCK) {
        snprintf(reader->error_message, MT_ERROR_MESSAGE_CAPACITY, MT_JPEG_TOO_MANY_PASSES,
                 decompress->input_scan_number, MT_JPEG_MAX_PASSES_PER_BLOCK);
        longjmp(reader->jump, 1);
    }
}

static void record_warning(j_common_ptr common, int level) {
    mt_jpeg_reader *reader = (mt_jpeg_reader *)common->client_data;
    // A scan that refines coefficients already refined as far (libjpeg's "bogus progression")
    // is refused as it starts: decoded on, such scans cost the whole picture each, and the
    // warning would be this picture's error once every one of them was decoded.
    if (level == -1 && common->err->msg_code == JWRN_BOGUS_PROGRESSION) {
        snprintf(reader->error_message, MT_ERROR_MESSAGE_CAPACITY, MT_JPEG_BOGUS_PROGRESSION);
        longjmp(reader->jump, 1);
    }
    // Level -1 is a warning about the data; extraneous bytes between segments harm no pixel.
    if (level == -1 && common->err->msg_code != JWRN_EXTRANEOUS_DATA && reader->warning[0] == '\0') {
        char message[JMSG_LENGTH_MAX];
        common->err->format_message(common, message);
        snprintf(reader->warning, MT_ERROR_MESSAGE_CAPACITY, "%s", message);
    }
}

/// A corrupt-data warning so far becomes the error.
static int check_warning(mt_jpeg_reader *reader) {
    if (reader->warning[0] == '\0') return 0;
    snprintf(reader->error_message, MT_ERROR_MESSAGE_CAPACITY, "%s", reader->warning);
    return -1;
}

/// The ICC profile from the APP2 "ICC_PROFILE" segments wherever they stand (after SOF too), in
/// their sequence order; the first segment of each number is taken when one is repeated. A
/// profile whose segments do not add up is left out with a note, never an error: it is metadata,
/// and the pixels are fine. (jpeg_read_icc_profile warns "bad ICC marker" at a repeated segment,
/// which would count as corrupt data.)
static void read_icc_profile(mt_jpeg_reader *reader, mt_jpeg_header *header) {
    enum { HEADER_LENGTH = 14, MAX_SEGMENTS = 255 };
    jpeg_saved_marker_ptr segments[MAX_SEGMENTS + 1] = { NULL };
    int count = 0, found = 0;
    for (jpeg_saved_marker_ptr marker = reader->decompress.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 2 || marker->data_length < HEADER_LENGTH ||
            memcmp(marker->data, "ICC_PROFILE\0", 12) != 0) continue;
        found = 1;
        int number = marker->data[12], total = marker->data[13];
        if (count == 0) count = total;
        if (number < 1 || number > count || total != count) {
            header->icc_note = "its segments are numbered inconsistently";
            return;
        }
        if (segments[number] == NULL) segments[number] = marker;
    }
    if (!found) return;
    size_t length = 0;
    for (int number = 1; number <= count; number++) {
        if (segments[number] == NULL) {
            header->icc_note = "a segment of it is missing";
            return;
        }
        length += segments[number]->data_length - HEADER_LENGTH;
    }
    if (length == 0) return;
    reader->icc_profile = malloc(length);
    if (reader->icc_profile == NULL) return;
    size_t offset = 0;
    for (int number = 1; number <= count; number++) {
        size_t part = segments[number]->data_length - HEADER_LENGTH;
        memcpy(reader->icc_profile + offset, segments[number]->data + HEADER_LENGTH, part);
        offset += part;
    }
    header->icc_profile = reader->icc_profile;
    header->icc_profile_length = (uint32_t)length;
}

mt_jpeg_reader *mt_jpeg_open(int fd, mt_jpeg_header *header,
                               char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    memset(header, 0, sizeof *header);
    FILE *file = NULL;
    mt_jpeg_reader *reader = mt_allocate_reader(sizeof *reader, fd, &file, error_message);
    if (reader == NULL) return NULL;
    reader->file = file;
    reader->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    reader->error_message = error_message;
    reader->decompress.err = jpeg_std_error(&reader->errors);
    reader->errors.error_exit = record_error;
    reader->errors.emit_message = record_warning;
    reader->decompress.client_data = reader;
    if (setjmp(reader->jump)) {
        mt_jpeg_close(reader);
        return NULL;
    }
    jpeg_create_decompress(&reader->decompress);
    reader->progress.progress_monitor = count_scans;
    reader->decompress.progress = &reader->progress;
    jpeg_stdio_src(&reader->decompress, reader->file);
    jpeg_save_markers(&reader->decompress, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&reader->decompress, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&reader->decompress, TRUE);

    struct jpeg_decompress_struct *d = &reader->decompress;
    header->width = d->image_width;
    header->height = d->image_height;
    header->components = d->num_components;
    header->is_cmyk = d->jpeg_color_space == JCS_CMYK || d->jpeg_color_space == JCS_YCCK;
    // A progressive or multi-scan picture keeps every coefficient of the whole picture in memory
    // (jdcoefct.c: each component's blocks, rounded up to whole MCUs, 128 bytes a block).
    if (jpeg_has_multiple_scans(d)) {
        for (int c = 0; c < d->num_components; c++) {
            jpeg_component_info *component = &d->comp_info[c];
            uint64_t across = (component->width_in_blocks + component->h_samp_factor - 1) / component->h_samp_factor * component->h_samp_factor;
            uint64_t down = (component->height_in_blocks + component->v_samp_factor - 1) / component->v_samp_factor * component->v_samp_factor;
            header->whole_image_bytes += across * down * sizeof(JBLOCK);
        }
    }
    header->mcu_width = (uint32_t)d->max_h_samp_factor * DCTSIZE;
    header->mcu_height = (uint32_t)d->max_v_samp_factor * DCTSIZE;
    // Chroma subsampling as "luma samples per chroma sample": 2x2 is 4:2:0, 2x1 4:2:2, 1x1 4:4:4.
    if (d->num_components >= 3) {
        jpeg_component_info *luma = &d->comp_info[0], *chroma = &d->comp_info[1];
        if (chroma->h_samp_factor > 0 && chroma->v_samp_factor > 0 &&
            luma->h_samp_factor % chroma->h_samp_factor == 0 && luma->v_samp_factor % chroma->v_samp_factor == 0) {
            header->chroma_step_x = luma->h_samp_factor / chroma->h_samp_factor;
            header->chroma_step_y = luma->v_samp_factor / chroma->v_samp_factor;
        }
    }
    // Rows of the whole width are kept for decoding and upsampling whatever the crop.
    header->row_buffer_bytes = (uint64_t)d->image_width * d->num_components * d->max_v_samp_factor * DCTSIZE * 4;
    for (jpeg_saved_marker_ptr marker = d->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length > 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0) {
            if (header->exif == NULL) {
                header->exif = marker->data + 6;
                header->exif_length = marker->data_length - 6;
            }
        } else if (marker->marker == JPEG_APP0 + 1 && marker->data_length > XMP_HEADER_LENGTH &&
                   memcmp(marker->data, XMP_HEADER, XMP_HEADER_LENGTH) == 0 && header->xmp == NULL) {
            header->xmp = marker->data + XMP_HEADER_LENGTH;
            header->xmp_length = marker->data_length - XMP_HEADER_LENGTH;
        }
    }
    read_icc_profile(reader, header);
    return reader;
}

/// Where the scan's data starts: what the file has given the stdio stream, less what libjpeg's
/// source and the stream have not handed on yet.
static int64_t scan_data_offset(mt_jpeg_reader *reader) {
    off_t given = ftello(reader->file);
    if (given < 0) return -1;
    return (int64_t)given - (int64_t)reader->decompress.src->bytes_in_buffer;
}

// The split scan (jpeg_split_scan.c) replaces libjpeg's entropy decoder through jpegint.h, whose
// structures are libjpeg-turbo's internals: it was written against libjpeg-turbo 2.1 and is built
// only against a 2.1 (Debian 12 ships 2.1.5); any other decodes with libjpeg's own decoder.
#if defined(LIBJPEG_TURBO_VERSION_NUMBER) && LIBJPEG_TURBO_VERSION_NUMBER >= 2001000 && LIBJPEG_TURBO_VERSION_NUMBER < 2002000
#define MT_SPLIT_SCAN_BUILT 1
#else
#define MT_SPLIT_SCAN_BUILT 0
#endif

static atomic_int split_scan_forbidden;

void mt_jpeg_forbid_split_scan(int forbidden) { atomic_store(&split_scan_forbidden, forbidden); }

/// Whether the libjpeg this process loaded is of the internals the split scan was built for: a
/// libjpeg-turbo of the 2.x ABI, which has `jpeg_crop_scanline` (1.5.1 on) and not
/// `jpeg12_read_scanlines` (3.0 on, whose internals took 12-bit and lossless decoding). Looked up in
/// the symbols already mapped: no file is opened, so it holds in a confined worker too.
static int loaded_library_matches(void) {
    static atomic_int known; // 0: not looked yet, 1: matches, 2: does not
    int seen = atomic_load(&known);
    if (seen == 0) {
        int matches = dlsym(RTLD_DEFAULT, "jpeg_crop_scanline") != NULL && dlsym(RTLD_DEFAULT, "jpeg12_read_scanlines") == NULL;
        seen = matches ? 1 : 2;
        atomic_store(&known, seen);
    }
    return seen == 1;
}

int mt_jpeg_split_scan_available(void) {
    return MT_SPLIT_SCAN_BUILT && !atomic_load(&split_scan_forbidden) && loaded_library_matches();
}

int mt_jpeg_start(mt_jpeg_reader *reader, unsigned denominator, uint32_t *x, uint32_t *width, uint32_t *height,
                  const mt_jpeg_split_settings *split, char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    reader->error_message = error_message;
    if (setjmp(reader->jump)) return -1;
    struct jpeg_decompress_struct *d = &reader->decompress;
    d->out_color_space = d->num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    d->scale_num = 1;
    d->scale_denom = denominator;
    jpeg_start_decompress(d);
    reader->started = 1;
    int64_t scan_offset;
    if (split != NULL && mt_jpeg_split_scan_available() && *x == 0 && *width == 0 && reader->fd >= 0
        && (scan_offset = scan_data_offset(reader)) > 0) {
        reader->split = mt_scan_split_start(d, reader->fd, (uint64_t)scan_offset, split);
    }
    JDIMENSION offset = *x, columns = *width == 0 ? d->output_width : *width;
    if (offset != 0 || columns != d->output_width) {
        jpeg_crop_scanline(d, &offset, &columns);
    }
    *x = offset;
    *width = columns;
    *height = d->output_height;
    return check_warning(reader);
}

int mt_jpeg_skip_rows(mt_jpeg_reader *reader, uint32_t count,
                       char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    reader->error_message = error_message;
    if (setjmp(reader->jump)) return -1;
    if (count > 0 && jpeg_skip_scanlines(&reader->decompress, count) != count) {
        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "premature end of JPEG data");
        return -1;
    }
    return check_warning(reader);
}

int mt_jpeg_read_rows(mt_jpeg_reader *reader, uint8_t *const *rows, uint32_t count,
                       char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    reader->error_message = error_message;
    if (setjmp(reader->jump)) return -1;
    uint32_t done = 0;
    while (done < count) {
        JDIMENSION read = jpeg_read_scanlines(&reader->decompress, (JSAMPARRAY)(rows + done), count - done);
        if (read == 0) {
            snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "premature end of JPEG data");
            return -1;
        }
        done += read;
    }
    return check_warning(reader);
}

int mt_jpeg_split_met(const mt_jpeg_reader *reader) { return mt_scan_split_met(reader->split); }

void mt_jpeg_close(mt_jpeg_reader *reader) {
    if (reader == NULL) return;
    mt_scan_split_finish(reader->split);
    if (reader->fd >= 0) close(reader->fd);
    // Destroying mid-decode is allowed: libjpeg frees whatever it holds.
    if (reader->decompress.err != NULL) jpeg_destroy_decompress(&reader->decompress);
    if (reader->file != NULL) fclose(reader->file);
    free(reader->icc_profile);
    free(reader);
}
