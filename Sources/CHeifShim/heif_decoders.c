#include "CHeifShim.h"

#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <libde265/de265.h>
#include <dav1d/dav1d.h>

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Ahead of libheif's own plugins (libde265 100, dav1d 150, libaom 100): the highest priority wins.
enum { PLUGIN_PRIORITY = 1000 };
enum { MESSAGE_CAPACITY = 256 };
/// More NAL units than any still picture is coded in (a phone's tile has four): libde265 queues
/// every one pushed, about 400 bytes each, before it decodes.
enum { MOST_UNITS = 4096 };

static mt_heif_report reporter;
/// The item being decoded on this thread (its ispe; 0: not said), whose sequence parameter sets
/// may not describe a larger picture (`mt_heif_limit_pictures`).
static _Thread_local long stated_width, stated_height;
static const char empty[] = "";

static struct heif_error ok(void) {
    struct heif_error result = { heif_error_Ok, heif_suberror_Unspecified, "Success" };
    return result;
}

/// A plugin's failure: its reason goes to the reporter (the thread that asked for the decoding is
/// this one); libheif's own words for the error stay as they were.
static struct heif_error failed(const char *library, const char *message) {
    if (reporter != NULL && message[0] != '\0') reporter(library, message);
    struct heif_error result = { heif_error_Decoder_plugin_error, heif_suberror_Unspecified, empty };
    return result;
}

/// Copies `height` rows of a decoder's plane into a new plane of `image`.
static struct heif_error add_plane(struct heif_image *image, enum heif_channel channel, int width, int height, int bits,
                                   const unsigned char *source, ptrdiff_t source_stride) {
    struct heif_error error = heif_image_add_plane(image, channel, width, height, bits);
    if (error.code != heif_error_Ok) return error;
    int stride = 0;
    unsigned char *target = heif_image_get_plane(image, channel, &stride);
    size_t row_bytes = (size_t)width * (size_t)((bits + 7) / 8);
    for (int row = 0; row < height; row++) {
        memcpy(target + (size_t)row * (size_t)stride, source + (ptrdiff_t)row * source_stride, row_bytes);
    }
    return ok();
}

/// The colour description a decoder found in the coded stream, for libheif to use where the item
/// has none of its own (as libheif's plugins do); values out of range are left unspecified.
static void set_colour(struct heif_image *image, unsigned primaries, unsigned transfer, unsigned matrix, int full_range) {
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx == NULL) return;
    heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)primaries);
    heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)transfer);
    heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)matrix);
    nclx->full_range_flag = (uint8_t)(full_range != 0);
    heif_image_set_nclx_color_profile(image, nclx);
    heif_nclx_color_profile_free(nclx);
}

// MARK: HEVC through libde265

/// An HEVC NAL unit's payload with the emulation prevention bytes (00 00 03) taken out, read bit
/// by bit as libde265 reads it: past the end, zeros.
struct bit_reader {
    unsigned char *bytes;
    size_t size;
    size_t bit;
};

static unsigned read_bits(struct bit_reader *reader, int count) {
    unsigned value = 0;
    for (int index = 0; index < count; index++) {
        unsigned bit = 0;
        if (reader->bit < reader->size * 8) bit = reader->bytes[reader->bit >> 3] >> (7 - (reader->bit & 7)) & 1;
        reader->bit++;
        value = value << 1 | bit;
    }
    return value;
}

/// Exp-Golomb, -1 past 20 leading zeros (libde265's UVLC_ERROR).
static long read_uvlc(struct bit_reader *reader) {
    int zeros = 0;
    while (read_bits(reader, 1) == 0) {
        if (++zeros > 20) return -1;
    }
    return zeros == 0 ? 0 : (long)((1u << zeros) - 1) + (long)read_bits(reader, zeros);
}

static void skip_profile(struct bit_reader *reader, int profile, int level) {
    if (profile) read_bits(reader, 2 + 1 + 5), read_bits(reader, 32), read_bits(reader, 4), read_bits(reader, 22), read_bits(reader, 22);
    if (level) read_bits(reader, 8);
}

/// mt_hevc_check_sps, which also gives the picture's size where it read that far (else -1).
static int check_sps(const unsigned char *unit, unsigned long size, char *message, unsigned long capacity, long *picture_width,
                     long *picture_height) {
    message[0] = '\0';
    *picture_width = -1;
    *picture_height = -1;
    if (size < 2) return 0;
    struct bit_reader reader = { malloc(size), 0, 0 };
    if (reader.bytes == NULL) return 0;
    int zeros = 0;
    for (unsigned long at = 2; at < size; at++) {
        if (zeros >= 2 && unit[at] == 3) {
            zeros = 0;
            continue;
        }
        reader.bytes[reader.size++] = unit[at];
        zeros = unit[at] == 0 ? zeros + 1 : 0;
    }
    // The fields of seq_parameter_set::read in its order, up to the ones its checks use. Where it
    // gives up on a value first, it says nothing: so does this.
    int result = 0;
    read_bits(&reader, 4);
    int sub_layers = (int)read_bits(&reader, 3) + 1;
    if (sub_layers > 7) goto done;
    read_bits(&reader, 1);
    skip_profile(&reader, 1, 1);
    int present[8][2] = { { 0 } };
    for (int layer = 0; layer < sub_layers - 1; layer++) {
        present[layer][0] = (int)read_bits(&reader, 1);
        present[layer][1] = (int)read_bits(&reader, 1);
    }
    if (sub_layers > 1) read_bits(&reader, 2 * (8 - (sub_layers - 1)));
    for (int layer = 0; layer < sub_layers - 1; layer++) skip_profile(&reader, present[layer][0], present[layer][1]);
    long id = read_uvlc(&reader);
    if (id < 0 || id >= 16) goto done;
    long chroma = read_uvlc(&reader);
    if (chroma < 0) goto done;
    if (chroma == 3) read_bits(&reader, 1);
    if (chroma > 3) goto done;
    long width = read_uvlc(&reader), height = read_uvlc(&reader);
    if (width <= 0 || height <= 0 || width > 65535 || height > 65535) goto done;
    *picture_width = width;
    *picture_height = height;
    if (read_bits(&reader, 1)) {
        for (int side = 0; side < 4; side++) {
            if (read_uvlc(&reader) < 0) goto done;
        }
    }
    long luma_bits = read_uvlc(&reader), chroma_bits = read_uvlc(&reader);
    if (luma_bits < 0 || chroma_bits < 0) goto done;
    luma_bits += 8;
    chroma_bits += 8;
    if (luma_bits > 16 || chroma_bits > 16) goto done;
    long order_bits = read_uvlc(&reader);
    if (order_bits < 0 || order_bits + 4 > 16) goto done;
    int ordering = (int)read_bits(&reader, 1);
    for (int layer = ordering ? 0 : sub_layers - 1; layer < sub_layers; layer++) {
        long buffering = read_uvlc(&reader);
        if (buffering < 0 || buffering + 1 > 16) goto done;  // MAX_NUM_REF_PICS
        if (read_uvlc(&reader) < 0 || read_uvlc(&reader) < 0) goto done;
    }
    long min_cb = read_uvlc(&reader), cb_range = read_uvlc(&reader);
    long min_tb = read_uvlc(&reader), tb_range = read_uvlc(&reader);
    long depth_inter = read_uvlc(&reader), depth_intra = read_uvlc(&reader);
    if (min_cb < 0 || cb_range < 0 || min_tb < 0 || tb_range < 0 || depth_inter < 0 || depth_intra < 0) goto done;
    min_cb += 3;
    min_tb += 2;
    if (min_cb > 6 || min_cb + cb_range > 6 || min_tb > 5 || min_tb + tb_range > 5) goto done;
    // seq_parameter_set::compute_derived_values's checks, each of which libde265 prints.
    long ctb = min_cb + cb_range, max_tb = min_tb + tb_range, cb_size = 1L << min_cb;
    result = 1;
    if (depth_inter > ctb - min_tb) {
        snprintf(message, capacity, "sequence parameter set: inter transform hierarchy depth %ld is over %ld, the most %ld-pixel coding tree blocks and %ld-pixel transform blocks allow",
                 depth_inter, ctb - min_tb, 1L << ctb, 1L << min_tb);
    } else if (depth_intra > ctb - min_tb) {
        snprintf(message, capacity, "sequence parameter set: intra transform hierarchy depth %ld is over %ld, the most %ld-pixel coding tree blocks and %ld-pixel transform blocks allow",
                 depth_intra, ctb - min_tb, 1L << ctb, 1L << min_tb);
    } else if (width % cb_size != 0 || height % cb_size != 0) {
        snprintf(message, capacity, "sequence parameter set: a %ldx%ld picture is no whole number of its %ldx%ld coding blocks",
                 width, height, cb_size, cb_size);
    } else if (min_tb > min_cb) {
        snprintf(message, capacity, "sequence parameter set: %ld-pixel transform blocks are larger than its %ld-pixel coding blocks",
                 1L << min_tb, cb_size);
    } else if (max_tb > (ctb < 5 ? ctb : 5)) {
        snprintf(message, capacity, "sequence parameter set: %ld-pixel transform blocks are larger than 32 or its %ld-pixel coding tree blocks",
                 1L << max_tb, 1L << ctb);
    } else {
        result = 0;
    }
done:
    free(reader.bytes);
    return result;
}

int mt_hevc_check_sps(const unsigned char *unit, unsigned long size, char *message, unsigned long capacity) {
    long width, height;
    return check_sps(unit, size, message, capacity, &width, &height);
}

struct hevc_decoder {
    de265_decoder_context *context;
    char message[MESSAGE_CAPACITY];
};

static const char *hevc_name(void) { return "libde265 (mediatool)"; }
static void hevc_init(void) {}
static void hevc_deinit(void) {}
static int hevc_supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? PLUGIN_PRIORITY : 0; }

static struct heif_error hevc_new(void **decoder) {
    struct hevc_decoder *hevc = calloc(1, sizeof *hevc);
    if (hevc == NULL) return failed("libde265", "out of memory");
    hevc->context = de265_new_decoder();
    // No worker thread (libheif's own plugin starts one): libde265 then decodes on the calling
    // thread, the same pixels, without handing each slice to a thread and waiting for it.
    *decoder = hevc;
    return ok();
}

static void hevc_free(void *decoder) {
    struct hevc_decoder *hevc = decoder;
    if (hevc == NULL) return;
    de265_free_decoder(hevc->context);
    free(hevc);
}

static void hevc_strict(void *decoder, int flag) {
    (void)decoder;
    (void)flag;
}

void mt_heif_limit_pictures(long width, long height) {
    stated_width = width;
    stated_height = height;
}

/// Gives libde265 the NAL units of `data` (each after a 4-byte length), refusing first a sequence
/// parameter set libde265 would print about, or one of a picture larger than `width` x `height`
/// (0: any) past whole blocks of 64, which libde265 would allocate whatever the item says, or
/// more than MOST_UNITS units; 0, or 1 with the reason in `message`. With no context, only checks.
static int push_units(de265_decoder_context *context, const unsigned char *bytes, size_t size, long width, long height,
                      char *message, size_t capacity) {
    long largest_width = (width + 63) / 64 * 64, largest_height = (height + 63) / 64 * 64;
    size_t at = 0;
    for (int units = 0; at < size; units++) {
        if (units == MOST_UNITS) {
            snprintf(message, capacity, "HEVC data of more than %d NAL units", MOST_UNITS);
            return 1;
        }
        if (size - at < 4) {
            snprintf(message, capacity, "HEVC data ends inside a NAL unit's length");
            return 1;
        }
        size_t length = (size_t)bytes[at] << 24 | (size_t)bytes[at + 1] << 16 | (size_t)bytes[at + 2] << 8 | bytes[at + 3];
        at += 4;
        if (length > size - at) {
            snprintf(message, capacity, "an HEVC NAL unit runs past the end of its data");
            return 1;
        }
        // A sequence parameter set (NAL type 33) libde265 would print about is refused first.
        if (length >= 2 && (bytes[at] >> 1 & 0x3F) == 33) {
            long coded_width, coded_height;
            if (check_sps(bytes + at, length, message, capacity, &coded_width, &coded_height)) return 1;
            if (width > 0 && height > 0 && (coded_width > largest_width || coded_height > largest_height)) {
                snprintf(message, capacity, "sequence parameter set: a %ldx%ld picture, larger than the %ldx%ld its item states",
                         coded_width, coded_height, width, height);
                return 1;
            }
        }
        if (context != NULL) de265_push_NAL(context, bytes + at, (int)length, 0, NULL);
        at += length;
    }
    return 0;
}

/// NAL units with 4-byte lengths, as libheif hands over the hvcC's parameter sets and the item's data.
static struct heif_error hevc_push(void *decoder, const void *data, size_t size) {
    struct hevc_decoder *hevc = decoder;
    hevc->message[0] = '\0';
    if (push_units(hevc->context, data, size, stated_width, stated_height, hevc->message, sizeof hevc->message)) {
        // The parameter set check speaks of HEVC; the framing, of libde265's input.
        return failed(strncmp(hevc->message, "sequence", 8) == 0 ? "HEVC" : "libde265", hevc->message);
    }
    return ok();
}

static struct heif_error hevc_picture(const struct de265_image *picture, struct heif_image **out) {
    int mono = de265_get_chroma_format(picture) == de265_chroma_mono;
    struct heif_error error = heif_image_create(de265_get_image_width(picture, 0), de265_get_image_height(picture, 0),
                                                mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                (enum heif_chroma)de265_get_chroma_format(picture), out);
    if (error.code != heif_error_Ok) return error;
    int bits = de265_get_bits_per_pixel(picture, 0);
    static const enum heif_channel channels[3] = { heif_channel_Y, heif_channel_Cb, heif_channel_Cr };
    for (int plane = 0; plane < (mono ? 1 : 3); plane++) {
        int stride = 0;
        const unsigned char *data = de265_get_image_plane(picture, plane, &stride);
        int width = de265_get_image_width(picture, plane), height = de265_get_image_height(picture, plane);
        if (de265_get_bits_per_pixel(picture, plane) != bits || width <= 0 || height <= 0 || data == NULL) {
            heif_image_release(*out);
            *out = NULL;
            return failed("libde265", "planes of different depths or no size");
        }
        error = add_plane(*out, channels[plane], width, height, bits, data, stride);
        if (error.code != heif_error_Ok) {
            heif_image_release(*out);
            *out = NULL;
            return error;
        }
    }
    set_colour(*out, (unsigned)de265_get_image_colour_primaries(picture), (unsigned)de265_get_image_transfer_characteristics(picture),
               (unsigned)de265_get_image_matrix_coefficients(picture), de265_get_image_full_range_flag(picture));
    return ok();
}

/// Decodes what was pushed up to its first picture, which `take` is given (the image: a still
/// item has one, and decoding a thousand more a file may hold cost seconds); a libde265 status.
static de265_error decode_pictures(de265_decoder_context *context, void (*take)(const struct de265_image *, void *), void *target) {
    de265_flush_data(context);
    int more = 0;
    de265_error status = DE265_OK;
    do {
        more = 0;
        status = de265_decode(context, &more);
        if (status != DE265_OK) break;
        const struct de265_image *picture = de265_get_next_picture(context);
        if (picture != NULL) {
            take(picture, target);
            de265_release_next_picture(context);
            break;
        }
    } while (more);
    return status;
}

struct picture_target {
    struct heif_image *image;
    struct heif_error error;
};

static void take_heif_image(const struct de265_image *picture, void *target) {
    struct picture_target *out = target;
    out->error = hevc_picture(picture, &out->image);
}

static struct heif_error hevc_decode(void *decoder, struct heif_image **out) {
    struct hevc_decoder *hevc = decoder;
    struct picture_target target = { NULL, ok() };
    de265_error status = decode_pictures(hevc->context, take_heif_image, &target);
    *out = target.image;
    if (target.error.code != heif_error_Ok) return target.error;
    if (*out == NULL) return failed("libde265", status != DE265_OK ? de265_get_error_text(status) : "no picture decoded");
    return ok();
}

// MARK: HEVC reduced to RGB, past libheif

/// The weights of a matrix (ITU-T H.273 matrix_coefficients) whose conversion is by luma weights:
/// 1 when known (unspecified taken as BT.601, as libheif does), else 0.
static int ycbcr_matrix_for(int matrix_coefficients, int full_range, struct mt_ycbcr_matrix *matrix) {
    double red, blue;
    switch (matrix_coefficients) {
    case 1: red = 0.2126, blue = 0.0722; break;
    case 4: red = 0.30, blue = 0.11; break;
    case 2: case 5: case 6: red = 0.299, blue = 0.114; break;
    case 7: red = 0.212, blue = 0.087; break;
    case 9: case 10: red = 0.2627, blue = 0.0593; break;
    default: return 0;
    }
    double green = 1 - red - blue;
    matrix->r_cr = 2 * (1 - red);
    matrix->g_cb = -2 * blue * (1 - blue) / green;
    matrix->g_cr = -2 * red * (1 - red) / green;
    matrix->b_cb = 2 * (1 - blue);
    matrix->full_range = full_range != 0;
    return 1;
}

struct reduction {
    int width, height, factor, matrix_coefficients, full_range;
    unsigned char *target;
    int result;
};

static void take_reduced(const struct de265_image *picture, void *target) {
    struct reduction *reduction = target;
    reduction->result = MT_HEVC_NOT_REDUCIBLE;
    enum de265_chroma chroma = de265_get_chroma_format(picture);
    int shift_x = chroma == de265_chroma_444 ? 0 : 1, shift_y = chroma == de265_chroma_420 ? 1 : 0;
    if (chroma == de265_chroma_mono) return;
    for (int plane = 0; plane < 3; plane++) {
        if (de265_get_bits_per_pixel(picture, plane) != 8) return;
    }
    if (de265_get_image_width(picture, 0) < reduction->width || de265_get_image_height(picture, 0) < reduction->height
        || de265_get_image_width(picture, 1) < (reduction->width + (1 << shift_x) - 1) >> shift_x
        || de265_get_image_height(picture, 1) < (reduction->height + (1 << shift_y) - 1) >> shift_y
        || de265_get_image_width(picture, 2) < de265_get_image_width(picture, 1)
        || de265_get_image_height(picture, 2) < de265_get_image_height(picture, 1)) return;
    // The item's colour description where it has one (libheif converts a tile's file, which
    // carries the grid's, by it), else the stream's.
    int matrix_coefficients = reduction->matrix_coefficients >= 0 ? reduction->matrix_coefficients : de265_get_image_matrix_coefficients(picture);
    int full_range = reduction->full_range >= 0 ? reduction->full_range : de265_get_image_full_range_flag(picture);
    struct mt_ycbcr_matrix matrix;
    if (!ycbcr_matrix_for(matrix_coefficients, full_range, &matrix)) return;
    int luma_stride = 0, cb_stride = 0, cr_stride = 0;
    const unsigned char *luma = de265_get_image_plane(picture, 0, &luma_stride);
    const unsigned char *cb = de265_get_image_plane(picture, 1, &cb_stride);
    const unsigned char *cr = de265_get_image_plane(picture, 2, &cr_stride);
    if (luma == NULL || cb == NULL || cr == NULL) return;
    int target_width = (reduction->width + reduction->factor - 1) / reduction->factor;
    mt_ycbcr_reduce_to_rgb(luma, luma_stride, cb, cb_stride, cr, cr_stride, reduction->width, reduction->height, shift_x, shift_y,
                           reduction->factor, &matrix, reduction->target, (long)target_width * 6);
    reduction->result = MT_HEVC_REDUCED;
    return;
}

/// push_units's reason in the plugin's words: what a sequence parameter set check says is HEVC's,
/// the rest libde265's.
static void say_push_failure(const char *reason, char *message, unsigned long capacity) {
    snprintf(message, capacity, "%s: %s", strncmp(reason, "sequence", 8) == 0 ? "HEVC" : "libde265", reason);
}

int mt_hevc_check_units(const unsigned char *units, unsigned long size, int coded_width, int coded_height, char *message,
                        unsigned long capacity) {
    char reason[MESSAGE_CAPACITY] = "";
    message[0] = '\0';
    if (push_units(NULL, units, size, coded_width, coded_height, reason, sizeof reason) == 0) return 0;
    say_push_failure(reason, message, capacity);
    return 1;
}

int mt_hevc_decode_reduced(const unsigned char *units, unsigned long size, int coded_width, int coded_height, int width, int height,
                           int factor, int matrix_coefficients, int full_range, unsigned char *target, char *message,
                           unsigned long capacity) {
    message[0] = '\0';
    if (width <= 0 || height <= 0 || factor <= 0 || coded_width < width || coded_height < height) return MT_HEVC_NOT_REDUCIBLE;
    de265_decoder_context *context = de265_new_decoder();
    if (context == NULL) {
        snprintf(message, capacity, "out of memory");
        return MT_HEVC_FAILED;
    }
    // As the plugin, no worker thread: tiles are decoded on every core, one on each thread, and
    // handing each slice to a thread of libde265's own and waiting for it cost a fifth of the
    // decode (a 12 MP grid of 3.3 MB: 1.14 s of CPU against 0.89 s, the same pixels).
    struct reduction reduction = { width, height, factor, matrix_coefficients, full_range, target, MT_HEVC_FAILED };
    int result = MT_HEVC_FAILED;
    char reason[MESSAGE_CAPACITY] = "";
    if (push_units(context, units, size, coded_width, coded_height, reason, sizeof reason) == 0) {
        de265_error status = decode_pictures(context, take_reduced, &reduction);
        result = reduction.result;
        if (result == MT_HEVC_FAILED) snprintf(message, capacity, "libde265: %s", status != DE265_OK ? de265_get_error_text(status) : "no picture decoded");
    } else {
        say_push_failure(reason, message, capacity);
    }
    de265_free_decoder(context);
    return result;
}

static const struct heif_decoder_plugin hevc_plugin = {
    3, hevc_name, hevc_init, hevc_deinit, hevc_supports, hevc_new, hevc_free, hevc_push, hevc_decode, hevc_strict, "mediatool-libde265"
};

// MARK: AV1 through dav1d

struct av1_decoder {
    Dav1dContext *context;
    Dav1dData data;
    /// The first thing dav1d logged: its threads log too, hence the lock.
    pthread_mutex_t lock;
    char message[MESSAGE_CAPACITY];
};

static void av1_log(void *cookie, const char *format, va_list arguments) {
    struct av1_decoder *av1 = cookie;
    pthread_mutex_lock(&av1->lock);
    if (av1->message[0] == '\0') {
        vsnprintf(av1->message, sizeof av1->message, format, arguments);
        size_t length = strlen(av1->message);
        while (length > 0 && (av1->message[length - 1] == '\n' || av1->message[length - 1] == ' ')) av1->message[--length] = '\0';
    }
    pthread_mutex_unlock(&av1->lock);
}

static const char *av1_name(void) { return "dav1d (mediatool)"; }
static void av1_init(void) {}
static void av1_deinit(void) {}
static int av1_supports(enum heif_compression_format format) { return format == heif_compression_AV1 ? PLUGIN_PRIORITY : 0; }

static struct heif_error av1_new(void **decoder) {
    struct av1_decoder *av1 = calloc(1, sizeof *av1);
    if (av1 == NULL) return failed("dav1d", "out of memory");
    pthread_mutex_init(&av1->lock, NULL);
    Dav1dSettings settings;
    dav1d_default_settings(&settings);
    // As libheif's own plugin (its largest picture, the first layer only), but logging to the decoder.
    settings.frame_size_limit = 32768u * 32768u;
    settings.all_layers = 0;
    settings.logger.cookie = av1;
    settings.logger.callback = av1_log;
    if (dav1d_open(&av1->context, &settings) != 0) {
        pthread_mutex_destroy(&av1->lock);
        free(av1);
        return failed("dav1d", "the decoder could not start");
    }
    *decoder = av1;
    return ok();
}

static void av1_free(void *decoder) {
    struct av1_decoder *av1 = decoder;
    if (av1 == NULL) return;
    if (av1->data.sz > 0) dav1d_data_unref(&av1->data);
    if (av1->context != NULL) dav1d_close(&av1->context);
    pthread_mutex_destroy(&av1->lock);
    free(av1);
}

static void av1_strict(void *decoder, int flag) {
    (void)decoder;
    (void)flag;
}

static struct heif_error av1_push(void *decoder, const void *data, size_t size) {
    struct av1_decoder *av1 = decoder;
    if (av1->data.sz > 0) dav1d_data_unref(&av1->data);
    unsigned char *copy = dav1d_data_create(&av1->data, size);
    if (copy == NULL) return failed("dav1d", "out of memory");
    memcpy(copy, data, size);
    return ok();
}

/// dav1d's reason: what it logged, else its error code's words.
static struct heif_error av1_failed(struct av1_decoder *av1, int status) {
    char message[MESSAGE_CAPACITY];
    pthread_mutex_lock(&av1->lock);
    snprintf(message, sizeof message, "%s", av1->message[0] != '\0' ? av1->message : strerror(-status));
    pthread_mutex_unlock(&av1->lock);
    return failed("dav1d", message);
}

static struct heif_error av1_decode(void *decoder, struct heif_image **out) {
    struct av1_decoder *av1 = decoder;
    *out = NULL;
    Dav1dPicture picture;
    memset(&picture, 0, sizeof picture);
    // Data in until a picture comes out; once all the data is in, one more round for what dav1d
    // still holds (libheif's plugin's loop).
    int drained = 0;
    for (;;) {
        int status = dav1d_send_data(av1->context, &av1->data);
        if (status < 0 && status != DAV1D_ERR(EAGAIN)) return av1_failed(av1, status);
        status = dav1d_get_picture(av1->context, &picture);
        if (!drained && status == DAV1D_ERR(EAGAIN)) {
            if (av1->data.sz == 0) drained = 1;
            continue;
        }
        if (status < 0) return av1_failed(av1, status);
        break;
    }
    enum heif_chroma chroma;
    enum heif_colorspace colorspace = heif_colorspace_YCbCr;
    switch (picture.p.layout) {
    case DAV1D_PIXEL_LAYOUT_I420: chroma = heif_chroma_420; break;
    case DAV1D_PIXEL_LAYOUT_I422: chroma = heif_chroma_422; break;
    case DAV1D_PIXEL_LAYOUT_I444: chroma = heif_chroma_444; break;
    case DAV1D_PIXEL_LAYOUT_I400: chroma = heif_chroma_monochrome; colorspace = heif_colorspace_monochrome; break;
    default:
        dav1d_picture_unref(&picture);
        return failed("dav1d", "a picture of an unknown layout");
    }
    struct heif_error error = heif_image_create(picture.p.w, picture.p.h, colorspace, chroma, out);
    if (error.code != heif_error_Ok) {
        dav1d_picture_unref(&picture);
        return error;
    }
    static const enum heif_channel channels[3] = { heif_channel_Y, heif_channel_Cb, heif_channel_Cr };
    int planes = chroma == heif_chroma_monochrome ? 1 : 3;
    for (int plane = 0; plane < planes && error.code == heif_error_Ok; plane++) {
        int width = picture.p.w, height = picture.p.h;
        if (plane > 0 && chroma != heif_chroma_444) width = (width + 1) / 2;
        if (plane > 0 && chroma == heif_chroma_420) height = (height + 1) / 2;
        error = add_plane(*out, channels[plane], width, height, picture.p.bpc, picture.data[plane], picture.stride[plane > 0 ? 1 : 0]);
    }
    if (error.code == heif_error_Ok) {
        set_colour(*out, (unsigned)picture.seq_hdr->pri, (unsigned)picture.seq_hdr->trc, (unsigned)picture.seq_hdr->mtrx,
                   picture.seq_hdr->color_range);
    } else {
        heif_image_release(*out);
        *out = NULL;
    }
    dav1d_picture_unref(&picture);
    return error;
}

static const struct heif_decoder_plugin av1_plugin = {
    3, av1_name, av1_init, av1_deinit, av1_supports, av1_new, av1_free, av1_push, av1_decode, av1_strict, "mediatool-dav1d"
};

int mt_av1_color_range(const unsigned char *data, unsigned long size) {
    Dav1dSequenceHeader header;
    if (size == 0 || dav1d_parse_sequence_header(&header, data, size) != 0) return -1;
    return header.color_range != 0;
}

// MARK: Registration

static pthread_once_t registered = PTHREAD_ONCE_INIT;

static void register_decoders(void) {
    heif_register_decoder_plugin(&hevc_plugin);
    heif_register_decoder_plugin(&av1_plugin);
}

void mt_heif_register_decoders(mt_heif_report report) {
    if (reporter == NULL) reporter = report;
    pthread_once(&registered, register_decoders);
}
