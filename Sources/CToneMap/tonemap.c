#include "CToneMap.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline float clamp_code(float value) { return value > 0 ? (value < 65535 ? value : 65535) : 0; }
static inline float clamp_unit(float value) { return value > 0 ? (value < 1 ? value : 1) : 0; }

/// The curve's white (the peak above the knee, in spans of what is above the knee) squared, times the span.
static inline float white_squared_span(const mt_tone_map *map) {
    float span = 1 - map->knee, white = (map->peak - map->knee) / span;
    return white * white * span;
}

/// One pixel of R'G'B' codes (unclamped floats) to sRGB: the reference the vector lanes follow.
static inline void map_pixel(const mt_tone_map *map, float red, float green, float blue, uint8_t *out) {
    float r = map->linear[(int)(clamp_code(red) + 0.5f)];
    float g = map->linear[(int)(clamp_code(green) + 0.5f)];
    float b = map->linear[(int)(clamp_code(blue) + 0.5f)];
    if (map->hlg_gain != 0) {
        float scene = 0.2627f * r + 0.6780f * g + 0.0593f * b;
        scene = scene < 1 ? scene : 1;
        float gain = map->hlg_gain[(int)(scene * 65535 + 0.5f)];
        r *= gain; g *= gain; b *= gain;
    }
    float r709 = 1.6605f * r - 0.5876f * g - 0.0728f * b;
    float g709 = -0.1246f * r + 1.1329f * g - 0.0083f * b;
    float b709 = -0.0182f * r - 0.1006f * g + 1.1187f * b;
    float high = r709 > g709 ? r709 : g709;
    high = high > b709 ? high : b709;
    float knee = map->knee;
    if (high > knee) {
        // Reinhard's extended curve above the knee, y = x (1 + x / white^2) / (1 + x) with
        // x = (high - knee) / span, as one division: num / den is y, min(num, den) / den caps it at 1.
        float span = 1 - knee, w2s = white_squared_span(map), d = high - knee;
        float num = d * (w2s + d), den = w2s * (span + d);
        float scale = (knee * den + span * (num < den ? num : den)) / (den * high);
        r709 *= scale; g709 *= scale; b709 *= scale;
    }
    float low = r709 < g709 ? r709 : g709;
    low = low < b709 ? low : b709;
    const float margin = 0.02f;
    if (low < -margin) {
        float y = clamp_unit(0.2126f * r709 + 0.7152f * g709 + 0.0722f * b709);
        float keep = (y + margin) / (y - low);
        r709 = y + (r709 - y) * keep;
        g709 = y + (g709 - y) * keep;
        b709 = y + (b709 - y) * keep;
    }
    out[0] = map->encode[(int)(clamp_unit(r709) * 16383 + 0.5f)];
    out[1] = map->encode[(int)(clamp_unit(g709) * 16383 + 0.5f)];
    out[2] = map->encode[(int)(clamp_unit(b709) * 16383 + 0.5f)];
}

#if defined(__SSE2__)
/// The table entries at four indexes.
static inline __m128 gather(const float *table, __m128i indexes) {
    int at[4];
    _mm_storeu_si128((__m128i *)at, indexes);
    return _mm_setr_ps(table[at[0]], table[at[1]], table[at[2]], table[at[3]]);
}

static inline __m128 lanes_where(__m128 mask, __m128 chosen, __m128 otherwise) {
    return _mm_or_ps(_mm_and_ps(mask, chosen), _mm_andnot_ps(mask, otherwise));
}

/// Four pixels, `map_pixel` lane by lane: the same operations in the same order.
static inline void map_four(const mt_tone_map *map, __m128 red, __m128 green, __m128 blue, uint8_t *out) {
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1), half = _mm_set1_ps(0.5f);
    const __m128 top = _mm_set1_ps(65535);
    __m128 r = gather(map->linear, _mm_cvttps_epi32(_mm_add_ps(_mm_min_ps(_mm_max_ps(red, zero), top), half)));
    __m128 g = gather(map->linear, _mm_cvttps_epi32(_mm_add_ps(_mm_min_ps(_mm_max_ps(green, zero), top), half)));
    __m128 b = gather(map->linear, _mm_cvttps_epi32(_mm_add_ps(_mm_min_ps(_mm_max_ps(blue, zero), top), half)));
    if (map->hlg_gain != 0) {
        __m128 scene = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(0.2627f), r), _mm_mul_ps(_mm_set1_ps(0.6780f), g)),
                                  _mm_mul_ps(_mm_set1_ps(0.0593f), b));
        scene = _mm_min_ps(scene, one);
        __m128 gain = gather(map->hlg_gain, _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(scene, top), half)));
        r = _mm_mul_ps(r, gain); g = _mm_mul_ps(g, gain); b = _mm_mul_ps(b, gain);
    }
#define MIX(a, x, b_, y, c, z) _mm_sub_ps(_mm_sub_ps(_mm_mul_ps(_mm_set1_ps(a), x), _mm_mul_ps(_mm_set1_ps(b_), y)), _mm_mul_ps(_mm_set1_ps(c), z))
    __m128 r709 = MIX(1.6605f, r, 0.5876f, g, 0.0728f, b);
    __m128 g709 = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(-0.1246f), r), _mm_mul_ps(_mm_set1_ps(1.1329f), g)),
                             _mm_mul_ps(_mm_set1_ps(0.0083f), b));
    __m128 b709 = _mm_add_ps(_mm_sub_ps(_mm_mul_ps(_mm_set1_ps(-0.0182f), r), _mm_mul_ps(_mm_set1_ps(0.1006f), g)),
                             _mm_mul_ps(_mm_set1_ps(1.1187f), b));
#undef MIX
    __m128 high = _mm_max_ps(_mm_max_ps(r709, g709), b709);
    const __m128 knee = _mm_set1_ps(map->knee);
    __m128 above = _mm_cmpgt_ps(high, knee);
    if (_mm_movemask_ps(above)) {
        const __m128 span = _mm_set1_ps(1 - map->knee), w2s = _mm_set1_ps(white_squared_span(map));
        __m128 d = _mm_sub_ps(high, knee);
        __m128 num = _mm_mul_ps(d, _mm_add_ps(w2s, d)), den = _mm_mul_ps(w2s, _mm_add_ps(span, d));
        __m128 scale = _mm_div_ps(_mm_add_ps(_mm_mul_ps(knee, den), _mm_mul_ps(span, _mm_min_ps(num, den))), _mm_mul_ps(den, high));
        scale = lanes_where(above, scale, one);
        r709 = _mm_mul_ps(r709, scale); g709 = _mm_mul_ps(g709, scale); b709 = _mm_mul_ps(b709, scale);
    }
    __m128 low = _mm_min_ps(_mm_min_ps(r709, g709), b709);
    const __m128 margin = _mm_set1_ps(0.02f);
    __m128 outside = _mm_cmplt_ps(low, _mm_sub_ps(zero, margin));
    if (_mm_movemask_ps(outside)) {
        __m128 y = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(0.2126f), r709), _mm_mul_ps(_mm_set1_ps(0.7152f), g709)),
                              _mm_mul_ps(_mm_set1_ps(0.0722f), b709));
        y = _mm_min_ps(_mm_max_ps(y, zero), one);
        __m128 keep = lanes_where(outside, _mm_div_ps(_mm_add_ps(y, margin), _mm_sub_ps(y, low)), one);
        r709 = _mm_add_ps(y, _mm_mul_ps(_mm_sub_ps(r709, y), keep));
        g709 = _mm_add_ps(y, _mm_mul_ps(_mm_sub_ps(g709, y), keep));
        b709 = _mm_add_ps(y, _mm_mul_ps(_mm_sub_ps(b709, y), keep));
    }
    const __m128 steps = _mm_set1_ps(16383);
    int codes[3][4];
    _mm_storeu_si128((__m128i *)codes[0], _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(_mm_min_ps(_mm_max_ps(r709, zero), one), steps), half)));
    _mm_storeu_si128((__m128i *)codes[1], _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(_mm_min_ps(_mm_max_ps(g709, zero), one), steps), half)));
    _mm_storeu_si128((__m128i *)codes[2], _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(_mm_min_ps(_mm_max_ps(b709, zero), one), steps), half)));
    for (int lane = 0; lane < 4; lane++) {
        out[3 * lane] = map->encode[codes[0][lane]];
        out[3 * lane + 1] = map->encode[codes[1][lane]];
        out[3 * lane + 2] = map->encode[codes[2][lane]];
    }
}

static inline __m128 load_four(const uint16_t *samples) {
    __m128i raw = _mm_loadl_epi64((const __m128i *)samples);
    return _mm_cvtepi32_ps(_mm_unpacklo_epi16(raw, _mm_setzero_si128()));
}
#endif

#if defined(__x86_64__) && defined(__clang__)
// Eight pixels at a time where the processor has AVX2 (chosen as the program runs, the build
// being for any x86-64): `map_four`'s operations in the same order, with the tables read by the
// processor's gathers. No FMA: a fused multiply-add rounds once where the others round twice,
// and every path must give the reference's bytes.
#include <immintrin.h>
#define AVX2 __attribute__((target("avx2")))

AVX2 static inline __m256 load_eight(const uint16_t *samples) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)samples)));
}

AVX2 static inline __m256 eight_where(__m256 mask, __m256 chosen, __m256 otherwise) {
    return _mm256_or_ps(_mm256_and_ps(mask, chosen), _mm256_andnot_ps(mask, otherwise));
}

AVX2 static inline __m256i table_index(__m256 value, __m256 top) {
    const __m256 zero = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f);
    return _mm256_cvttps_epi32(_mm256_add_ps(_mm256_min_ps(_mm256_max_ps(value, zero), top), half));
}

AVX2 static void map_eight(const mt_tone_map *map, __m256 red, __m256 green, __m256 blue, uint8_t *out) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1), half = _mm256_set1_ps(0.5f);
    const __m256 top = _mm256_set1_ps(65535);
    __m256 r = _mm256_i32gather_ps(map->linear, table_index(red, top), 4);
    __m256 g = _mm256_i32gather_ps(map->linear, table_index(green, top), 4);
    __m256 b = _mm256_i32gather_ps(map->linear, table_index(blue, top), 4);
    if (map->hlg_gain != 0) {
        __m256 scene = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0.2627f), r), _mm256_mul_ps(_mm256_set1_ps(0.6780f), g)),
                                     _mm256_mul_ps(_mm256_set1_ps(0.0593f), b));
        scene = _mm256_min_ps(scene, one);
        __m256 gain = _mm256_i32gather_ps(map->hlg_gain, _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(scene, top), half)), 4);
        r = _mm256_mul_ps(r, gain); g = _mm256_mul_ps(g, gain); b = _mm256_mul_ps(b, gain);
    }
    __m256 r709 = _mm256_sub_ps(_mm256_sub_ps(_mm256_mul_ps(_mm256_set1_ps(1.6605f), r), _mm256_mul_ps(_mm256_set1_ps(0.5876f), g)),
                                _mm256_mul_ps(_mm256_set1_ps(0.0728f), b));
    __m256 g709 = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(-0.1246f), r), _mm256_mul_ps(_mm256_set1_ps(1.1329f), g)),
                                _mm256_mul_ps(_mm256_set1_ps(0.0083f), b));
    __m256 b709 = _mm256_add_ps(_mm256_sub_ps(_mm256_mul_ps(_mm256_set1_ps(-0.0182f), r), _mm256_mul_ps(_mm256_set1_ps(0.1006f), g)),
                                _mm256_mul_ps(_mm256_set1_ps(1.1187f), b));
    __m256 high = _mm256_max_ps(_mm256_max_ps(r709, g709), b709);
    const __m256 knee = _mm256_set1_ps(map->knee);
    __m256 above = _mm256_cmp_ps(high, knee, _CMP_GT_OQ);
    if (_mm256_movemask_ps(above)) {
        const __m256 span = _mm256_set1_ps(1 - map->knee), w2s = _mm256_set1_ps(white_squared_span(map));
        __m256 d = _mm256_sub_ps(high, knee);
        __m256 num = _mm256_mul_ps(d, _mm256_add_ps(w2s, d)), den = _mm256_mul_ps(w2s, _mm256_add_ps(span, d));
        __m256 scale = _mm256_div_ps(_mm256_add_ps(_mm256_mul_ps(knee, den), _mm256_mul_ps(span, _mm256_min_ps(num, den))),
                                     _mm256_mul_ps(den, high));
        scale = eight_where(above, scale, one);
        r709 = _mm256_mul_ps(r709, scale); g709 = _mm256_mul_ps(g709, scale); b709 = _mm256_mul_ps(b709, scale);
    }
    __m256 low = _mm256_min_ps(_mm256_min_ps(r709, g709), b709);
    const __m256 margin = _mm256_set1_ps(0.02f);
    __m256 outside = _mm256_cmp_ps(low, _mm256_sub_ps(zero, margin), _CMP_LT_OQ);
    if (_mm256_movemask_ps(outside)) {
        __m256 y = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0.2126f), r709), _mm256_mul_ps(_mm256_set1_ps(0.7152f), g709)),
                                 _mm256_mul_ps(_mm256_set1_ps(0.0722f), b709));
        y = _mm256_min_ps(_mm256_max_ps(y, zero), one);
        __m256 keep = eight_where(outside, _mm256_div_ps(_mm256_add_ps(y, margin), _mm256_sub_ps(y, low)), one);
        r709 = _mm256_add_ps(y, _mm256_mul_ps(_mm256_sub_ps(r709, y), keep));
        g709 = _mm256_add_ps(y, _mm256_mul_ps(_mm256_sub_ps(g709, y), keep));
        b709 = _mm256_add_ps(y, _mm256_mul_ps(_mm256_sub_ps(b709, y), keep));
    }
    const __m256 steps = _mm256_set1_ps(16383);
    int codes[3][8];
    _mm256_storeu_si256((__m256i *)codes[0], _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(_mm256_min_ps(_mm256_max_ps(r709, zero), one), steps), half)));
    _mm256_storeu_si256((__m256i *)codes[1], _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(_mm256_min_ps(_mm256_max_ps(g709, zero), one), steps), half)));
    _mm256_storeu_si256((__m256i *)codes[2], _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(_mm256_min_ps(_mm256_max_ps(b709, zero), one), steps), half)));
    for (int lane = 0; lane < 8; lane++) {
        out[3 * lane] = map->encode[codes[0][lane]];
        out[3 * lane + 1] = map->encode[codes[1][lane]];
        out[3 * lane + 2] = map->encode[codes[2][lane]];
    }
}

/// The pixels of `mt_tone_map_ycbcr` eight at a time; returns how many it mapped (a multiple of 8).
AVX2 static int ycbcr_eight_at_a_time(const mt_tone_map *map, const uint16_t *y, const uint16_t *cb, const uint16_t *cr,
                                      int count, uint8_t *rgb) {
    const __m256 offset = _mm256_set1_ps(map->luma_offset), scale = _mm256_set1_ps(map->luma_scale);
    const __m256 middle = _mm256_set1_ps(32768);
    int pixel = 0;
    for (; pixel + 8 <= count; pixel += 8) {
        __m256 luma = _mm256_mul_ps(_mm256_sub_ps(load_eight(y + pixel), offset), scale);
        __m256 u = _mm256_sub_ps(load_eight(cb + pixel), middle), v = _mm256_sub_ps(load_eight(cr + pixel), middle);
        __m256 red = _mm256_add_ps(luma, _mm256_mul_ps(_mm256_set1_ps(map->cr_to_red), v));
        __m256 green = _mm256_sub_ps(_mm256_sub_ps(luma, _mm256_mul_ps(_mm256_set1_ps(map->cb_to_green), u)),
                                     _mm256_mul_ps(_mm256_set1_ps(map->cr_to_green), v));
        __m256 blue = _mm256_add_ps(luma, _mm256_mul_ps(_mm256_set1_ps(map->cb_to_blue), u));
        map_eight(map, red, green, blue, rgb + 3 * pixel);
    }
    return pixel;
}
#define HAS_AVX2_PATH 1
#endif

void mt_tone_map_ycbcr(const mt_tone_map *map, const uint16_t *y, const uint16_t *cb, const uint16_t *cr,
                       int count, uint8_t *rgb) {
    mt_tone_map_ycbcr_lanes(map, y, cb, cr, count, rgb, 8);
}

void mt_tone_map_ycbcr_lanes(const mt_tone_map *map, const uint16_t *y, const uint16_t *cb, const uint16_t *cr,
                             int count, uint8_t *rgb, int most_lanes) {
    int pixel = 0;
#if defined(HAS_AVX2_PATH)
    if (most_lanes >= 8 && __builtin_cpu_supports("avx2")) pixel = ycbcr_eight_at_a_time(map, y, cb, cr, count, rgb);
#endif
#if defined(__SSE2__) && (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    const __m128 offset = _mm_set1_ps(map->luma_offset), scale = _mm_set1_ps(map->luma_scale);
    const __m128 middle = _mm_set1_ps(32768);
    for (; most_lanes >= 4 && pixel + 4 <= count; pixel += 4) {
        __m128 luma = _mm_mul_ps(_mm_sub_ps(load_four(y + pixel), offset), scale);
        __m128 u = _mm_sub_ps(load_four(cb + pixel), middle), v = _mm_sub_ps(load_four(cr + pixel), middle);
        __m128 red = _mm_add_ps(luma, _mm_mul_ps(_mm_set1_ps(map->cr_to_red), v));
        __m128 green = _mm_sub_ps(_mm_sub_ps(luma, _mm_mul_ps(_mm_set1_ps(map->cb_to_green), u)),
                                  _mm_mul_ps(_mm_set1_ps(map->cr_to_green), v));
        __m128 blue = _mm_add_ps(luma, _mm_mul_ps(_mm_set1_ps(map->cb_to_blue), u));
        map_four(map, red, green, blue, rgb + 3 * pixel);
    }
#endif
    for (; pixel < count; pixel++) {
        uint16_t luma_code = y[pixel], cb_code = cb[pixel], cr_code = cr[pixel];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        luma_code = __builtin_bswap16(luma_code); cb_code = __builtin_bswap16(cb_code); cr_code = __builtin_bswap16(cr_code);
#endif
        float luma = ((float)luma_code - map->luma_offset) * map->luma_scale;
        float u = (float)cb_code - 32768, v = (float)cr_code - 32768;
        map_pixel(map, luma + map->cr_to_red * v, luma - map->cb_to_green * u - map->cr_to_green * v,
                  luma + map->cb_to_blue * u, rgb + 3 * pixel);
    }
}

void mt_tone_map_rgb(const mt_tone_map *map, const uint16_t *samples, int count, uint8_t *rgb) {
    for (int pixel = 0; pixel < count; pixel++) {
        uint16_t codes[3] = {samples[3 * pixel], samples[3 * pixel + 1], samples[3 * pixel + 2]};
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        for (int i = 0; i < 3; i++) codes[i] = __builtin_bswap16(codes[i]);
#endif
        map_pixel(map, codes[0], codes[1], codes[2], rgb + 3 * pixel);
    }
}
