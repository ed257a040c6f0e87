#ifndef MEDIATOOL_CFFMPEG_SHIM_H
#define MEDIATOOL_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

// Function-like macros Swift cannot import, as prefixed inline functions.

static inline int cffmpeg_averror(int posix_error) { return AVERROR(posix_error); }
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_averror_eagain(void) { return AVERROR(EAGAIN); }

static inline int cffmpeg_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }

static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }

static inline int cffmpeg_avseek_size(void) { return AVSEEK_SIZE; }

static inline unsigned cffmpeg_version_major(unsigned version) { return AV_VERSION_MAJOR(version); }
static inline unsigned cffmpeg_version_minor(unsigned version) { return AV_VERSION_MINOR(version); }
static inline unsigned cffmpeg_version_micro(unsigned version) { return AV_VERSION_MICRO(version); }

#endif
