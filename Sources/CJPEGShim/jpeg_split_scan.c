#define _GNU_SOURCE
#include "jpeg_split_scan.h"
#include "jpeg_scan_decoder.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jerror.h>
#include <jpegint.h>

enum {
    /// MCU starts the helper notes, from its own start, for the caller's thread to meet it at:
    /// a decoder started at a random bit is in step with the code after a few of them.
    SYNC_LOG_CAPACITY = 4096,
    /// Fresh starts the helper makes after codes that cannot be, before it gives up.
    SPECULATION_ATTEMPTS = 64,
    /// Places noted while finding the scan's end, about, and the most bytes between two.
    MARKS = 256,
    MARK_EVERY_MOST = 64 * 1024,
};

/// An MCU start of the helper's.
typedef struct {
    /// Its place from the scan's start, in bits of data.
    uint64_t bits;
    /// The DC predictions there, counted from the helper's start.
    uint32_t last_dc[MAX_COMPS_IN_SCAN];
    size_t stored_offset;
} sync_point;

typedef struct {
    mt_reader_position at;
    int hit_end_of_file;
    uint32_t last_dc[MAX_COMPS_IN_SCAN];
    uint32_t restarts_to_go;
    int next_restart;
} decoder_snapshot;

/// A place in the scan's data at a whole unit of it (never inside FF 00), with the bytes of data before it.
typedef struct {
    uint64_t offset;
    uint64_t data_bytes;
} data_mark;

struct mt_scan_split {
    /// First, so that libjpeg's cinfo->entropy points at it: this is libjpeg's entropy decoder now.
    struct jpeg_entropy_decoder pub;
    struct jpeg_entropy_decoder *libjpeg_entropy;
    j_decompress_ptr decompress;
    mt_scan_layout layout;
    int fd;
    double tail_share;
    size_t store_limit;
    uint64_t mark_every;

    pthread_t helper;
    int helper_running;
    pthread_mutex_t lock;
    pthread_cond_t finished_changed;
    int finished;
    atomic_int cancelled;
    /// Where the helper starts: the file's offset, and in bits of data from the scan's start (no
    /// restart intervals), or just after a restart marker (its code, and its code byte's offset).
    uint64_t tail_start_offset;
    uint64_t tail_start_bits;
    int tail_start_restart;
    uint64_t tail_start_marker;
    /// Where the helper's latest speculation started, in bits of data: later than `tail_start_bits`
    /// after codes that could not be.
    _Atomic uint64_t speculation_bits;

    // The helper's results, read by the caller's thread once `finished`.
    int tail_usable;
    sync_point *log;
    uint32_t logged;
    uint8_t *store;
    size_t store_length;
    uint32_t stored;
    decoder_snapshot tail_end;

    // The caller's thread's.
    mt_scan_decoder decoder;
    uint32_t mcu;
    int broken;
    int warned_end_of_file;
    int met;
    int gave_up;
    uint32_t log_cursor;
    int serving;
    uint32_t serve_left;
    int serves_to_tail_end;
    size_t store_cursor;
    uint32_t dc_offset[MAX_COMPS_IN_SCAN];
};

static decoder_snapshot snapshot(const mt_scan_decoder *decoder) {
    decoder_snapshot taken;
    taken.at = mt_bit_reader_position(&decoder->bits);
    taken.hit_end_of_file = decoder->bits.hit_end_of_file;
    memcpy(taken.last_dc, decoder->last_dc, sizeof taken.last_dc);
    taken.restarts_to_go = decoder->restarts_to_go;
    taken.next_restart = decoder->next_restart;
    return taken;
}

static int cancelled(mt_scan_split *split) {
    return atomic_load_explicit(&split->cancelled, memory_order_relaxed);
}

// MARK: The helper

static int append_mark(data_mark **marks, size_t *count, size_t *capacity, uint64_t offset, uint64_t data_bytes) {
    if (*count == *capacity) {
        size_t grown = *capacity ? *capacity * 2 : 64;
        data_mark *bigger = realloc(*marks, grown * sizeof **marks);
        if (bigger == NULL) return -1;
        *marks = bigger;
        *capacity = grown;
    }
    (*marks)[(*count)++] = (data_mark){ offset, data_bytes };
    return 0;
}

/// Walks the scan's data from its start as libjpeg's reader takes it, to the marker that ends it
/// (restart markers belong to a scan with restart intervals), noting places every `mark_every`
/// bytes; -1 when the file ends first. A scan cut short is libjpeg's to decode: the moment its
/// reader meets the end of the file, and so which warning it gives first, follows from how full
/// its buffers were.
static int walk_scan(mt_scan_split *split, uint8_t *chunk, data_mark **marks, size_t *count, uint64_t *end) {
    size_t capacity = 0;
    uint64_t offset = split->layout.scan_offset, data_bytes = 0, next_mark = offset;
    int after_ff = 0, restarts = split->layout.restart_interval != 0;
    for (;;) {
        ssize_t read_count = mt_read_at(split->fd, chunk, MT_CHUNK_BYTES, offset);
        if (read_count <= 0) return -1;
        const uint8_t *place = chunk, *stop = chunk + read_count;
        while (place < stop) {
            if (after_ff) {
                int byte = *place++;
                if (byte == 0xFF) continue;
                after_ff = 0;
                if (byte == 0) {
                    data_bytes++;
                    continue;
                }
                if (restarts && byte >= 0xD0 && byte <= 0xD7) continue;
                *end = offset + (uint64_t)(place - chunk) - 2;
                return 0;
            }
            uint64_t here = offset + (uint64_t)(place - chunk);
            if (here >= next_mark) {
                if (append_mark(marks, count, &capacity, here, data_bytes) != 0) return -1;
                next_mark = here + split->mark_every;
            }
            const uint8_t *ff = memchr(place, 0xFF, (size_t)(stop - place));
            if (ff == NULL) {
                data_bytes += (uint64_t)(stop - place);
                place = stop;
            } else {
                data_bytes += (uint64_t)(ff - place);
                place = ff + 1;
                after_ff = 1;
            }
        }
        offset += (uint64_t)read_count;
    }
}

/// The first restart marker from `offset` (a whole unit of data): its code and the offset of its
/// code byte; -1 when another marker (the scan's end) or the end of the file comes first.
static int find_restart_marker(mt_scan_split *split, uint64_t offset, int *code, uint64_t *code_offset) {
    mt_bit_reader reader;
    if (mt_bit_reader_open(&reader, split->fd, offset) != 0) return -1;
    int marker = mt_bit_reader_find_marker(&reader);
    *code = marker;
    *code_offset = reader.at.marker_offset;
    int found = !reader.hit_end_of_file && marker >= 0xD0 && marker <= 0xD7;
    mt_bit_reader_close(&reader);
    return found ? 0 : -1;
}

/// Where the helper starts: `tail_share` of the data back from its end, at a whole unit of data
/// (its place in bits of data in `start_bits`), or with restart intervals just after the first
/// restart marker from there (its code in `start_marker`, the code's offset in `marker_offset`).
static int find_tail_start(mt_scan_split *split, uint64_t *start_offset, uint64_t *start_bits,
                           int *start_marker, uint64_t *marker_offset) {
    uint8_t *chunk = malloc(MT_CHUNK_BYTES);
    data_mark *marks = NULL;
    size_t count = 0;
    uint64_t end = 0;
    int status = -1;
    if (chunk == NULL || walk_scan(split, chunk, &marks, &count, &end) != 0) goto done;
    uint64_t scan = split->layout.scan_offset;
    uint64_t target = scan + (uint64_t)((double)(end - scan) * (1.0 - split->tail_share));
    size_t chosen = 0;
    while (chosen < count && marks[chosen].offset < target) chosen++;
    if (chosen == 0 || chosen == count) goto done;
    if (split->layout.restart_interval == 0) {
        *start_offset = marks[chosen].offset;
        *start_bits = marks[chosen].data_bytes * 8;
        status = 0;
    } else if (find_restart_marker(split, marks[chosen].offset, start_marker, marker_offset) == 0) {
        *start_offset = *marker_offset + 1;
        *start_bits = 0;
        status = 0;
    }
done:
    free(marks);
    free(chunk);
    return status;
}

/// Decodes from the tail's start until the data ends, something cannot be decoded, the store is
/// full or the caller's thread says stop, noting MCU starts for the caller's thread to meet.
static void decode_tail(mt_scan_split *split) {
    const mt_scan_layout *layout = &split->layout;
    uint64_t start_offset = split->tail_start_offset, start_bits = split->tail_start_bits;
    mt_scan_decoder decoder;
    if (mt_bit_reader_open(&decoder.bits, split->fd, start_offset) != 0) return;
    size_t bound = mt_scan_stored_mcu_bound(layout), capacity = 0;
    int attempts = 0;
    for (;;) {
        mt_scan_decoder_reset(&decoder, layout);
        if (layout->restart_interval != 0) {
            decoder.next_restart = (split->tail_start_restart - 0xD0 + 1) & 7;
        } else {
            atomic_store_explicit(&split->speculation_bits, start_bits, memory_order_relaxed);
        }
        split->logged = 0;
        split->stored = 0;
        split->store_length = 0;
        mt_scan_status status = MT_SCAN_OK;
        for (;;) {
            // Where the caller's thread goes on from, should this MCU not be stored.
            split->tail_end = snapshot(&decoder);
            if (cancelled(split) || split->stored >= layout->total_mcus) break;
            if (split->logged < SYNC_LOG_CAPACITY) {
                sync_point *point = &split->log[split->logged++];
                point->bits = start_bits + mt_bit_reader_bits_taken(&decoder.bits);
                memcpy(point->last_dc, decoder.last_dc, sizeof point->last_dc);
                point->stored_offset = split->store_length;
            }
            if (split->store_length + bound > capacity) {
                if (split->store_length + bound > split->store_limit) break;
                size_t grown = capacity ? capacity * 2 : (size_t)1 << 20;
                if (grown > split->store_limit) grown = split->store_limit;
                uint8_t *bigger = realloc(split->store, grown);
                if (bigger == NULL) break;
                split->store = bigger;
                capacity = grown;
            }
            int found = 0;
            size_t length = 0;
            status = mt_scan_decoder_restart_if_due(&decoder, layout, &found);
            if (status == MT_SCAN_OK) {
                status = mt_scan_decode_mcu_stored(&decoder, layout, split->store + split->store_length, &length);
            }
            if (status != MT_SCAN_OK) break;
            split->stored++;
            split->store_length += length;
        }
        // A code that cannot be is the helper not yet in step with the code (or corrupt data,
        // which the caller's thread meets and reports): start again after what was read.
        if (status != MT_SCAN_BAD_CODE || layout->restart_interval != 0 || decoder.bits.at.marker != 0 ||
            ++attempts >= SPECULATION_ATTEMPTS) break;
        mt_reader_position restart = { 0 };
        restart.offset = mt_bit_reader_position(&decoder.bits).offset;
        start_bits += decoder.bits.at.data_bytes * 8;
        mt_bit_reader_move(&decoder.bits, &restart);
    }
    split->tail_usable = 1;
    mt_bit_reader_close(&decoder.bits);
}

static void *helper_main(void *context) {
    mt_scan_split *split = context;
    pthread_setname_np(pthread_self(), "jpeg-scan");
    decode_tail(split);
    pthread_mutex_lock(&split->lock);
    split->finished = 1;
    pthread_cond_broadcast(&split->finished_changed);
    pthread_mutex_unlock(&split->lock);
    return NULL;
}

// MARK: The caller's thread

static void wait_for_helper(mt_scan_split *split) {
    pthread_mutex_lock(&split->lock);
    while (!split->finished) pthread_cond_wait(&split->finished_changed, &split->lock);
    pthread_mutex_unlock(&split->lock);
}


/// Whether the caller's decoder, at an MCU start, has reached one of the helper's MCU starts:
/// the same place in the data at the start of an MCU is the same state, so from there on the
/// helper's MCUs are the ones it would decode, their DC values off by what the predictions were
/// off by there.
static int meet_helper(mt_scan_split *split) {
    const mt_scan_layout *layout = &split->layout;
    mt_scan_decoder *decoder = &split->decoder;
    int restarts = layout->restart_interval != 0;
    if (restarts) {
        // Only just after a restart marker, at or past the helper's.
        if (decoder->restarts_to_go != layout->restart_interval - 1 || decoder->bits.at.marker_offset < split->tail_start_marker) return 0;
    } else if (mt_bit_reader_bits_taken(&decoder->bits) < atomic_load_explicit(&split->speculation_bits, memory_order_relaxed)) {
        return 0;
    }
    wait_for_helper(split);
    if (!split->tail_usable || split->logged == 0) {
        split->gave_up = 1;
        return 0;
    }
    uint32_t first;
    if (restarts) {
        if (decoder->bits.at.marker_offset != split->tail_start_marker) {
            split->gave_up = 1;
            return 0;
        }
        first = 0;
    } else {
        uint64_t here = mt_bit_reader_bits_taken(&decoder->bits);
        while (split->log_cursor < split->logged && split->log[split->log_cursor].bits < here) split->log_cursor++;
        if (split->log_cursor == split->logged) {
            split->gave_up = 1;
            return 0;
        }
        if (split->log[split->log_cursor].bits != here) return 0;
        first = split->log_cursor;
    }
    if (first >= split->stored) {
        split->gave_up = 1;
        return 0;
    }
    const sync_point *point = &split->log[first];
    for (int c = 0; c < MAX_COMPS_IN_SCAN; c++) split->dc_offset[c] = decoder->last_dc[c] - point->last_dc[c];
    uint32_t available = split->stored - first, wanted = layout->total_mcus - split->mcu;
    split->serve_left = available < wanted ? available : wanted;
    split->serves_to_tail_end = available <= wanted;
    split->store_cursor = point->stored_offset;
    split->serving = 1;
    split->met = 1;
    return 1;
}

/// Goes on from where the helper stopped, its predictions put right.
static void take_over_from_helper(mt_scan_split *split) {
    mt_scan_decoder *decoder = &split->decoder;
    const decoder_snapshot *end = &split->tail_end;
    mt_bit_reader_move(&decoder->bits, &end->at);
    decoder->bits.hit_end_of_file = end->hit_end_of_file;
    for (int c = 0; c < MAX_COMPS_IN_SCAN; c++) decoder->last_dc[c] = end->last_dc[c] + split->dc_offset[c];
    decoder->restarts_to_go = end->restarts_to_go;
    decoder->next_restart = end->next_restart;
}

/// What libjpeg warns of where its own decoder would, and from then on blocks left zero, as
/// libjpeg leaves them once its data has run out.
static void warn(mt_scan_split *split, int code, int found) {
    j_decompress_ptr decompress = split->decompress;
    if (code == JWRN_MUST_RESYNC) {
        WARNMS2(decompress, JWRN_MUST_RESYNC, found, split->decoder.next_restart);
    } else {
        WARNMS(decompress, code);
    }
    split->broken = 1;
    split->pub.insufficient_data = TRUE;
}

static void warn_of_end_of_file(mt_scan_split *split) {
    if (split->decoder.bits.hit_end_of_file && !split->warned_end_of_file) {
        split->warned_end_of_file = 1;
        WARNMS(split->decompress, JWRN_JPEG_EOF);
    }
}

static boolean decode_mcu_split(j_decompress_ptr decompress, JBLOCKROW *blocks) {
    mt_scan_split *split = (mt_scan_split *)decompress->entropy;
    const mt_scan_layout *layout = &split->layout;
    if (split->broken) return TRUE;
    if (split->serving) {
        if (split->serve_left > 0) {
            split->store_cursor += mt_scan_load_stored_mcu(layout, split->store + split->store_cursor, split->dc_offset, blocks);
            split->serve_left--;
            split->mcu++;
            return TRUE;
        }
        split->serving = 0;
        if (!split->serves_to_tail_end) return TRUE;  // past the picture's last MCU: nothing is asked there
        take_over_from_helper(split);
    }
    int found = 0;
    mt_scan_status status = mt_scan_decoder_restart_if_due(&split->decoder, layout, &found);
    warn_of_end_of_file(split);
    if (status != MT_SCAN_OK) {
        warn(split, JWRN_MUST_RESYNC, found);
        return TRUE;
    }
    if (!split->met && !split->gave_up && meet_helper(split)) {
        split->store_cursor += mt_scan_load_stored_mcu(layout, split->store + split->store_cursor, split->dc_offset, blocks);
        split->serve_left--;
        split->mcu++;
        return TRUE;
    }
    status = mt_scan_decode_mcu(&split->decoder, layout, blocks);
    warn_of_end_of_file(split);
    if (status == MT_SCAN_BAD_CODE) warn(split, JWRN_HUFF_BAD_CODE, 0);
    if (status == MT_SCAN_OUT_OF_DATA) warn(split, JWRN_HIT_MARKER, 0);
    split->mcu++;
    return TRUE;
}

/// libjpeg starts each scan's decoder; there is one scan, and it had started before this one came.
static void start_pass_split(j_decompress_ptr decompress) { (void)decompress; }

// MARK: Starting and finishing

mt_scan_split *mt_scan_split_start(j_decompress_ptr decompress, int fd, uint64_t scan_offset,
                                   const mt_jpeg_split_settings *settings) {
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode) ||
        (uint64_t)status.st_size < scan_offset + settings->minimum_bytes) return NULL;
    mt_scan_split *split = calloc(1, sizeof *split);
    if (split == NULL) return NULL;
    if (mt_scan_layout_make(decompress, scan_offset, &split->layout) != 0 ||
        mt_bit_reader_open(&split->decoder.bits, fd, scan_offset) != 0) {
        mt_bit_reader_close(&split->decoder.bits);
        free(split);
        return NULL;
    }
    mt_scan_decoder_reset(&split->decoder, &split->layout);
    split->decompress = decompress;
    split->fd = fd;
    split->tail_share = settings->tail_share;
    split->store_limit = settings->store_limit;
    uint64_t every = ((uint64_t)status.st_size - scan_offset) / MARKS;
    split->mark_every = every < 16 ? 16 : every > MARK_EVERY_MOST ? MARK_EVERY_MOST : every;
    split->log = malloc(SYNC_LOG_CAPACITY * sizeof *split->log);
    if (split->log == NULL || find_tail_start(split, &split->tail_start_offset, &split->tail_start_bits,
                                              &split->tail_start_restart, &split->tail_start_marker) != 0) {
        free(split->log);
        mt_bit_reader_close(&split->decoder.bits);
        free(split);
        return NULL;
    }
    atomic_init(&split->cancelled, 0);
    atomic_init(&split->speculation_bits, split->tail_start_bits);
    pthread_mutex_init(&split->lock, NULL);
    pthread_cond_init(&split->finished_changed, NULL);
    if (pthread_create(&split->helper, NULL, helper_main, split) != 0) {
        pthread_cond_destroy(&split->finished_changed);
        pthread_mutex_destroy(&split->lock);
        mt_bit_reader_close(&split->decoder.bits);
        free(split->log);
        free(split);
        return NULL;
    }
    split->helper_running = 1;
    split->pub.start_pass = start_pass_split;
    split->pub.decode_mcu = decode_mcu_split;
    split->pub.insufficient_data = FALSE;
    split->libjpeg_entropy = decompress->entropy;
    decompress->entropy = &split->pub;
    return split;
}

void mt_scan_split_finish(mt_scan_split *split) {
    if (split == NULL) return;
    atomic_store(&split->cancelled, 1);
    if (split->helper_running) pthread_join(split->helper, NULL);
    split->decompress->entropy = split->libjpeg_entropy;
    pthread_cond_destroy(&split->finished_changed);
    pthread_mutex_destroy(&split->lock);
    mt_bit_reader_close(&split->decoder.bits);
    free(split->log);
    free(split->store);
    free(split);
}

int mt_scan_split_met(const mt_scan_split *split) { return split != NULL && split->met; }
