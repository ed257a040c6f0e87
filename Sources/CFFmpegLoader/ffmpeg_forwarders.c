#include "CFFmpegLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

enum library { AVUTIL, AVCODEC, AVFORMAT, SWSCALE, LIBRARY_COUNT };

// The sonames of the major versions built against: a library of another major version is another ABI.
static const char *const sonames[LIBRARY_COUNT] = {
    "libavutil.so." STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libavcodec.so." STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    "libswscale.so." STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
};

static void *handles[LIBRARY_COUNT];

static void *open_library(enum library library, char *message, unsigned long capacity) {
    if (handles[library] == NULL) {
        // Lazily bound: binding every function of FFmpeg's 140 libraries up front cost 2.4 ms of
        // CPU at each load, for the few dozen a job calls. A lazy binding makes no system call, so
        // it works in a confined worker as well.
        handles[library] = dlopen(sonames[library], RTLD_LAZY | RTLD_LOCAL);
        if (handles[library] == NULL && message != NULL) {
            snprintf(message, capacity, "%s", dlerror());
        }
    }
    return handles[library];
}

int cffmpeg_loader_available(char *message, unsigned long capacity) {
    for (int library = 0; library < LIBRARY_COUNT; library++) {
        if (open_library(library, message, capacity) == NULL) return 0;
    }
    return 1;
}

/// The real function, or the end of the process: there is no useful way on without it.
static void *resolve(enum library library, const char *name) {
    char message[512] = "";
    void *handle = open_library(library, message, sizeof message);
    void *function = handle != NULL ? dlsym(handle, name) : NULL;
    if (function == NULL) {
        char line[768];
        int length = snprintf(line, sizeof line, "mediatool: cannot load FFmpeg (%s): %s\n", name,
                              message[0] != '\0' ? message : dlerror());
        if (length > 0) (void)!write(STDERR_FILENO, line, (size_t)length);
        _exit(1);
    }
    return function;
}

// A race between two threads resolving the same function stores the same pointer twice.
#define FORWARD(library, result, name, parameters, arguments)                   \
    result name parameters {                                                     \
        static result (*real) parameters;                                        \
        if (real == NULL) real = (result (*) parameters)resolve(library, #name); \
        return real arguments;                                                   \
    }

#define FORWARD_VOID(library, name, parameters, arguments)                     \
    void name parameters {                                                       \
        static void (*real) parameters;                                          \
        if (real == NULL) real = (void (*) parameters)resolve(library, #name);   \
        real arguments;                                                          \
    }

FORWARD(AVUTIL, unsigned, avutil_version, (void), ())
FORWARD(AVUTIL, AVDictionaryEntry *, av_dict_get,
        (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), (m, key, prev, flags))
FORWARD(AVUTIL, int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags), (pm, key, value, flags))
FORWARD_VOID(AVUTIL, av_dict_free, (AVDictionary **m), (m))
FORWARD(AVUTIL, AVFrame *, av_frame_alloc, (void), ())
FORWARD(AVUTIL, int, av_frame_make_writable, (AVFrame *frame), (frame))
FORWARD_VOID(AVUTIL, av_frame_free, (AVFrame **frame), (frame))
FORWARD(AVUTIL, int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align))
FORWARD(AVUTIL, AVFrameSideData *, av_frame_get_side_data,
        (const AVFrame *frame, enum AVFrameSideDataType type), (frame, type))
FORWARD_VOID(AVUTIL, av_frame_move_ref, (AVFrame *dst, AVFrame *src), (dst, src))
FORWARD_VOID(AVUTIL, av_frame_unref, (AVFrame *frame), (frame))
FORWARD_VOID(AVUTIL, av_log_set_level, (int level), (level))
FORWARD_VOID(AVUTIL, av_max_alloc, (size_t max), (max))
FORWARD_VOID(AVUTIL, av_log_set_callback, (void (*callback)(void *, int, const char *, va_list)), (callback))
FORWARD(AVUTIL, int, av_opt_set_int, (void *obj, const char *name, int64_t val, int search_flags),
        (obj, name, val, search_flags))
FORWARD(AVUTIL, const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat pix_fmt), (pix_fmt))
FORWARD(AVUTIL, int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq))
FORWARD(AVUTIL, void *, av_malloc, (size_t size), (size))
FORWARD_VOID(AVUTIL, av_free, (void *ptr), (ptr))
FORWARD(AVUTIL, const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt))
FORWARD(AVUTIL, const char *, av_color_primaries_name, (enum AVColorPrimaries primaries), (primaries))
FORWARD(AVUTIL, const char *, av_color_transfer_name, (enum AVColorTransferCharacteristic transfer), (transfer))
FORWARD(AVUTIL, const char *, av_color_space_name, (enum AVColorSpace space), (space))
FORWARD(AVUTIL, const char *, av_color_range_name, (enum AVColorRange range), (range))
FORWARD_VOID(AVUTIL, av_channel_layout_default, (AVChannelLayout *ch_layout, int nb_channels), (ch_layout, nb_channels))
FORWARD_VOID(AVUTIL, av_channel_layout_uninit, (AVChannelLayout *channel_layout), (channel_layout))
FORWARD(AVUTIL, enum AVChannel, av_channel_layout_channel_from_index, (const AVChannelLayout *channel_layout, unsigned int idx),
        (channel_layout, idx))
FORWARD(AVUTIL, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size))

FORWARD(AVCODEC, unsigned, avcodec_version, (void), ())
FORWARD(AVCODEC, AVPacket *, av_packet_alloc, (void), ())
FORWARD_VOID(AVCODEC, av_packet_free, (AVPacket **pkt), (pkt))
FORWARD_VOID(AVCODEC, av_packet_unref, (AVPacket *pkt), (pkt))
FORWARD_VOID(AVCODEC, av_packet_move_ref, (AVPacket *dst, AVPacket *src), (dst, src))
FORWARD(AVCODEC, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))
FORWARD(AVCODEC, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))
FORWARD(AVCODEC, const AVCodec *, avcodec_find_decoder_by_name, (const char *name), (name))
FORWARD(AVCODEC, const AVCodec *, avcodec_find_encoder, (enum AVCodecID id), (id))
FORWARD_VOID(AVCODEC, avcodec_flush_buffers, (AVCodecContext *avctx), (avctx))
FORWARD_VOID(AVCODEC, avcodec_free_context, (AVCodecContext **avctx), (avctx))
FORWARD(AVCODEC, const char *, avcodec_get_name, (enum AVCodecID id), (id))
FORWARD(AVCODEC, const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile), (codec_id, profile))
FORWARD(AVCODEC, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options),
        (avctx, codec, options))
FORWARD(AVCODEC, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par),
        (codec, par))
FORWARD(AVCODEC, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame))
FORWARD(AVCODEC, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt))
FORWARD(AVCODEC, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame))
FORWARD(AVCODEC, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt))
FORWARD(AVCODEC, int, av_packet_ref, (AVPacket *dst, const AVPacket *src), (dst, src))
FORWARD(AVCODEC, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))
FORWARD(AVCODEC, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec),
        (par, codec))
FORWARD_VOID(AVCODEC, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst))

FORWARD(AVFORMAT, unsigned, avformat_version, (void), ())
FORWARD(AVFORMAT, AVFormatContext *, avformat_alloc_context, (void), ())
FORWARD(AVFORMAT, AVIOContext *, avio_alloc_context,
        (unsigned char *buffer, int buffer_size, int write_flag, void *opaque,
         int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),
         int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),
         int64_t (*seek)(void *opaque, int64_t offset, int whence)),
        (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek))
FORWARD_VOID(AVFORMAT, avio_context_free, (AVIOContext **s), (s))
FORWARD_VOID(AVFORMAT, avio_flush, (AVIOContext *s), (s))
FORWARD(AVFORMAT, int, avformat_alloc_output_context2,
        (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename),
        (ctx, oformat, format_name, filename))
FORWARD_VOID(AVFORMAT, avformat_free_context, (AVFormatContext *s), (s))
FORWARD(AVFORMAT, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c))
FORWARD(AVFORMAT, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options))
FORWARD(AVFORMAT, int, av_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))
FORWARD(AVFORMAT, int64_t, avio_seek, (AVIOContext *s, int64_t offset, int whence), (s, offset, whence))
FORWARD(AVFORMAT, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))
FORWARD(AVFORMAT, int, av_write_trailer, (AVFormatContext *s), (s))
FORWARD(AVFORMAT, int, av_find_best_stream,
        (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream,
         const AVCodec **decoder_ret, int flags),
        (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags))
FORWARD(AVFORMAT, AVRational, av_guess_sample_aspect_ratio, (AVFormatContext *format, AVStream *stream, AVFrame *frame),
        (format, stream, frame))
FORWARD(AVFORMAT, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt))
FORWARD(AVFORMAT, uint8_t *, av_stream_get_side_data,
        (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size))
FORWARD_VOID(AVFORMAT, avformat_close_input, (AVFormatContext **s), (s))
FORWARD(AVFORMAT, const AVInputFormat *, av_find_input_format, (const char *short_name), (short_name))
FORWARD(AVFORMAT, const AVInputFormat *, av_probe_input_format2, (const AVProbeData *pd, int is_opened, int *score_max),
        (pd, is_opened, score_max))
FORWARD(AVFORMAT, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options))
FORWARD(AVFORMAT, int, avformat_open_input,
        (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),
        (ps, url, fmt, options))
FORWARD(AVFORMAT, int, avformat_index_get_entries_count, (const AVStream *st), (st))
FORWARD(AVFORMAT, const AVIndexEntry *, avformat_index_get_entry, (AVStream *st, int idx), (st, idx))
FORWARD(AVFORMAT, const AVIndexEntry *, avformat_index_get_entry_from_timestamp, (AVStream *st, int64_t wanted_timestamp, int flags),
        (st, wanted_timestamp, flags))
FORWARD(AVFORMAT, int, avformat_seek_file,
        (AVFormatContext *s, int stream_index, int64_t min_ts, int64_t ts, int64_t max_ts, int flags),
        (s, stream_index, min_ts, ts, max_ts, flags))

FORWARD(SWSCALE, unsigned, swscale_version, (void), ())
FORWARD(SWSCALE, struct SwsContext *, sws_alloc_context, (void), ())
FORWARD_VOID(SWSCALE, sws_freeContext, (struct SwsContext *context), (context))
FORWARD(SWSCALE, const int *, sws_getCoefficients, (int colorspace), (colorspace))
FORWARD(SWSCALE, struct SwsContext *, sws_getContext,
        (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat,
         int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param),
        (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param))
FORWARD(SWSCALE, int, sws_init_context, (struct SwsContext *context, SwsFilter *srcFilter, SwsFilter *dstFilter),
        (context, srcFilter, dstFilter))
FORWARD(SWSCALE, int, sws_scale,
        (struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY, int srcSliceH,
         uint8_t *const dst[], const int dstStride[]),
        (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride))
FORWARD(SWSCALE, int, sws_scale_frame, (struct SwsContext *c, AVFrame *dst, const AVFrame *src), (c, dst, src))
FORWARD(SWSCALE, int, sws_setColorspaceDetails,
        (struct SwsContext *c, const int inv_table[4], int srcRange, const int table[4], int dstRange,
         int brightness, int contrast, int saturation),
        (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation))
