#include "CPNGShim.h"

#include <stdlib.h>
#include <zlib.h>

#ifdef MEDIATOOL_WITH_ISAL
#include <isa-l/igzip_lib.h>
#endif

struct mt_deflater {
    int uses_isal;
    z_stream zlib;
#ifdef MEDIATOOL_WITH_ISAL
    struct isal_zstream isal;
    uint8_t *level_buffer;
#endif
};

int mt_deflater_uses_isal(int level) {
#ifdef MEDIATOOL_WITH_ISAL
    return level >= 1 && level <= 3;
#else
    (void)level;
    return 0;
#endif
}

mt_deflater *mt_deflater_create(int level, int strategy, const uint8_t *dictionary, size_t dictionary_length) {
    mt_deflater *deflater = calloc(1, sizeof *deflater);
    if (deflater == NULL) return NULL;
    deflater->uses_isal = mt_deflater_uses_isal(level);
#ifdef MEDIATOOL_WITH_ISAL
    if (deflater->uses_isal) {
        static const uint32_t buffer_sizes[4] = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
        isal_deflate_init(&deflater->isal);
        deflater->isal.level = (uint32_t)level;
        deflater->isal.level_buf_size = buffer_sizes[level];
        deflater->level_buffer = malloc(buffer_sizes[level]);
        deflater->isal.level_buf = deflater->level_buffer;
        deflater->isal.gzip_flag = IGZIP_DEFLATE;
        if (deflater->level_buffer == NULL
            || (dictionary_length > 0
                && isal_deflate_set_dict(&deflater->isal, (uint8_t *)dictionary, (uint32_t)dictionary_length) != COMP_OK)) {
            mt_deflater_free(deflater);
            return NULL;
        }
        return deflater;
    }
#endif
    // Raw deflate: the caller writes the zlib wrapper once for all the streams it joins.
    if (deflateInit2(&deflater->zlib, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) {
        free(deflater);
        return NULL;
    }
    if (dictionary_length > 0 && deflateSetDictionary(&deflater->zlib, dictionary, (uInt)dictionary_length) != Z_OK) {
        deflateEnd(&deflater->zlib);
        free(deflater);
        return NULL;
    }
    return deflater;
}

long mt_deflater_compress(mt_deflater *deflater, const uint8_t *input, size_t length, int flush,
                          uint8_t *output, size_t capacity) {
#ifdef MEDIATOOL_WITH_ISAL
    if (deflater->uses_isal) {
        struct isal_zstream *stream = &deflater->isal;
        if (input != NULL) {
            stream->next_in = (uint8_t *)input;
            stream->avail_in = (uint32_t)length;
        }
        stream->flush = flush == MT_DEFLATE_SYNC ? SYNC_FLUSH : NO_FLUSH;
        stream->end_of_stream = flush == MT_DEFLATE_FINISH;
        stream->next_out = output;
        stream->avail_out = (uint32_t)capacity;
        if (isal_deflate(stream) != COMP_OK) return -1;
        return (long)(capacity - stream->avail_out);
    }
#endif
    z_stream *stream = &deflater->zlib;
    if (input != NULL) {
        stream->next_in = (Bytef *)input;
        stream->avail_in = (uInt)length;
    }
    stream->next_out = output;
    stream->avail_out = (uInt)capacity;
    int mode = flush == MT_DEFLATE_SYNC ? Z_SYNC_FLUSH : flush == MT_DEFLATE_FINISH ? Z_FINISH : Z_NO_FLUSH;
    int code = deflate(stream, mode);
    if (code != Z_OK && code != Z_STREAM_END && code != Z_BUF_ERROR) return -1;
    return (long)(capacity - stream->avail_out);
}

void mt_deflater_free(mt_deflater *deflater) {
    if (deflater == NULL) return;
#ifdef MEDIATOOL_WITH_ISAL
    free(deflater->level_buffer);
    if (deflater->uses_isal) {
        free(deflater);
        return;
    }
#endif
    deflateEnd(&deflater->zlib);
    free(deflater);
}

#ifdef MEDIATOOL_WITH_ISAL
#include <isa-l/crc.h>
#endif

uint32_t mt_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
#ifdef MEDIATOOL_WITH_ISAL
    // The reflected CRC-32 of gzip, zlib and PNG, several times zlib's speed (carry-less multiply).
    return crc32_gzip_refl(crc, (uint8_t *)bytes, (uint64_t)length);
#else
    return (uint32_t)crc32(crc, bytes, (uInt)length);
#endif
}
