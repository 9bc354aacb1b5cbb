/* The native exact kernel of symcot: batched replay of one integer-scaled decoder in checked int64.

   This file is the part that is the same for every decoder. symcot.replay.native.source generates the rest
   and compiles   <constants> + this file + <generated functions>   as one translation unit:

   constants (#define):
     D            the model dimension (coordinates of a token)
     CACHE_W      int64 columns cached per position (keys and values that are read, running maxima)
     RB_BYTES     bytes of prompts symcot_run copies out of its (P, D, B) input at a time
     ARGMAX_LAST  0; 1 only in a deliberately wrong kernel for tests (a head keeps the last maximal index)

   generated functions (declared below):
     push         one token through every layer at one position (keys and values cached)
     feedback     one coordinate of y_t as the next token's coordinate, exactly

   See the docstring of symcot.replay.native for the semantics and the exactness argument. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if ARGMAX_LAST
#define BETTER(s, best) ((s) >= (best))  /* WRONG ON PURPOSE: the head keeps the last maximal index */
#else
#define BETTER(s, best) ((s) > (best))  /* the head keeps the first maximal index */
#endif

static inline uint64_t uabs(int64_t x) { return x < 0 ? -(uint64_t)x : (uint64_t)x; }

/* Unique hard attention over the cached positions 0..pos: the smallest index i maximising
   fixed + sum_r K_i[qc[r]] * qv[r] (K_i = cache + i * CACHE_W). kmax bounds |K_i[c]| for every such i and c:
   when kmax * sum_r |qv[r]| + |fixed| fits int64, no partial sum can overflow and the scores are computed
   unchecked; otherwise every product and sum is checked (overflow sets *ovf). */
static inline int64_t select_head(const int64_t *cache, int64_t pos, int64_t fixed, const int64_t *qv,
                                  const int64_t *qc, int nq, uint64_t kmax, int *ovf) {
    uint64_t qs = uabs(fixed), bnd = 0;
    int big = 0;
    for (int r = 0; r < nq; r++) big |= __builtin_add_overflow(bnd, uabs(qv[r]), &bnd);
    big |= __builtin_mul_overflow(kmax, bnd, &bnd);
    big |= __builtin_add_overflow(bnd, qs, &bnd);
    big |= bnd > (uint64_t)INT64_MAX;
    int64_t best = 0, j = 0;
    const int64_t *kr = cache;
    if (nq == 0) return ARGMAX_LAST ? pos : 0;  /* every score is `fixed` */
    if (!big && nq == 1) {
        const int64_t c = qc[0], q = qv[0];
        for (int64_t i = 0; i <= pos; i++, kr += CACHE_W) {
            int64_t s = fixed + kr[c] * q;
            if (i == 0 || BETTER(s, best)) { best = s; j = i; }
        }
    } else if (!big) {
        for (int64_t i = 0; i <= pos; i++, kr += CACHE_W) {
            int64_t s = fixed;
            for (int r = 0; r < nq; r++) s += kr[qc[r]] * qv[r];
            if (i == 0 || BETTER(s, best)) { best = s; j = i; }
        }
    } else {
        int o = 0;
        for (int64_t i = 0; i <= pos; i++, kr += CACHE_W) {
            int64_t s = fixed, t;
            for (int r = 0; r < nq; r++) {
                o |= __builtin_mul_overflow(kr[qc[r]], qv[r], &t);
                o |= __builtin_add_overflow(s, t, &s);
            }
            if (i == 0 || BETTER(s, best)) { best = s; j = i; }
        }
        *ovf |= o;
    }
    return j;
}

/* One token z (D coordinates) through every layer at position pos: its keys and values go to the cache row of
   pos (cache + pos * CACHE_W), the output to y (D coordinates). Returns 1 when an int64 operation overflowed
   (the values are then meaningless), else 0. Generated per decoder. */
static inline int push(const int64_t *restrict z, int64_t *restrict y, int64_t pos, int64_t *restrict cache);

/* *v (a coordinate of y_t at the output scale) becomes the next token's coordinate at the token scale,
   v * fb_num / fb_den. Returns 0; 2 when fb_den does not divide it (not representable at the token scale);
   1 when the product overflows int64. Generated per decoder. */
static inline int feedback(int64_t *v);

/* One row: its prompt positions start..P-1 (tokens tok[p]; positions < start are cached already), then its
   chain of thought of sb >= 1 steps into ob (sb rows of D). *valid counts the prompt positions now cached. */
static int run_row(const int64_t *const *tokp, int64_t P, int64_t start, int64_t sb, int64_t *ob, int64_t *cache,
                   int64_t *valid) {
    int64_t scratch[D > 0 ? D : 1], tok[D > 0 ? D : 1];
    int st = 0;
    *valid = start;
    for (int64_t p = start; p < P; p++) {
        if (push(tokp[p], p == P - 1 ? ob : scratch, p, cache)) { memset(ob, 0, sizeof(int64_t) * D); return 1; }
        *valid = p + 1;
    }
    for (int64_t t = 1; t < sb; t++) {
        const int64_t *yt = ob + (t - 1) * D;
        for (int64_t c = 0; c < D; c++) {
            int64_t v = yt[c];
            if ((st = feedback(&v)) != 0) break;
            tok[c] = v;
        }
        if (st) return st;
        if (push(tok, ob + t * D, P + t - 1, cache)) { memset(ob + t * D, 0, sizeof(int64_t) * D); return 1; }
    }
    return 0;
}

/* toks is (P, D, B). Rows are taken in blocks of RB: the block's prompts are first copied into buf, each row's
   P tokens contiguous (reading toks line by line rather than one page per coordinate). A row whose first
   tokens equal those of the last row run reuses their cached positions. */
int symcot_run(const int64_t *toks, int64_t P, int64_t B, const int64_t *steps, int64_t T, int64_t *outs,
               int8_t *status) {
    const int64_t N = P + (T > 0 ? T - 1 : 0), PD = P * D;
    int64_t RB = PD > 0 ? (int64_t)(RB_BYTES / (8 * PD)) : 256;
    RB = RB < 8 ? 8 : RB > 256 ? 256 : RB;
    int64_t *cache = (int64_t *)malloc((size_t)(N * CACHE_W > 0 ? N * CACHE_W : 1) * sizeof(int64_t));
    int64_t *buf = (int64_t *)malloc((size_t)(RB * PD + PD + 1) * sizeof(int64_t));
    const int64_t **tokp = (const int64_t **)malloc((size_t)P * sizeof(int64_t *));
    if (!cache || !buf || !tokp) { free(cache); free(buf); free(tokp); return -1; }
    int64_t *lastbuf = buf + RB * PD;  /* the prompt of the last row run, kept across blocks */
    const int64_t *last = NULL;  /* that row's tokens; cache positions < valid hold its prompt positions */
    int64_t valid = 0;
    for (int64_t b0 = 0; b0 < B; b0 += RB) {
        const int64_t nb = B - b0 < RB ? B - b0 : RB;
        for (int64_t p = 0; p < P; p++)
            for (int64_t c = 0; c < D; c++) {
                const int64_t *src = toks + (p * D + c) * B + b0;
                int64_t *dst = buf + p * D + c;
                for (int64_t r = 0; r < nb; r++) dst[r * PD] = src[r];
            }
        for (int64_t r = 0; r < nb; r++) {
            const int64_t b = b0 + r;
            const int64_t *tb = buf + r * PD;
            status[b] = 0;
            if (steps[b] <= 0) continue;
            int64_t start = 0;
            if (last != NULL) {
                const int64_t lim = valid < P - 1 ? valid : P - 1;
                while (start < lim && memcmp(tb + start * D, last + start * D, sizeof(int64_t) * D) == 0) start++;
            }
            for (int64_t p = 0; p < P; p++) tokp[p] = tb + p * D;
            last = tb;
            status[b] = (int8_t)run_row(tokp, P, start, steps[b], outs + b * T * D, cache, &valid);
        }
        if (last != NULL && last != lastbuf) {
            memcpy(lastbuf, last, sizeof(int64_t) * PD);
            last = lastbuf;
        }
    }
    free(cache);
    free(buf);
    free(tokp);
    return 0;
}

/* How many leading prompt positions of row ib are those of the previous row (last), of which the cache
 * still holds `valid`; the last position is always recomputed. */
static inline int64_t shared_prefix(const int64_t *last, const int64_t *ib, int64_t valid, int64_t P) {
    int64_t start = 0;
    if (last == NULL) return 0;
    const int64_t lim = valid < P - 1 ? valid : P - 1;
    while (start < lim && ib[start] == last[start]) start++;
    return start;
}

/* The same with the prompts given as distinct tokens table (U, D) and indices index (B, P) into it. A row
   whose first indices equal those of the last row run reuses their cached positions. */
int symcot_run_indexed(const int64_t *table, const int64_t *index, int64_t P, int64_t B, const int64_t *steps,
                       int64_t T, int64_t *outs, int8_t *status) {
    const int64_t N = P + (T > 0 ? T - 1 : 0);
    int64_t *cache = (int64_t *)malloc((size_t)(N * CACHE_W > 0 ? N * CACHE_W : 1) * sizeof(int64_t));
    const int64_t **tokp = (const int64_t **)malloc((size_t)P * sizeof(int64_t *));
    if (!cache || !tokp) { free(cache); free(tokp); return -1; }
    const int64_t *last = NULL;
    int64_t valid = 0;
    for (int64_t b = 0; b < B; b++) {
        const int64_t *ib = index + b * P;
        status[b] = 0;
        if (steps[b] <= 0) continue;
        const int64_t start = shared_prefix(last, ib, valid, P);
        for (int64_t p = 0; p < P; p++) tokp[p] = table + ib[p] * D;
        last = ib;
        status[b] = (int8_t)run_row(tokp, P, start, steps[b], outs + b * T * D, cache, &valid);
    }
    free(cache);
    free(tokp);
    return 0;
}

/* -- checking rows against expected values (symcot.replay.native.check) ------------------------------------

   A term is one block of the expected values of every row at every step: the coordinates col..col+size-1 of
   y_t must equal, scaled by the token's scale, e_idx (form 0: data (B, S) int64, an index; 0^size for an index
   outside 0..size-1), the int64 values data (B, S, size) (form 1), the int8 values data (B, S, size) (form 2),
   or value in every coordinate (form 3); present (B, S), when given, says at which steps the block is
   compared. */
typedef struct {
    int64_t col, size, form;
    const void *data;
    const int8_t *present;
    int64_t value;
} symcot_term;

/* 0: every term of row b at step t holds on y (at scale s); 1: one does not; 2: an expected value times s
   does not fit int64. At scale 1 (every kernel of integer weights) a block is compared without multiplying,
   in a loop without branches. */
static int compare_terms(const symcot_term *terms, int64_t nterms, int64_t b, int64_t t, int64_t S,
                         const int64_t *y, int64_t s) {
    const int64_t at = b * S + t;
    for (int64_t k = 0; k < nterms; k++) {
        const symcot_term *tm = terms + k;
        if (tm->present != NULL && !tm->present[at]) continue;
        const int64_t *yy = y + tm->col;
        const int64_t n = tm->size;
        int64_t w;
        uint64_t diff = 0;
        switch (tm->form) {
        case 0: {
            const int64_t idx = ((const int64_t *)tm->data)[at];
            for (int64_t j = 0; j < n; j++) diff |= (uint64_t)(yy[j] != (j == idx ? s : 0));
            break;
        }
        case 1: {
            const int64_t *v = (const int64_t *)tm->data + at * n;
            if (s == 1) {
                for (int64_t j = 0; j < n; j++) diff |= (uint64_t)(yy[j] != v[j]);
                break;
            }
            for (int64_t j = 0; j < n; j++) {
                if (__builtin_mul_overflow(v[j], s, &w)) return 2;
                diff |= (uint64_t)(yy[j] != w);
            }
            break;
        }
        case 2: {
            const int8_t *v = (const int8_t *)tm->data + at * n;
            if (s == 1) {
                for (int64_t j = 0; j < n; j++) diff |= (uint64_t)(yy[j] != (int64_t)v[j]);
                break;
            }
            for (int64_t j = 0; j < n; j++) {
                if (__builtin_mul_overflow((int64_t)v[j], s, &w)) return 2;
                diff |= (uint64_t)(yy[j] != w);
            }
            break;
        }
        default:
            if (__builtin_mul_overflow(tm->value, s, &w)) return 2;
            for (int64_t j = 0; j < n; j++) diff |= (uint64_t)(yy[j] != w);
        }
        if (diff) return 1;
    }
    return 0;
}

/* The stop rule "every coordinate of y[col..col+size-1] is value" on y at scale s. */
static int stop_fires(const int64_t *y, int64_t col, int64_t size, int64_t value, int64_t s) {
    int64_t w;
    if (__builtin_mul_overflow(value, s, &w)) return 0;  /* no int64 coordinate equals it */
    for (int64_t j = 0; j < size; j++)
        if (y[col + j] != w) return 0;
    return 1;
}

typedef struct {
    const symcot_term *terms;
    int64_t nterms, S, s_tok, s_out, stop_col, stop_size, stop_value, ntrace;
    const int64_t *trace_cols;
} check_spec;

/* One row of symcot_check_indexed: y_0 (the prompt's last token, at s_tok) against step 0, then its chain of
   thought of sb steps, each y_t (at s_out) against step t and the stop rule (when stop_size > 0: it must not
   fire before sb and must fire at sb). *bad: the first step that differs, -1 when none. Returns the status
   (0; 1 an int64 operation would overflow; 2 an inexact feedback; 3 an expected value beyond int64). */
static int check_row(const check_spec *cs, const int64_t *const *tokp, int64_t P, int64_t start, int64_t sb,
                     int64_t b, int64_t *trace, int64_t *final, int64_t *bad, int64_t *cache, int64_t *valid) {
    int64_t y[D > 0 ? D : 1], tok[D > 0 ? D : 1], scratch[D > 0 ? D : 1];
    *valid = start;
    *bad = -1;
    int c = compare_terms(cs->terms, cs->nterms, b, 0, cs->S, tokp[P - 1], cs->s_tok);
    if (c == 2) return 3;
    if (c == 1) { *bad = 0; return 0; }
    if (sb <= 0) return 0;
    for (int64_t p = start; p < P; p++) {
        if (push(tokp[p], p == P - 1 ? y : scratch, p, cache)) return 1;
        *valid = p + 1;
    }
    for (int64_t t = 1; t <= sb; t++) {
        if (t > 1) {
            for (int64_t k = 0; k < D; k++) {
                int64_t v = y[k];
                int st = feedback(&v);
                if (st) return st;
                tok[k] = v;
            }
            if (push(tok, y, P + t - 2, cache)) return 1;
        }
        c = compare_terms(cs->terms, cs->nterms, b, t, cs->S, y, cs->s_out);
        if (c == 2) return 3;
        if (c == 1) { *bad = t; return 0; }
        if (cs->stop_size > 0) {
            const int fires = stop_fires(y, cs->stop_col, cs->stop_size, cs->stop_value, cs->s_out);
            if (fires != (t == sb)) { *bad = t; return 0; }
        }
        for (int64_t r = 0; r < cs->ntrace; r++) trace[(t - 1) * cs->ntrace + r] = y[cs->trace_cols[r]];
    }
    memcpy(final, y, sizeof(int64_t) * D);
    return 0;
}

/* Every row's run checked against the terms and the stop rule; prompts given as in symcot_run_indexed (a row
   whose first indices equal those of the row run before it reuses those cached positions). Rows are run in the
   order order[0..B-1] (NULL: 0..B-1), which changes nothing but how many positions are reused. Per row: bad
   (the first step that differs, -1 when none), status (check_row), final (y at its last step, when every step
   held) and trace (the columns trace_cols at every step, T rows of ntrace). */
int symcot_check_indexed(const int64_t *table, const int64_t *index, int64_t P, int64_t B, const int64_t *steps,
                         int64_t T, const symcot_term *terms, int64_t nterms, int64_t S, int64_t s_tok,
                         int64_t s_out, int64_t stop_col, int64_t stop_size, int64_t stop_value,
                         const int64_t *trace_cols, int64_t ntrace, int64_t *trace, int64_t *final, int64_t *bad,
                         int8_t *status, const int64_t *order) {
    const int64_t N = P + (T > 0 ? T - 1 : 0);
    int64_t *cache = (int64_t *)malloc((size_t)(N * CACHE_W > 0 ? N * CACHE_W : 1) * sizeof(int64_t));
    const int64_t **tokp = (const int64_t **)malloc((size_t)P * sizeof(int64_t *));
    if (!cache || !tokp) { free(cache); free(tokp); return -1; }
    const check_spec cs = {terms, nterms, S, s_tok, s_out, stop_col, stop_size, stop_value, ntrace, trace_cols};
    const int64_t *last = NULL;
    int64_t valid = 0;
    for (int64_t k = 0; k < B; k++) {
        const int64_t b = order != NULL ? order[k] : k;
        const int64_t *ib = index + b * P;
        const int64_t start = shared_prefix(last, ib, valid, P);
        for (int64_t p = 0; p < P; p++) tokp[p] = table + ib[p] * D;
        last = ib;
        status[b] = (int8_t)check_row(&cs, tokp, P, start, steps[b], b, trace + b * T * ntrace, final + b * D,
                                      bad + b, cache, &valid);
    }
    free(cache);
    free(tokp);
    return 0;
}
