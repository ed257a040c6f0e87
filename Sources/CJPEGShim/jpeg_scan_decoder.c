#include "jpeg_scan_decoder.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// MARK: Tables

/// Builds the decoding tables of one DHT table, as jdhuff.c's jpeg_make_d_derived_tbl reads it;
/// -1 for a table it would refuse (it has refused those already when the scan started).
static int make_table(const JHUFF_TBL *source, int is_ac, mt_huffman_table *table) {
    memset(table, 0, sizeof *table);
    int total = 0;
    for (int length = 1; length <= 16; length++) total += source->bits[length];
    if (total > 256) return -1;
    memcpy(table->values, source->huffval, (size_t)total);
    uint32_t code = 0;
    int index = 0;
    for (int length = 1; length <= 16; length++) {
        int count = source->bits[length];
        table->max_code[length] = -1;
        if (count > 0) {
            table->value_offset[length] = index - (int32_t)code;
            for (int i = 0; i < count; i++, index++, code++) {
                if (length > MT_LOOKAHEAD) continue;
                int spare = MT_LOOKAHEAD - length;
                uint32_t first = code << spare;
                for (uint32_t fill = 0; fill < (1u << spare); fill++) {
                    table->symbols[first + fill] = (uint16_t)(length << 8 | source->huffval[index]);
                }
            }
            table->max_code[length] = (int32_t)code - 1;
        }
        // No code may be all ones, so the next code must still fit in this length.
        if (index > 0 && code >= (1u << length)) return -1;
        code <<= 1;
    }
    table->max_code[17] = INT32_MAX;
    if (!is_ac) return 0;
    for (uint32_t look = 0; look < (1u << MT_LOOKAHEAD); look++) {
        uint16_t entry = table->symbols[look];
        if (entry == 0) continue;
        int length = entry >> 8, symbol = entry & 0xFF, size = symbol & 15;
        if (length + size > MT_LOOKAHEAD) continue;
        int32_t value = 0;
        if (size > 0) {
            uint32_t bits = (look >> (MT_LOOKAHEAD - length - size)) & ((1u << size) - 1);
            value = bits < (1u << (size - 1)) ? (int32_t)bits - (int32_t)((1u << size) - 1) : (int32_t)bits;
        }
        table->coefficients[look] = (int32_t)((uint32_t)value << 16) | symbol << 8 | (length + size);
    }
    return 0;
}

/// Zigzag order to natural order, with 16 more places that all mean the last coefficient: a
/// corrupt run past the block's end lands there, as in libjpeg.
static void make_natural_order(uint8_t order[80]) {
    int k = 0;
    for (int diagonal = 0; diagonal < 15; diagonal++) {
        for (int step = 0; step <= diagonal; step++) {
            int row = diagonal % 2 == 0 ? diagonal - step : step;
            int column = diagonal - row;
            if (row < 8 && column < 8) order[k++] = (uint8_t)(row * 8 + column);
        }
    }
    for (; k < 80; k++) order[k] = 63;
}

/// The natural places of a block libjpeg-turbo's inverse DCT of `size` x `size` reads.
static uint64_t places_read(int size) {
    if (size >= 8) return ~0ULL;
    uint64_t places = 0;
    for (int row = 0; row < 8; row++) {
        for (int column = 0; column < 8; column++) {
            int read = size == 4 ? row != 4 && column != 4
                     : size == 2 ? (row < 2 || row % 2 == 1) && (column < 2 || column % 2 == 1)
                     : row == 0 && column == 0;
            if (read) places |= 1ULL << (row * 8 + column);
        }
    }
    return places;
}

int mt_scan_layout_make(j_decompress_ptr d, uint64_t scan_offset, mt_scan_layout *layout) {
    if (d->arith_code || d->progressive_mode || d->data_precision != 8 || jpeg_has_multiple_scans(d) ||
        d->comps_in_scan != d->num_components || d->comps_in_scan > MAX_COMPS_IN_SCAN ||
        d->blocks_in_MCU < 1 || d->blocks_in_MCU > D_MAX_BLOCKS_IN_MCU) return -1;
    memset(layout, 0, sizeof *layout);
    make_natural_order(layout->natural_order);
    int built_dc[NUM_HUFF_TBLS] = { 0 }, built_ac[NUM_HUFF_TBLS] = { 0 };
    for (int c = 0; c < d->comps_in_scan; c++) {
        jpeg_component_info *component = d->cur_comp_info[c];
        int dc = component->dc_tbl_no, ac = component->ac_tbl_no;
        if (dc < 0 || dc >= NUM_HUFF_TBLS || ac < 0 || ac >= NUM_HUFF_TBLS ||
            d->dc_huff_tbl_ptrs[dc] == NULL || d->ac_huff_tbl_ptrs[ac] == NULL) return -1;
        if (!built_dc[dc] && make_table(d->dc_huff_tbl_ptrs[dc], 0, &layout->dc_tables[dc]) != 0) return -1;
        if (!built_ac[ac] && make_table(d->ac_huff_tbl_ptrs[ac], 1, &layout->ac_tables[ac]) != 0) return -1;
        built_dc[dc] = built_ac[ac] = 1;
    }
    layout->blocks_in_mcu = d->blocks_in_MCU;
    for (int b = 0; b < d->blocks_in_MCU; b++) {
        int c = d->MCU_membership[b];
        if (c < 0 || c >= d->comps_in_scan) return -1;
        jpeg_component_info *component = d->cur_comp_info[c];
        layout->component_of_block[b] = c;
        layout->dc_table[b] = &layout->dc_tables[component->dc_tbl_no];
        layout->ac_table[b] = &layout->ac_tables[component->ac_tbl_no];
        layout->dc_needed[b] = component->component_needed != 0;
        layout->ac_needed[b] = component->component_needed && component->DCT_scaled_size > 1;
        layout->stored_places[b] = places_read(component->DCT_scaled_size);
    }
    layout->restart_interval = d->restart_interval;
    layout->total_mcus = d->MCUs_per_row * d->MCU_rows_in_scan;
    layout->scan_offset = scan_offset;
    return 0;
}

// MARK: Reading bits

int mt_bit_reader_open(mt_bit_reader *reader, int fd, uint64_t offset) {
    memset(reader, 0, sizeof *reader);
    reader->fd = fd;
    reader->chunk = malloc(MT_CHUNK_BYTES);
    if (reader->chunk == NULL) return -1;
    reader->next = reader->end = reader->chunk;
    reader->chunk_offset = offset;
    return 0;
}

void mt_bit_reader_close(mt_bit_reader *reader) {
    free(reader->chunk);
    reader->chunk = NULL;
}

static inline uint64_t reader_offset(const mt_bit_reader *reader) {
    return reader->chunk_offset + (uint64_t)(reader->next - reader->chunk);
}

mt_reader_position mt_bit_reader_position(const mt_bit_reader *reader) {
    mt_reader_position position = reader->at;
    position.offset = reader_offset(reader);
    return position;
}

void mt_bit_reader_move(mt_bit_reader *reader, const mt_reader_position *position) {
    reader->at = *position;
    reader->chunk_offset = position->offset;
    reader->next = reader->end = reader->chunk;
}

ssize_t mt_read_at(int fd, uint8_t *buffer, size_t size, uint64_t offset) {
    ssize_t count;
    do {
        count = pread(fd, buffer, size, (off_t)offset);
    } while (count < 0 && errno == EINTR);
    return count;
}

static int load_chunk(mt_bit_reader *reader) {
    uint64_t offset = reader_offset(reader);
    ssize_t count = mt_read_at(reader->fd, reader->chunk, MT_CHUNK_BYTES, offset);
    reader->chunk_offset = offset;
    reader->next = reader->chunk;
    reader->end = reader->chunk + (count > 0 ? count : 0);
    return count > 0;
}

/// The next byte of the file, or -1 at its end (or when it cannot be read).
static inline int next_byte(mt_bit_reader *reader) {
    if (reader->next == reader->end && !load_chunk(reader)) return -1;
    return *reader->next++;
}

/// Where the data stops: at a marker, or at the end of the file, which libjpeg's source takes
/// for an EOI marker.
static void stop_at(mt_bit_reader *reader, int marker, uint64_t marker_offset) {
    if (marker < 0) {
        reader->hit_end_of_file = 1;
        marker = 0xD9;
    }
    reader->at.marker = marker;
    reader->at.marker_offset = marker_offset;
}

/// Takes bytes into the buffer until it holds at least 57 bits, as jdhuff.c's
/// jpeg_fill_bit_buffer does: FF 00 is a data byte FF, any run of FF before 00 counts as one,
/// FF before anything else is a marker, after which only zeros come.
static __attribute__((noinline)) void refill(mt_bit_reader *reader) {
    mt_reader_position *at = &reader->at;
    while (at->count <= 56) {
        if (at->marker != 0) {
            at->count += 8;
            at->padding += 8;
            continue;
        }
        if (reader->end - reader->next >= 8) {
            uint64_t word;
            memcpy(&word, reader->next, 8);
            word = __builtin_bswap64(word);
            uint64_t inverted = ~word;
            // No byte of the eight is FF: take as many whole bytes as fit.
            if (((inverted - 0x0101010101010101ULL) & ~inverted & 0x8080808080808080ULL) == 0) {
                int bytes = (64 - at->count) >> 3;
                uint64_t taken = bytes == 8 ? word : word & ~(~0ULL >> (8 * bytes));
                at->buffer |= taken >> at->count;
                at->count += 8 * bytes;
                at->data_bytes += (uint64_t)bytes;
                reader->next += bytes;
                return;
            }
        }
        int byte = next_byte(reader);
        if (byte < 0) {
            stop_at(reader, -1, reader_offset(reader));
            continue;
        }
        if (byte == 0xFF) {
            uint64_t marker_offset;
            do {
                marker_offset = reader_offset(reader);
                byte = next_byte(reader);
            } while (byte == 0xFF);
            if (byte != 0) {
                stop_at(reader, byte, marker_offset);
                continue;
            }
            byte = 0xFF;
        }
        at->buffer |= (uint64_t)byte << (56 - at->count);
        at->count += 8;
        at->data_bytes += 1;
    }
}

static inline __attribute__((always_inline)) void ensure_bits(mt_bit_reader *reader, int bits) {
    if (reader->at.count < bits) refill(reader);
}

static inline uint32_t peek_bits(const mt_bit_reader *reader, int bits) {
    return (uint32_t)(reader->at.buffer >> (64 - bits));
}

static inline void drop_bits(mt_bit_reader *reader, int bits) {
    reader->at.buffer <<= bits;
    reader->at.count -= bits;
}

/// Bits of data left in the buffer, before the zeros that follow its end.
static inline int real_bits(const mt_bit_reader *reader) {
    return reader->at.count - reader->at.padding;
}

/// The next symbol, the buffer holding at least 16 bits; -1 for a code of more than 16 bits, or
/// -2 where libjpeg, reading such a code bit by bit, would first have run past the data's end
/// (and warned of that first).
static inline int decode_symbol(mt_bit_reader *reader, const mt_huffman_table *table) {
    uint16_t entry = table->symbols[peek_bits(reader, MT_LOOKAHEAD)];
    if (entry != 0) {
        drop_bits(reader, entry >> 8);
        return entry & 0xFF;
    }
    int length = MT_LOOKAHEAD + 1;
    int32_t code = (int32_t)peek_bits(reader, length);
    while (code > table->max_code[length]) {
        if (++length > 16) return real_bits(reader) < 17 ? -2 : -1;
        code = (int32_t)peek_bits(reader, length);
    }
    drop_bits(reader, length);
    return table->values[(code + table->value_offset[length]) & 0xFF];
}

/// A value of `size` bits (1 to 15), as F.2.2.1's EXTEND gives it.
static inline int32_t receive_value(mt_bit_reader *reader, int size) {
    uint32_t bits = peek_bits(reader, size);
    drop_bits(reader, size);
    return bits < (1u << (size - 1)) ? (int32_t)bits - (int32_t)((1u << size) - 1) : (int32_t)bits;
}

// MARK: Decoding

void mt_scan_decoder_reset(mt_scan_decoder *decoder, const mt_scan_layout *layout) {
    memset(decoder->last_dc, 0, sizeof decoder->last_dc);
    decoder->restarts_to_go = layout->restart_interval;
    decoder->next_restart = 0;
}

/// As jdmarker.c's next_marker finds it: libjpeg warns of the bytes passed over as extraneous
/// data, which harms no pixel.
int mt_bit_reader_find_marker(mt_bit_reader *reader) {
    for (;;) {
        int byte = next_byte(reader);
        while (byte >= 0 && byte != 0xFF) byte = next_byte(reader);
        if (byte < 0) {
            stop_at(reader, -1, reader_offset(reader));
            return reader->at.marker;
        }
        uint64_t marker_offset;
        do {
            marker_offset = reader_offset(reader);
            byte = next_byte(reader);
        } while (byte == 0xFF);
        if (byte < 0) {
            stop_at(reader, -1, reader_offset(reader));
            return reader->at.marker;
        }
        if (byte != 0) {
            reader->at.marker_offset = marker_offset;
            return byte;
        }
    }
}

mt_scan_status mt_scan_decoder_restart_if_due(mt_scan_decoder *decoder, const mt_scan_layout *layout, int *found) {
    if (layout->restart_interval == 0) return MT_SCAN_OK;
    if (decoder->restarts_to_go == 0) {
        mt_reader_position *at = &decoder->bits.at;
        // The bits left of the interval's last byte are padding.
        at->buffer = 0;
        at->count = 0;
        at->padding = 0;
        int marker = at->marker != 0 ? at->marker : mt_bit_reader_find_marker(&decoder->bits);
        at->marker = 0;
        if (marker != 0xD0 + decoder->next_restart) {
            *found = marker;
            // Stay stopped: libjpeg goes on in a way of its own, and any warning fails the picture.
            at->marker = marker;
            return MT_SCAN_BAD_RESTART;
        }
        memset(decoder->last_dc, 0, sizeof decoder->last_dc);
        decoder->restarts_to_go = layout->restart_interval;
        decoder->next_restart = (decoder->next_restart + 1) & 7;
    }
    decoder->restarts_to_go--;
    return MT_SCAN_OK;
}

/// One MCU, as jdhuff.c's decode_mcu reads it, into `blocks` and/or appended to `out`.
static inline __attribute__((always_inline)) mt_scan_status
decode_mcu(mt_scan_decoder *decoder, const mt_scan_layout *layout, JBLOCKROW *blocks, uint8_t *out, size_t *length) {
    mt_bit_reader *reader = &decoder->bits;
    uint8_t *place = out;
    for (int b = 0; b < layout->blocks_in_mcu; b++) {
        JCOEF *block = blocks != NULL ? blocks[b][0] : NULL;
        const mt_huffman_table *ac = layout->ac_table[b];
        ensure_bits(reader, 32);
        int size = decode_symbol(reader, layout->dc_table[b]);
        if (size < 0) return size == -1 ? MT_SCAN_BAD_CODE : MT_SCAN_OUT_OF_DATA;
        int32_t difference = size > 0 ? receive_value(reader, size) : 0;
        if (layout->dc_needed[b]) {
            int component = layout->component_of_block[b];
            uint32_t value = (uint32_t)difference + decoder->last_dc[component];
            decoder->last_dc[component] = value;
            if (block != NULL) block[0] = (JCOEF)value;
            if (out != NULL) {
                uint16_t low = (uint16_t)value;
                memcpy(place, &low, 2);
                place += 2;
            }
        }
        int keeps = layout->ac_needed[b] && (block != NULL || out != NULL);
        uint8_t *count_place = NULL;
        int stored = 0;
        if (out != NULL && layout->ac_needed[b]) count_place = place++;
        for (int k = 1; k < 64; k++) {
            ensure_bits(reader, 32);
            int32_t entry = ac->coefficients[peek_bits(reader, MT_LOOKAHEAD)];
            int symbol;
            int32_t value;
            if (entry & 0xFF) {
                drop_bits(reader, entry & 0xFF);
                symbol = (entry >> 8) & 0xFF;
                value = entry >> 16;
            } else {
                symbol = decode_symbol(reader, ac);
                if (symbol < 0) return symbol == -1 ? MT_SCAN_BAD_CODE : MT_SCAN_OUT_OF_DATA;
                value = (symbol & 15) ? receive_value(reader, symbol & 15) : 0;
            }
            int run = symbol >> 4;
            if (symbol & 15) {
                k += run;
                if (keeps) {
                    uint8_t index = layout->natural_order[k];
                    if (block != NULL) block[index] = (JCOEF)value;
                    if (count_place != NULL && (layout->stored_places[b] >> index & 1)) {
                        JCOEF coefficient = (JCOEF)value;
                        place[0] = index;
                        memcpy(place + 1, &coefficient, sizeof coefficient);
                        place += 1 + sizeof coefficient;
                        stored++;
                    }
                }
            } else {
                if (run != 15) break;
                k += 15;
            }
        }
        if (count_place != NULL) *count_place = (uint8_t)stored;
    }
    if (reader->at.count < reader->at.padding) return MT_SCAN_OUT_OF_DATA;
    if (length != NULL) *length = (size_t)(place - out);
    return MT_SCAN_OK;
}

mt_scan_status mt_scan_decode_mcu(mt_scan_decoder *decoder, const mt_scan_layout *layout, JBLOCKROW *blocks) {
    return decode_mcu(decoder, layout, blocks, NULL, NULL);
}

mt_scan_status mt_scan_decode_mcu_stored(mt_scan_decoder *decoder, const mt_scan_layout *layout, uint8_t *out, size_t *length) {
    return decode_mcu(decoder, layout, NULL, out, length);
}

size_t mt_scan_stored_mcu_bound(const mt_scan_layout *layout) {
    size_t bound = 0;
    for (int b = 0; b < layout->blocks_in_mcu; b++) {
        bound += 2 + (layout->ac_needed[b] ? 1 + 63 * (1 + sizeof(JCOEF)) : 0);
    }
    return bound;
}

size_t mt_scan_load_stored_mcu(const mt_scan_layout *layout, const uint8_t *stored, const uint32_t *dc_offset, JBLOCKROW *blocks) {
    const uint8_t *place = stored;
    for (int b = 0; b < layout->blocks_in_mcu; b++) {
        JCOEF *block = blocks != NULL ? blocks[b][0] : NULL;
        if (layout->dc_needed[b]) {
            uint16_t low;
            memcpy(&low, place, 2);
            place += 2;
            if (block != NULL) block[0] = (JCOEF)(uint16_t)(low + (uint16_t)dc_offset[layout->component_of_block[b]]);
        }
        if (layout->ac_needed[b]) {
            int count = *place++;
            if (block != NULL) {
                for (int i = 0; i < count; i++) {
                    JCOEF coefficient;
                    memcpy(&coefficient, place + i * (1 + sizeof(JCOEF)) + 1, sizeof coefficient);
                    block[place[i * (1 + sizeof(JCOEF))]] = coefficient;
                }
            }
            place += (size_t)count * (1 + sizeof(JCOEF));
        }
    }
    return (size_t)(place - stored);
}
