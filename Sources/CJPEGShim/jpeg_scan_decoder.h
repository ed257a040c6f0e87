#ifndef MEDIATOOL_JPEG_SCAN_DECODER_H
#define MEDIATOOL_JPEG_SCAN_DECODER_H

// Our own Huffman decoder for a baseline JPEG's single interleaved scan, with the semantics of
// libjpeg-turbo 2.1's jdhuff.c (what it accepts, what it writes to a block, when it warns), so
// that a scan can be decoded from several places at once (jpeg_split_scan.c) and handed to
// libjpeg's own inverse DCT, upsampling and colour conversion block by block.

#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>

enum {
    /// Bits looked up at once: longer codes take the slow path (rare: camera tables put
    /// nearly every symbol in 10 bits or fewer).
    MT_LOOKAHEAD = 10,
    /// Bytes each reader holds of the file at a time.
    MT_CHUNK_BYTES = 128 * 1024,
};

typedef struct {
    /// (code length << 8) | symbol, by the next MT_LOOKAHEAD bits, for codes that fit; 0 otherwise.
    uint16_t symbols[1 << MT_LOOKAHEAD];
    /// AC tables: (value << 16) | (symbol << 8) | bits used, where the code and its value's bits
    /// together fit in MT_LOOKAHEAD; 0 otherwise.
    int32_t coefficients[1 << MT_LOOKAHEAD];
    /// The largest code of each length (-1: none), and what turns a code into its index in `values`.
    int32_t max_code[18];
    int32_t value_offset[18];
    uint8_t values[256];
} mt_huffman_table;

/// Where a reader stands, in scalars alone: enough to go on from there with any reader of the
/// same file.
typedef struct {
    /// The file's offset of the next byte not yet taken into `buffer`.
    uint64_t offset;
    /// Bits taken and not used, from the top.
    uint64_t buffer;
    int count;
    /// Zero bits put in after the data stopped at a marker (the last `padding` of `count`).
    int padding;
    /// Bytes of data taken since the reader started (stuffed zeros and fill bytes not counted).
    uint64_t data_bytes;
    /// The marker the data stopped at (0xD9 standing for the end of the file); 0 while there is data.
    int marker;
    /// The file's offset of that marker's code byte.
    uint64_t marker_offset;
} mt_reader_position;

typedef struct {
    int fd;
    /// The file's bytes from `chunk_offset`, read up to `end`, taken up to `next`.
    uint8_t *chunk;
    const uint8_t *next;
    const uint8_t *end;
    uint64_t chunk_offset;
    mt_reader_position at;
    /// The file ended where data was wanted (libjpeg says "Premature end of JPEG file").
    int hit_end_of_file;
} mt_bit_reader;

/// What every decoder of one scan shares, read only.
typedef struct {
    int blocks_in_mcu;
    int component_of_block[D_MAX_BLOCKS_IN_MCU];
    const mt_huffman_table *dc_table[D_MAX_BLOCKS_IN_MCU];
    const mt_huffman_table *ac_table[D_MAX_BLOCKS_IN_MCU];
    /// As libjpeg decides them: a DC value for every needed component, AC values only where the
    /// scaled inverse DCT is larger than 1x1.
    uint8_t dc_needed[D_MAX_BLOCKS_IN_MCU];
    uint8_t ac_needed[D_MAX_BLOCKS_IN_MCU];
    /// The natural places libjpeg-turbo's scaled inverse DCT reads, by bit (jidctred.c: 4x4 skips
    /// row and column 4, 2x2 reads rows and columns 0, 1, 3, 5 and 7): what a stored MCU keeps.
    uint64_t stored_places[D_MAX_BLOCKS_IN_MCU];
    /// Zigzag to natural order, and 16 more places meaning the last (see make_natural_order).
    uint8_t natural_order[80];
    uint32_t restart_interval;
    uint32_t total_mcus;
    /// The file's offset of the scan's first byte of data.
    uint64_t scan_offset;
    mt_huffman_table dc_tables[NUM_HUFF_TBLS];
    mt_huffman_table ac_tables[NUM_HUFF_TBLS];
} mt_scan_layout;

typedef struct {
    mt_bit_reader bits;
    /// Unsigned, as libjpeg adds them: a hostile run of differences wraps rather than overflows.
    uint32_t last_dc[MAX_COMPS_IN_SCAN];
    uint32_t restarts_to_go;
    int next_restart;
} mt_scan_decoder;

typedef enum {
    MT_SCAN_OK = 0,
    /// A code of more than 16 bits (JWRN_HUFF_BAD_CODE).
    MT_SCAN_BAD_CODE,
    /// Bits past the end of the data were used (JWRN_HIT_MARKER).
    MT_SCAN_OUT_OF_DATA,
    /// Another marker where a restart marker was due (JWRN_MUST_RESYNC).
    MT_SCAN_BAD_RESTART,
} mt_scan_status;

/// The layout of the scan libjpeg has started (after jpeg_start_decompress), or -1 when the scan
/// is not one this decoder takes: not Huffman-coded, progressive, more than one scan, or a
/// component left out.
int mt_scan_layout_make(j_decompress_ptr decompress, uint64_t scan_offset, mt_scan_layout *layout);

/// A reader of `fd` from `offset`, its chunk allocated; -1 when out of memory.
int mt_bit_reader_open(mt_bit_reader *reader, int fd, uint64_t offset);
void mt_bit_reader_close(mt_bit_reader *reader);
/// Where the reader stands.
mt_reader_position mt_bit_reader_position(const mt_bit_reader *reader);
/// Goes on from `position`, as a reader that stood there would.
void mt_bit_reader_move(mt_bit_reader *reader, const mt_reader_position *position);
/// The next marker from where the reader has got to, passing over anything else as libjpeg does;
/// its code byte's offset in `reader->at.marker_offset` (0xD9 at the end of the file).
int mt_bit_reader_find_marker(mt_bit_reader *reader);

/// Up to `size` bytes of `fd` at `offset` (a pread that an interrupting signal does not cut
/// short); 0 at the end, -1 when it cannot be read.
ssize_t mt_read_at(int fd, uint8_t *buffer, size_t size, uint64_t offset);

/// A decoder at the scan's start.
void mt_scan_decoder_reset(mt_scan_decoder *decoder, const mt_scan_layout *layout);

/// Reads the restart marker due before the next MCU, if one is due. `found` gets the marker
/// read instead of the one due.
mt_scan_status mt_scan_decoder_restart_if_due(mt_scan_decoder *decoder, const mt_scan_layout *layout, int *found);

/// Decodes one MCU into `blocks` (zeroed by the caller, as libjpeg's are; NULL to drop it).
mt_scan_status mt_scan_decode_mcu(mt_scan_decoder *decoder, const mt_scan_layout *layout, JBLOCKROW *blocks);

/// Decodes one MCU and appends what the inverse DCT will read of it to `out` (at most
/// mt_scan_stored_mcu_bound bytes): for each block its DC value (the low 2 bytes, as decoded from
/// this decoder's start: the offset added later wraps the same way), then where AC values are
/// needed the count and (place, value) of those in `stored_places`.
mt_scan_status mt_scan_decode_mcu_stored(mt_scan_decoder *decoder, const mt_scan_layout *layout, uint8_t *out, size_t *length);

/// The most bytes one stored MCU takes.
size_t mt_scan_stored_mcu_bound(const mt_scan_layout *layout);

/// Copies one stored MCU into `blocks`, its DC values plus `dc_offset` (per component); returns
/// the bytes it took.
size_t mt_scan_load_stored_mcu(const mt_scan_layout *layout, const uint8_t *stored, const uint32_t *dc_offset, JBLOCKROW *blocks);

/// The reader's place in the scan's data in bits (stuffed zeros not counted), from where it started.
static inline uint64_t mt_bit_reader_bits_taken(const mt_bit_reader *reader) {
    return (uint64_t)((int64_t)reader->at.data_bytes * 8 - (reader->at.count - reader->at.padding));
}

#endif
