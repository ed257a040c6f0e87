#include "CJPEGShim.h"
#include "jpeg_scan_limits.h"

#include <stdio.h>
#include <string.h>

/// The scans of a JPEG held whole (the lossless crop's, which TurboJPEG reads with no progress
/// monitor of ours), checked against the decoder's own limits from their headers alone: the
/// markers are walked, each scan's entropy-coded data passed over to the next marker.
int mt_jpeg_check_scans(const uint8_t *bytes, size_t length, char error_message[MT_ERROR_MESSAGE_CAPACITY]) {
    error_message[0] = '\0';
    enum { MOST_COMPONENTS = 4 };
    int ids[MOST_COMPONENTS] = {0}, h[MOST_COMPONENTS] = {0}, v[MOST_COMPONENTS] = {0};
    int components = 0, h_max = 1, v_max = 1;
    uint64_t blocks[MOST_COMPONENTS] = {0}, picture = 0, passes = 0;
    // The successive-approximation bit each coefficient was last refined to, as libjpeg keeps it
    // (-1: not yet in any scan).
    int coef_bits[MOST_COMPONENTS][64];
    memset(coef_bits, 0xFF, sizeof coef_bits);
    int progressive = 0, scans = 0;
    size_t at = 2;
    if (length < 4 || bytes[0] != 0xFF || bytes[1] != 0xD8) return 0;
    while (at + 4 <= length) {
        if (bytes[at] != 0xFF) {
            // Bytes between segments are skipped to the next 0xFF, as libjpeg's next_marker skips
            // them (with a warning TurboJPEG keeps alone, hiding the scans' warnings after it).
            const uint8_t *next = memchr(bytes + at, 0xFF, length - at);
            if (next == NULL) return 0;
            at = (size_t)(next - bytes);
            continue;
        }
        uint8_t marker = bytes[at + 1];
        if (marker == 0xFF) { at++; continue; }
        if (marker == 0xD9) return 0;
        // As libjpeg's next_marker and read_markers: FF 00 outside a scan is discarded, and RSTn
        // and TEM have no length; reading one there would end the walk where libjpeg goes on.
        if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) { at += 2; continue; }
        size_t segment = (size_t)bytes[at + 2] << 8 | bytes[at + 3];
        if (segment < 2 || at + 2 + segment > length) return 0;
        const uint8_t *data = bytes + at + 4;
        size_t data_length = segment - 2;
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            if (data_length < 6) return 0;
            progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
            uint64_t height = (uint64_t)data[1] << 8 | data[2], width = (uint64_t)data[3] << 8 | data[4];
            components = data[5];
            if (components < 1 || components > MOST_COMPONENTS || data_length < 6 + 3 * (size_t)components) return 0;
            for (int c = 0; c < components; c++) {
                ids[c] = data[6 + 3 * c];
                h[c] = data[7 + 3 * c] >> 4;
                v[c] = data[7 + 3 * c] & 15;
                if (h[c] < 1 || v[c] < 1) return 0;
                if (h[c] > h_max) h_max = h[c];
                if (v[c] > v_max) v_max = v[c];
            }
            picture = 0;
            for (int c = 0; c < components; c++) {
                uint64_t across = ((width * h[c] + h_max - 1) / h_max + 7) / 8;
                uint64_t down = ((height * v[c] + v_max - 1) / v_max + 7) / 8;
                blocks[c] = across * down;
                picture += blocks[c];
            }
        } else if (marker == 0xDA) {
            if (data_length < 1 || components == 0) return 0;
            int in_scan = data[0];
            if (in_scan < 1 || in_scan > MOST_COMPONENTS || data_length < 1 + 2 * (size_t)in_scan + 3) return 0;
            const uint8_t *tail = data + 1 + 2 * in_scan;
            int ss = tail[0], se = tail[1], ah = tail[2] >> 4, al = tail[2] & 15;
            if (++scans > MT_JPEG_MAX_SCANS) {
                snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, MT_JPEG_TOO_MANY_SCANS, MT_JPEG_MAX_SCANS);
                return -1;
            }
            for (int s = 0; s < in_scan; s++) {
                int c = 0;
                while (c < components && ids[c] != data[1 + 2 * s]) c++;
                if (c == components) return 0;
                passes += blocks[c];
                if (!progressive || ss > se || se > 63) continue;
                for (int k = ss; k <= se; k++) {
                    int expected = coef_bits[c][k] < 0 ? 0 : coef_bits[c][k];
                    if (ah != expected) {
                        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, MT_JPEG_BOGUS_PROGRESSION);
                        return -1;
                    }
                    coef_bits[c][k] = al;
                }
            }
            if (picture > 0 && passes > picture * MT_JPEG_MAX_PASSES_PER_BLOCK) {
                snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, MT_JPEG_TOO_MANY_PASSES, scans, MT_JPEG_MAX_PASSES_PER_BLOCK);
                return -1;
            }
            // The entropy-coded data runs to the next marker: 0xFF not followed by a stuffed zero,
            // a restart marker or a fill byte.
            at += 2 + segment;
            while (at + 1 < length && !(bytes[at] == 0xFF && bytes[at + 1] != 0x00 && !(bytes[at + 1] >= 0xD0 && bytes[at + 1] <= 0xD7)
                                        && bytes[at + 1] != 0xFF)) {
                const uint8_t *next = memchr(bytes + at + 1, 0xFF, length - at - 1);
                if (next == NULL) return 0;
                at = (size_t)(next - bytes);
            }
            continue;
        }
        at += 2 + segment;
    }
    return 0;
}
