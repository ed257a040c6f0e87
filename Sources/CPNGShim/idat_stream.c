#include "idat_stream.h"
#include "CPNGShim.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#ifdef MEDIATOOL_WITH_ISAL
#include <isa-l/igzip_lib.h>
#endif

enum { INPUT_CAPACITY = 1 << 16 };

struct mt_idat_stream {
    FILE *file;
    /// Bytes of the current IDAT chunk's data not read yet.
    uint32_t chunk_left;
    int verify_crc;
    uint32_t crc;
    /// No IDAT chunk follows: the image data is all read.
    int data_ended;
    /// The deflate stream has ended.
    int stream_ended;
    size_t row_bytes;
    int bytes_per_pixel;
    /// The row being read, its filter byte first, and the row above it, unfiltered (filter byte too).
    uint8_t *current;
    uint8_t *previous;
    uint8_t input[INPUT_CAPACITY];
#ifdef MEDIATOOL_WITH_ISAL
    struct inflate_state inflater;
#else
    z_stream inflater;
#endif
};

static uint32_t big_endian_32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

mt_idat_stream *mt_idat_open(FILE *file, uint32_t first_length, size_t row_bytes, int bytes_per_pixel,
                             int verify_crc) {
    mt_idat_stream *stream = calloc(1, sizeof *stream);
    if (stream == NULL) return NULL;
    stream->file = file;
    stream->chunk_left = first_length;
    stream->verify_crc = verify_crc;
    stream->crc = mt_crc32(0, (const uint8_t *)"IDAT", 4);
    stream->row_bytes = row_bytes;
    stream->bytes_per_pixel = bytes_per_pixel;
    stream->current = malloc(row_bytes + 1);
    stream->previous = calloc(row_bytes + 1, 1);
    if (stream->current == NULL || stream->previous == NULL) {
        mt_idat_close(stream);
        return NULL;
    }
#ifdef MEDIATOOL_WITH_ISAL
    isal_inflate_init(&stream->inflater);
    stream->inflater.crc_flag = ISAL_ZLIB;
#else
    if (inflateInit(&stream->inflater) != Z_OK) {
        free(stream->current);
        free(stream->previous);
        free(stream);
        return NULL;
    }
#endif
    return stream;
}

void mt_idat_close(mt_idat_stream *stream) {
    if (stream == NULL) return;
#ifndef MEDIATOOL_WITH_ISAL
    inflateEnd(&stream->inflater);
#endif
    free(stream->current);
    free(stream->previous);
    free(stream);
}

/// Reads more compressed bytes into `input`: the rest of this IDAT chunk, then the next one.
/// 1 with bytes, 0 at the end of the image data, -1 with a message.
static int refill(mt_idat_stream *stream, size_t *count, char *message, size_t capacity) {
    while (stream->chunk_left == 0) {
        if (stream->data_ended) return 0;
        uint8_t bytes[12];
        // The chunk's CRC, then the next chunk's length and type.
        if (fread(bytes, 1, 12, stream->file) != 12) {
            snprintf(message, capacity, "Not enough image data");
            return -1;
        }
        if (stream->verify_crc && big_endian_32(bytes) != stream->crc) {
            snprintf(message, capacity, "IDAT: CRC error");
            return -1;
        }
        if (memcmp(bytes + 8, "IDAT", 4) != 0) {
            stream->data_ended = 1;
            return 0;
        }
        stream->chunk_left = big_endian_32(bytes + 4);
        if (stream->chunk_left > 0x7fffffffu) {
            snprintf(message, capacity, "IDAT: invalid chunk length");
            return -1;
        }
        stream->crc = mt_crc32(0, (const uint8_t *)"IDAT", 4);
    }
    size_t wanted = stream->chunk_left < INPUT_CAPACITY ? stream->chunk_left : INPUT_CAPACITY;
    size_t read = fread(stream->input, 1, wanted, stream->file);
    if (read == 0) {
        snprintf(message, capacity, "Not enough image data");
        return -1;
    }
    if (stream->verify_crc) stream->crc = mt_crc32(stream->crc, stream->input, read);
    stream->chunk_left -= (uint32_t)read;
    *count = read;
    return 1;
}

/// One call of the inflater over what it has; notes the end of the deflate stream. 0, or -1 with a message.
static int inflate_step(mt_idat_stream *stream, char *message, size_t capacity) {
#ifdef MEDIATOOL_WITH_ISAL
    int result = isal_inflate(&stream->inflater);
    if (result < 0) {
        snprintf(message, capacity, "IDAT: invalid compressed data (ISA-L error %d)", result);
        return -1;
    }
    if (stream->inflater.block_state == ISAL_BLOCK_FINISH) stream->stream_ended = 1;
#else
    int result = inflate(&stream->inflater, Z_NO_FLUSH);
    if (result == Z_STREAM_END) {
        stream->stream_ended = 1;
    } else if (result != Z_OK && result != Z_BUF_ERROR) {
        snprintf(message, capacity, "IDAT: %s", stream->inflater.msg ? stream->inflater.msg : "invalid compressed data");
        return -1;
    }
#endif
    return 0;
}

/// Inflates into `output` until it is full. 0, or -1 with a message. ISA-L's inflater and zlib's
/// name their buffers alike (`next_in`, `avail_in`, `next_out`, `avail_out`), so one loop drives both.
static int inflate_into(mt_idat_stream *stream, uint8_t *output, size_t length, char *message, size_t capacity) {
    stream->inflater.next_out = output;
    stream->inflater.avail_out = (uint32_t)length;
    while (stream->inflater.avail_out > 0) {
        if (stream->inflater.avail_in == 0 && !stream->stream_ended) {
            size_t count = 0;
            int status = refill(stream, &count, message, capacity);
            if (status < 0) return -1;
            if (status > 0) {
                stream->inflater.next_in = stream->input;
                stream->inflater.avail_in = (uint32_t)count;
            }
        }
        uint32_t before = stream->inflater.avail_out, before_in = stream->inflater.avail_in;
        if (inflate_step(stream, message, capacity) != 0) return -1;
        // No progress at all: the stream ended (bytes may follow it in the chunk), or the data did.
        // Without this, a stream that ends short of the picture with bytes after it looped forever.
        if (stream->inflater.avail_out > 0 && stream->inflater.avail_out == before
            && (stream->stream_ended || (stream->inflater.avail_in == 0 && stream->data_ended)
                || stream->inflater.avail_in == before_in)) {
            snprintf(message, capacity, "Not enough image data");
            return -1;
        }
    }
    return 0;
}

int mt_idat_read_row(mt_idat_stream *stream, uint8_t *row, char *message, size_t capacity) {
    message[0] = '\0';
    if (inflate_into(stream, stream->current, stream->row_bytes + 1, message, capacity) != 0) return -1;
    if (mt_png_unfilter(stream->current[0], stream->current + 1, stream->previous + 1, stream->row_bytes,
                        stream->bytes_per_pixel) != 0) {
        snprintf(message, capacity, "bad adaptive filter value");
        return -1;
    }
    uint8_t *done = stream->current;
    stream->current = stream->previous;
    stream->previous = done;
    if (row != NULL) memcpy(row, done + 1, stream->row_bytes);
    return 0;
}

int mt_png_unfilter(int filter, uint8_t *row, const uint8_t *previous, size_t row_bytes, int bytes_per_pixel) {
    size_t bpp = (size_t)bytes_per_pixel;
    switch (filter) {
    case 0:
        return 0;
    case 1:
        for (size_t i = bpp; i < row_bytes; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        return 0;
    case 2:
        for (size_t i = 0; i < row_bytes; i++) row[i] = (uint8_t)(row[i] + previous[i]);
        return 0;
    case 3:
        for (size_t i = 0; i < bpp && i < row_bytes; i++) row[i] = (uint8_t)(row[i] + (previous[i] >> 1));
        for (size_t i = bpp; i < row_bytes; i++) row[i] = (uint8_t)(row[i] + ((row[i - bpp] + previous[i]) >> 1));
        return 0;
    case 4:
        for (size_t i = 0; i < bpp && i < row_bytes; i++) row[i] = (uint8_t)(row[i] + previous[i]);
        for (size_t i = bpp; i < row_bytes; i++) {
            int a = row[i - bpp], b = previous[i], c = previous[i - bpp];
            int p = b - c, q = a - c;
            int pa = abs(p), pb = abs(q), pc = abs(p + q);
            int predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
            row[i] = (uint8_t)(row[i] + predictor);
        }
        return 0;
    default:
        return -1;
    }
}
