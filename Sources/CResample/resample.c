#include "CResample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/// The taps of one target sample: the first source sample and the weights from it.
typedef struct {
    int first;
    int count;
    int offset;  // into the weights array
} window;

struct mt_resampler {
    int source_width, source_height, target_width, target_height;
    int channels, bytes_per_sample, alpha;
    float maximum;
    window *columns, *rows;
    float *column_weights, *row_weights;
    // Horizontally reduced source rows, a ring of `ring` rows of target_width * channels floats.
    float *ring;
    int ring_rows;
    // One source row as floats, premultiplied.
    float *source_row;
    // One target row as floats.
    float *accumulator;
    int rows_taken;
    int rows_done;
    // A reduction of 4 or more first averages boxes of `box` x `box` pixels (as libvips shrinks
    // before it reduces), leaving a factor of 2 or more to the Lanczos stage: the kernel's taps
    // then stay few however large the picture.
    int box;
    int box_width, box_height;
    float *box_sums;
    int *box_counts;
    int box_rows;
    int source_rows_seen;
};

static void take_samples(mt_resampler *r, float *samples, int premultiplied);

static double sinc(double x) {
    if (x == 0) return 1;
    x *= M_PI;
    return sin(x) / x;
}

static double lanczos3(double x) {
    if (x <= -3 || x >= 3) return 0;
    return sinc(x) * sinc(x / 3);
}

/// Pillow's and libvips's windows: the kernel widened by the reduction factor (so that a reduction
/// averages everything it drops), centred on each target sample's centre, clipped to the picture and
/// normalised there.
/// `extent`: the source's length in its own samples, which a box stage's partial last box makes
/// fractional: the centres follow the picture, not the count of boxes.
static int make_windows(int source, double extent, int target, window **windows, float **weights, int *widest) {
    double scale = extent / target;
    double filter_scale = scale > 1 ? scale : 1;
    double support = 3 * filter_scale;
    int most = (int)ceil(support) * 2 + 1;
    *windows = malloc(sizeof(window) * (size_t)target);
    *weights = malloc(sizeof(float) * (size_t)target * (size_t)most);
    if (*windows == NULL || *weights == NULL) return -1;
    *widest = 0;
    for (int i = 0; i < target; i++) {
        double centre = (i + 0.5) * scale;
        int first = (int)(centre - support + 0.5);
        int last = (int)(centre + support + 0.5);
        if (first < 0) first = 0;
        if (last > source) last = source;
        if (last - first > most) last = first + most;
        if (last <= first) { first = (int)centre < source ? (int)centre : source - 1; last = first + 1; }
        float *w = *weights + (size_t)i * most;
        double total = 0;
        for (int x = first; x < last; x++) {
            double value = lanczos3((x - centre + 0.5) / filter_scale);
            w[x - first] = (float)value;
            total += value;
        }
        if (total == 0) { w[0] = 1; total = 1; for (int x = first + 1; x < last; x++) w[x - first] = 0; }
        for (int x = first; x < last; x++) w[x - first] = (float)(w[x - first] / total);
        (*windows)[i] = (window){ first, last - first, i * most };
        if (last - first > *widest) *widest = last - first;
    }
    return 0;
}

size_t mt_resampler_working_bytes(int source_width, int source_height, int target_width, int target_height, int channels) {
    double scale_x = (double)source_width / target_width, scale_y = (double)source_height / target_height;
    size_t taps_x = (size_t)ceil(3 * (scale_x > 1 ? scale_x : 1)) * 2 + 1;
    size_t taps_y = (size_t)ceil(3 * (scale_y > 1 ? scale_y : 1)) * 2 + 1;
    return sizeof(float) * (taps_x * target_width + taps_y * target_height + taps_y * target_width * channels
                            + (size_t)(source_width + target_width) * channels);
}

void mt_resampler_free(mt_resampler *r) {
    if (r == NULL) return;
    free(r->columns);
    free(r->rows);
    free(r->column_weights);
    free(r->row_weights);
    free(r->ring);
    free(r->source_row);
    free(r->accumulator);
    free(r->box_sums);
    free(r->box_counts);
    free(r);
}

mt_resampler *mt_resampler_new(int source_width, int source_height, int target_width, int target_height,
                               int channels, int bytes_per_sample, int alpha_channel) {
    if (source_width <= 0 || source_height <= 0 || target_width <= 0 || target_height <= 0 || channels < 1 || channels > 4 ||
        (bytes_per_sample != 1 && bytes_per_sample != 2)) return NULL;
    mt_resampler *r = calloc(1, sizeof *r);
    if (r == NULL) return NULL;
    r->source_width = source_width; r->source_height = source_height;
    r->target_width = target_width; r->target_height = target_height;
    r->channels = channels; r->bytes_per_sample = bytes_per_sample;
    r->alpha = alpha_channel;
    r->maximum = bytes_per_sample == 1 ? 255.0f : 65535.0f;
    double least_scale = fmin((double)source_width / target_width, (double)source_height / target_height);
    r->box = least_scale >= 4 ? (int)(least_scale / 2) : 1;
    r->box_width = (source_width + r->box - 1) / r->box;
    r->box_height = (source_height + r->box - 1) / r->box;
    int widest_column, widest_row;
    if (make_windows(r->box_width, (double)source_width / r->box, target_width, &r->columns, &r->column_weights, &widest_column) != 0 ||
        make_windows(r->box_height, (double)source_height / r->box, target_height, &r->rows, &r->row_weights, &widest_row) != 0) {
        mt_resampler_free(r);
        return NULL;
    }
    r->ring_rows = widest_row;
    r->ring = malloc(sizeof(float) * (size_t)widest_row * target_width * channels);
    r->source_row = malloc(sizeof(float) * (size_t)source_width * channels);
    r->accumulator = malloc(sizeof(float) * (size_t)target_width * channels);
    if (r->box > 1) {
        r->box_sums = calloc((size_t)r->box_width * channels, sizeof(float));
        r->box_counts = calloc((size_t)r->box_width, sizeof(int));
    }
    if (r->ring == NULL || r->source_row == NULL || r->accumulator == NULL ||
        (r->box > 1 && (r->box_sums == NULL || r->box_counts == NULL))) {
        mt_resampler_free(r);
        return NULL;
    }
    return r;
}

/// One source row to floats (premultiplied by alpha), then reduced across into its ring slot.
static void take_row(mt_resampler *r, const uint8_t *row) {
    int channels = r->channels, width = r->source_width;
    float *samples = r->source_row;
    size_t count = (size_t)width * channels;
    if (r->bytes_per_sample == 1) {
        for (size_t i = 0; i < count; i++) samples[i] = row[i];
    } else {
        for (size_t i = 0; i < count; i++) samples[i] = (float)(row[2 * i] << 8 | row[2 * i + 1]);
    }
    take_samples(r, samples, 0);
}

/// A row already as floats (`samples`, which may be changed): premultiplied (unless it is), then
/// reduced across.
static void take_samples(mt_resampler *r, float *samples, int premultiplied) {
    int channels = r->channels, width = r->box_width;
    if (r->alpha >= 0 && !premultiplied) {
        float scale = 1.0f / r->maximum;
        for (int x = 0; x < width; x++) {
            float *pixel = samples + (size_t)x * channels;
            float alpha = pixel[r->alpha] * scale;
            for (int c = 0; c < channels; c++) if (c != r->alpha) pixel[c] *= alpha;
        }
    }
    float *out = r->ring + (size_t)(r->rows_taken % r->ring_rows) * r->target_width * channels;
    // The channel counts written out, so that the sums stay in registers.
    switch (channels) {
    case 3:
        for (int i = 0; i < r->target_width; i++) {
            window w = r->columns[i];
            const float *weights = r->column_weights + w.offset, *in = samples + (size_t)w.first * 3;
            float s0 = 0, s1 = 0, s2 = 0;
            for (int k = 0; k < w.count; k++) {
                float weight = weights[k];
                s0 += in[3 * k] * weight; s1 += in[3 * k + 1] * weight; s2 += in[3 * k + 2] * weight;
            }
            out[3 * i] = s0; out[3 * i + 1] = s1; out[3 * i + 2] = s2;
        }
        break;
    case 4:
        for (int i = 0; i < r->target_width; i++) {
            window w = r->columns[i];
            const float *weights = r->column_weights + w.offset, *in = samples + (size_t)w.first * 4;
            float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (int k = 0; k < w.count; k++) {
                float weight = weights[k];
                s0 += in[4 * k] * weight; s1 += in[4 * k + 1] * weight; s2 += in[4 * k + 2] * weight; s3 += in[4 * k + 3] * weight;
            }
            out[4 * i] = s0; out[4 * i + 1] = s1; out[4 * i + 2] = s2; out[4 * i + 3] = s3;
        }
        break;
    default:
        for (int i = 0; i < r->target_width; i++) {
            window w = r->columns[i];
            const float *weights = r->column_weights + w.offset, *in = samples + (size_t)w.first * channels;
            float sum[4] = {0, 0, 0, 0};
            for (int k = 0; k < w.count; k++) {
                float weight = weights[k];
                for (int c = 0; c < channels; c++) sum[c] += in[k * channels + c] * weight;
            }
            for (int c = 0; c < channels; c++) out[(size_t)i * channels + c] = sum[c];
        }
    }
    r->rows_taken++;
}

/// One sample of a source row, as a float.
static inline float sample_at(const mt_resampler *r, const uint8_t *row, size_t index) {
    return r->bytes_per_sample == 1 ? (float)row[index] : (float)(row[2 * index] << 8 | row[2 * index + 1]);
}

/// A source row into the box stage: its pixels summed `box` at a time into the row of sums, colour
/// weighted by alpha (premultiplied: a transparent pixel lends no colour to the box); every `box`
/// rows (or at the last row) the averages go on to the Lanczos stage.
static void take_boxed_row(mt_resampler *r, const uint8_t *row) {
    int channels = r->channels, box = r->box;
    float *sums = r->box_sums;
    float unit = 1.0f / r->maximum;
    for (int x = 0; x < r->box_width; x++) {
        int first = x * box, last = first + box < r->source_width ? first + box : r->source_width;
        float *sum = sums + (size_t)x * channels;
        for (int i = first; i < last; i++) {
            size_t pixel = (size_t)i * channels;
            float weight = r->alpha >= 0 ? sample_at(r, row, pixel + r->alpha) * unit : 1;
            for (int c = 0; c < channels; c++) {
                float value = sample_at(r, row, pixel + c);
                sum[c] += c == r->alpha ? value : value * weight;
            }
        }
        r->box_counts[x] = last - first;
    }
    r->box_rows++;
    r->source_rows_seen++;
    if (r->box_rows == box || r->source_rows_seen == r->source_height) {
        float *averages = r->source_row;
        for (int x = 0; x < r->box_width; x++) {
            float scale = 1.0f / (float)(r->box_counts[x] * r->box_rows);
            for (int c = 0; c < channels; c++) averages[(size_t)x * channels + c] = sums[(size_t)x * channels + c] * scale;
        }
        memset(sums, 0, sizeof(float) * (size_t)r->box_width * channels);
        r->box_rows = 0;
        take_samples(r, averages, 1);
    }
}

/// A target row from the ring, unpremultiplied, rounded and clamped into `target`.
static void make_row(mt_resampler *r, int y, uint8_t *target) {
    int channels = r->channels;
    size_t samples = (size_t)r->target_width * channels;
    window w = r->rows[y];
    const float *weights = r->row_weights + w.offset;
    float *accumulator = r->accumulator;
    memset(accumulator, 0, sizeof(float) * samples);
    for (int k = 0; k < w.count; k++) {
        const float *in = r->ring + (size_t)((w.first + k) % r->ring_rows) * samples;
        float weight = weights[k];
        for (size_t i = 0; i < samples; i++) accumulator[i] += in[i] * weight;
    }
    float maximum = r->maximum;
    if (r->alpha >= 0) {
        for (int x = 0; x < r->target_width; x++) {
            float *pixel = accumulator + (size_t)x * channels;
            float alpha = pixel[r->alpha];
            alpha = alpha < 0 ? 0 : alpha > maximum ? maximum : alpha;
            float undo = alpha > 0 ? maximum / alpha : 0;
            for (int c = 0; c < channels; c++) if (c != r->alpha) pixel[c] *= undo;
        }
    }
    if (r->bytes_per_sample == 1) {
        uint8_t *out = target + (size_t)y * samples;
        for (size_t i = 0; i < samples; i++) {
            float value = accumulator[i] + 0.5f;
            out[i] = value <= 0 ? 0 : value >= 255 ? 255 : (uint8_t)value;
        }
    } else {
        uint8_t *out = target + (size_t)y * samples * 2;
        for (size_t i = 0; i < samples; i++) {
            float value = accumulator[i] + 0.5f;
            uint16_t code = value <= 0 ? 0 : value >= 65535 ? 65535 : (uint16_t)value;
            out[2 * i] = (uint8_t)(code >> 8);
            out[2 * i + 1] = (uint8_t)code;
        }
    }
}

int mt_resampler_push(mt_resampler *r, const uint8_t *rows, size_t stride, int count, uint8_t *target) {
    for (int i = 0; i < count && r->source_rows_seen < r->source_height; i++) {
        if (r->box > 1) {
            take_boxed_row(r, rows + (size_t)i * stride);
        } else {
            take_row(r, rows + (size_t)i * stride);
            r->source_rows_seen++;
        }
        // Every target row whose window ends at the row just taken.
        while (r->rows_done < r->target_height) {
            window w = r->rows[r->rows_done];
            if (w.first + w.count > r->rows_taken) break;
            make_row(r, r->rows_done, target);
            r->rows_done++;
        }
    }
    return r->rows_done;
}
