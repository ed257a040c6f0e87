#include "CToneMap.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline float clamp_code(float value) { return value > 0 ? (value < 65535 ? value : 65535) : 0; }
static inline float clamp_unit(float value) { return value > 0 ? (value < 1 ? value : 1) : 0; }

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
        float x = (high - knee) / (1 - knee), white = (map->peak - knee) / (1 - knee);
        float y = x * (1 + x / (white * white)) / (1 + x);
        y = y < 1 ? y : 1;
        float scale = (knee + (1 - knee) * y) / high;
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
        const float k = map->knee;
        const __m128 span = _mm_set1_ps(1 - k);
        const float white = (map->peak - k) / (1 - k);
        __m128 x = _mm_div_ps(_mm_sub_ps(high, knee), span);
        __m128 y = _mm_div_ps(_mm_mul_ps(x, _mm_add_ps(one, _mm_div_ps(x, _mm_set1_ps(white * white)))), _mm_add_ps(one, x));
        y = _mm_min_ps(y, one);
        __m128 scale = _mm_div_ps(_mm_add_ps(knee, _mm_mul_ps(span, y)), high);
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

void mt_tone_map_ycbcr(const mt_tone_map *map, const uint16_t *y, const uint16_t *cb, const uint16_t *cr,
                       int count, uint8_t *rgb) {
    int pixel = 0;
#if defined(__SSE2__) && (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    const __m128 offset = _mm_set1_ps(map->luma_offset), scale = _mm_set1_ps(map->luma_scale);
    const __m128 middle = _mm_set1_ps(32768);
    for (; pixel + 4 <= count; pixel += 4) {
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
