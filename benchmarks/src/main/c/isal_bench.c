/*
 * isal_bench.c - JNI-free reference benchmark for Reed-Solomon over Intel ISA-L.
 *
 * Measures what the Java benchmarks are compared against: raw ISA-L
 * ec_encode_data() throughput for encode and for decode with a cached plan
 * (decode tables computed once, outside the timed region), plus a plain
 * memcpy of the same data as the memory-bandwidth ceiling.
 *
 * Build (Debian bookworm, libisal-dev 2.30):
 *   gcc -O2 -o isal_bench benchmarks/src/main/c/isal_bench.c -lisal
 *
 * Output: CSV on stdout, progress on stderr. Run with -h for options.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <isa-l/erasure_code.h>

/* Stream working sets hold at least this many data bytes, so they cannot
 * stay resident in this machine's 105 MiB L3. */
#define STREAM_MIN_DATA_BYTES ((size_t)256 << 20)
#define ALIGNMENT 64
#define MAX_K 32

struct code {
    int k, r;
};

static const struct code CODES[] = { { 10, 4 }, { 6, 3 } };
static const size_t SIZES[] = { 4096, 65536, 1048576, 4194304 };

enum working_set { WS_HOT, WS_STREAM, WS_COUNT };
static const char *const WS_NAMES[WS_COUNT] = { "hot", "stream" };

enum op { OP_ENCODE, OP_DECODE1, OP_DECODER, OP_MEMCPY, OP_COUNT };
static const char *const OP_NAMES[OP_COUNT] = { "encode", "decode1", "decodeR", "memcpy" };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define N_CODES NELEM(CODES)
#define N_SIZES NELEM(SIZES)

/*
 * One working set: nstripes stripes of `len`-byte buffers. Per stripe s:
 *   units[s*(k+r) + 0..k-1]    data units
 *   units[s*(k+r) + k..k+r-1]  parity units
 *   out[s*r + 0..r-1]          decode outputs (recovered data units)
 *   copy[s*k + 0..k-1]         memcpy destinations (NULL if memcpy not run)
 * Keeping data and parity contiguous in one pointer array means the decode
 * survivor lists (units 1..k for decode1, r..k+r-1 for decodeR) are just
 * sub-arrays, so no per-call pointer shuffling happens inside the timed loop.
 */
struct workset {
    int k, r;
    size_t len;
    size_t nstripes;
    unsigned char **units;
    unsigned char **out;
    unsigned char **copy;
    unsigned char *enc_tbls;  /* 32*k*r */
    unsigned char *dec1_tbls; /* 32*k*1 */
    unsigned char *decr_tbls; /* 32*k*r */
    size_t cursor;            /* next stripe to use; persists across rounds */
};

struct options {
    double warmup_s, measure_s;
    int rounds;
    int k, r;      /* 0 = all */
    size_t size;   /* 0 = all */
    int op;        /* -1 = all */
    int ws;        /* -1 = all */
};

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [-q] [-w SECONDS] [-m SECONDS] [-n ROUNDS]\n"
            "          [-k K] [-r R] [-s BYTES] [-o OP] [-W SET] [-h]\n"
            "\n"
            "  -w SECONDS  warm-up time per case (default 0.3)\n"
            "  -m SECONDS  duration of each measurement round (default 0.4)\n"
            "  -n ROUNDS   measurement rounds per case (default 5)\n"
            "  -q          quick mode: -w 0.1 -m 0.15 -n 3 (explicit -w/-m/-n win)\n"
            "  -k K, -r R  only run codes with this k / r (codes: RS(10,4), RS(6,3))\n"
            "  -s BYTES    only this split size (4096, 65536, 1048576, 4194304)\n"
            "  -o OP       only this op (encode, decode1, decodeR, memcpy)\n"
            "  -W SET      only this working set (hot, stream)\n"
            "  -h          this help\n"
            "\n"
            "CSV on stdout: impl,op,k,r,split_bytes,working_set,gbps_median,gbps_min,gbps_max\n"
            "Throughput counts data bytes (k x split) per second, GB/s = 1e9 bytes/s.\n",
            prog);
}

static void die(const char *msg)
{
    fprintf(stderr, "isal_bench: %s\n", msg);
    exit(1);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0.0))
        return -1;
    *out = v;
    return 0;
}

static int parse_long(const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static int lookup(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* splitmix64: fast, good enough to make buffers incompressible and non-zero. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* len is always a multiple of 8 here (all split sizes are multiples of 4096). */
static void fill_random(unsigned char *buf, size_t len, uint64_t *state)
{
    for (size_t i = 0; i < len; i += 8) {
        uint64_t v = rng_next(state);
        memcpy(buf + i, &v, 8);
    }
}

static unsigned char *alloc_buf(size_t len)
{
    void *p = NULL;
    if (posix_memalign(&p, ALIGNMENT, len) != 0)
        die("out of memory (posix_memalign)");
    return p;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p)
        die("out of memory (calloc)");
    return p;
}

/* Allocates every buffer up front and writes to all of them, so page faults
 * and first-touch costs never land inside a timed region. */
static void workset_alloc(struct workset *w, int k, int r, size_t len,
                          enum working_set ws, int need_copy, uint64_t seed)
{
    memset(w, 0, sizeof(*w));
    w->k = k;
    w->r = r;
    w->len = len;
    if (ws == WS_HOT) {
        w->nstripes = 1;
    } else {
        size_t stripe_data = (size_t)k * len;
        w->nstripes = (STREAM_MIN_DATA_BYTES + stripe_data - 1) / stripe_data;
    }

    size_t n = w->nstripes;
    w->units = xcalloc(n * (size_t)(k + r), sizeof(*w->units));
    w->out = xcalloc(n * (size_t)r, sizeof(*w->out));
    if (need_copy)
        w->copy = xcalloc(n * (size_t)k, sizeof(*w->copy));

    uint64_t rng = seed;
    for (size_t s = 0; s < n; s++) {
        unsigned char **u = &w->units[s * (size_t)(k + r)];
        for (int i = 0; i < k + r; i++) {
            u[i] = alloc_buf(len);
            if (i < k)
                fill_random(u[i], len, &rng);
            else
                memset(u[i], 0, len); /* parity: filled by encode below */
        }
        for (size_t i = s * (size_t)r; i < (s + 1) * (size_t)r; i++) {
            w->out[i] = alloc_buf(len);
            memset(w->out[i], 0, len);
        }
        if (need_copy) {
            for (size_t i = s * (size_t)k; i < (s + 1) * (size_t)k; i++) {
                w->copy[i] = alloc_buf(len);
                memset(w->copy[i], 0, len);
            }
        }
    }
}

static void workset_free(struct workset *w)
{
    size_t n = w->nstripes;
    for (size_t i = 0; i < n * (size_t)(w->k + w->r); i++)
        free(w->units[i]);
    for (size_t i = 0; i < n * (size_t)w->r; i++)
        free(w->out[i]);
    if (w->copy)
        for (size_t i = 0; i < n * (size_t)w->k; i++)
            free(w->copy[i]);
    free(w->units);
    free(w->out);
    free(w->copy);
    free(w->enc_tbls);
    free(w->dec1_tbls);
    free(w->decr_tbls);
    memset(w, 0, sizeof(*w));
}

/*
 * Decode tables for recovering data units 0..nerr-1 from the k survivors
 * units[first_survivor .. first_survivor+k-1]. Only data units are erased,
 * so the decode matrix is simply rows 0..nerr-1 of the inverse of the
 * survivors' k x k submatrix of the encode matrix.
 */
static unsigned char *make_decode_tables(const unsigned char *a, int k, int nerr,
                                         int first_survivor)
{
    unsigned char b[MAX_K * MAX_K], inv[MAX_K * MAX_K];
    for (int i = 0; i < k; i++)
        memcpy(&b[i * k], &a[(first_survivor + i) * k], (size_t)k);
    if (gf_invert_matrix(b, inv, k) != 0)
        die("survivor matrix is singular");
    unsigned char *tbls = alloc_buf(32 * (size_t)k * (size_t)nerr);
    ec_init_tables(k, nerr, inv, tbls); /* rows 0..nerr-1 are the first nerr*k bytes */
    return tbls;
}

/* Builds the encode and cached decode plans, fills every stripe's parity and
 * checks that both decodes reproduce the original data on every stripe. */
static void workset_prepare(struct workset *w)
{
    int k = w->k, r = w->r;
    unsigned char a[(MAX_K + MAX_K) * MAX_K];

    gf_gen_cauchy1_matrix(a, k + r, k);
    w->enc_tbls = alloc_buf(32 * (size_t)k * (size_t)r);
    ec_init_tables(k, r, &a[k * k], w->enc_tbls);
    w->dec1_tbls = make_decode_tables(a, k, 1, 1);
    w->decr_tbls = make_decode_tables(a, k, r, r);

    int len = (int)w->len;
    for (size_t s = 0; s < w->nstripes; s++) {
        unsigned char **u = &w->units[s * (size_t)(k + r)];
        unsigned char **o = &w->out[s * (size_t)r];

        ec_encode_data(len, k, r, w->enc_tbls, u, &u[k]);

        ec_encode_data(len, k, 1, w->dec1_tbls, &u[1], o);
        if (memcmp(o[0], u[0], w->len) != 0) {
            fprintf(stderr, "isal_bench: decode1 mismatch RS(%d,%d) len %d stripe %zu\n",
                    k, r, len, s);
            exit(1);
        }

        ec_encode_data(len, k, r, w->decr_tbls, &u[r], o);
        for (int i = 0; i < r; i++) {
            if (memcmp(o[i], u[i], w->len) != 0) {
                fprintf(stderr,
                        "isal_bench: decodeR mismatch RS(%d,%d) len %d stripe %zu unit %d\n",
                        k, r, len, s, i);
                exit(1);
            }
        }
    }
}

static inline void run_once(const struct workset *w, enum op op, size_t s)
{
    int k = w->k, r = w->r, len = (int)w->len;
    unsigned char **u = &w->units[s * (size_t)(k + r)];
    unsigned char **o = &w->out[s * (size_t)r];

    switch (op) {
    case OP_ENCODE:
        ec_encode_data(len, k, r, w->enc_tbls, u, &u[k]);
        break;
    case OP_DECODE1:
        ec_encode_data(len, k, 1, w->dec1_tbls, &u[1], o);
        break;
    case OP_DECODER:
        ec_encode_data(len, k, r, w->decr_tbls, &u[r], o);
        break;
    case OP_MEMCPY: {
        unsigned char **c = &w->copy[s * (size_t)k];
        for (int i = 0; i < k; i++)
            memcpy(c[i], u[i], w->len);
        break;
    }
    default:
        break;
    }
}

/*
 * Runs `op` for at least `seconds`, cycling stripes round-robin, and returns
 * throughput in GB/s of data bytes. The clock is read after every call: even
 * the smallest case (k x 4 KiB) takes microseconds, so a ~20 ns clock read
 * is noise, and it keeps rounds close to the requested length.
 */
static double run_for(struct workset *w, enum op op, double seconds)
{
    uint64_t iters = 0;
    size_t s = w->cursor;
    double start = now_s(), elapsed;
    do {
        run_once(w, op, s);
        if (++s == w->nstripes)
            s = 0;
        iters++;
        elapsed = now_s() - start;
    } while (elapsed < seconds);
    w->cursor = s;
    return (double)iters * (double)w->k * (double)w->len / elapsed / 1e9;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static void bench_case(struct workset *w, enum op op, enum working_set ws,
                       const struct options *opt)
{
    double *g = xcalloc((size_t)opt->rounds, sizeof(*g));

    if (opt->warmup_s > 0)
        run_for(w, op, opt->warmup_s);
    for (int i = 0; i < opt->rounds; i++)
        g[i] = run_for(w, op, opt->measure_s);

    qsort(g, (size_t)opt->rounds, sizeof(*g), cmp_double);
    int n = opt->rounds;
    double median = (n % 2) ? g[n / 2] : 0.5 * (g[n / 2 - 1] + g[n / 2]);

    printf("%s,%s,%d,%d,%zu,%s,%.3f,%.3f,%.3f\n",
           op == OP_MEMCPY ? "memcpy" : "c-isal", OP_NAMES[op], w->k, w->r, w->len,
           WS_NAMES[ws], median, g[0], g[n - 1]);
    fflush(stdout);
    fprintf(stderr, "  %-7s RS(%d,%d) %8zu B %-6s  %8.3f GB/s (min %.3f, max %.3f)\n",
            OP_NAMES[op], w->k, w->r, w->len, WS_NAMES[ws], median, g[0], g[n - 1]);
    free(g);
}

int main(int argc, char **argv)
{
    struct options opt = { 0.3, 0.4, 5, 0, 0, 0, -1, -1 };
    int quick = 0, set_w = 0, set_m = 0, set_n = 0;
    double w_val = 0, m_val = 0;
    long n_val = 0, lv;
    int c;

    while ((c = getopt(argc, argv, "w:m:n:qk:r:s:o:W:h")) != -1) {
        switch (c) {
        case 'w':
            if (parse_double(optarg, &w_val))
                goto bad;
            set_w = 1;
            break;
        case 'm':
            if (parse_double(optarg, &m_val) || m_val <= 0)
                goto bad;
            set_m = 1;
            break;
        case 'n':
            if (parse_long(optarg, 1, 1000, &n_val))
                goto bad;
            set_n = 1;
            break;
        case 'q':
            quick = 1;
            break;
        case 'k':
            if (parse_long(optarg, 1, MAX_K, &lv))
                goto bad;
            opt.k = (int)lv;
            break;
        case 'r':
            if (parse_long(optarg, 1, MAX_K, &lv))
                goto bad;
            opt.r = (int)lv;
            break;
        case 's':
            if (parse_long(optarg, 1, 1L << 30, &lv))
                goto bad;
            opt.size = (size_t)lv;
            break;
        case 'o':
            if ((opt.op = lookup(optarg, OP_NAMES, OP_COUNT)) < 0)
                goto bad;
            break;
        case 'W':
            if ((opt.ws = lookup(optarg, WS_NAMES, WS_COUNT)) < 0)
                goto bad;
            break;
        case 'h':
        default:
            goto bad;
        }
    }
    if (optind != argc)
        goto bad;

    if (quick) {
        opt.warmup_s = 0.1;
        opt.measure_s = 0.15;
        opt.rounds = 3;
    }
    if (set_w)
        opt.warmup_s = w_val;
    if (set_m)
        opt.measure_s = m_val;
    if (set_n)
        opt.rounds = (int)n_val;

    /* Reject filters that match nothing rather than silently printing only a header. */
    int code_match = 0, size_match = 0;
    for (size_t ci = 0; ci < N_CODES; ci++)
        code_match |= (!opt.k || opt.k == CODES[ci].k) && (!opt.r || opt.r == CODES[ci].r);
    for (size_t si = 0; si < N_SIZES; si++)
        size_match |= !opt.size || opt.size == SIZES[si];
    if (!code_match) {
        fprintf(stderr, "isal_bench: no code matches -k/-r (available: RS(10,4), RS(6,3))\n");
        goto bad;
    }
    if (!size_match) {
        fprintf(stderr, "isal_bench: -s must be one of 4096, 65536, 1048576, 4194304\n");
        goto bad;
    }

    fprintf(stderr, "isal_bench: warm-up %.2f s, %d rounds x %.2f s per case\n",
            opt.warmup_s, opt.rounds, opt.measure_s);
    printf("impl,op,k,r,split_bytes,working_set,gbps_median,gbps_min,gbps_max\n");
    fflush(stdout);

    for (size_t ci = 0; ci < N_CODES; ci++) {
        const struct code *cd = &CODES[ci];
        if ((opt.k && opt.k != cd->k) || (opt.r && opt.r != cd->r))
            continue;
        for (size_t si = 0; si < N_SIZES; si++) {
            size_t len = SIZES[si];
            if (opt.size && opt.size != len)
                continue;
            for (int ws = 0; ws < WS_COUNT; ws++) {
                if (opt.ws >= 0 && opt.ws != ws)
                    continue;
                int need_copy = opt.op < 0 || opt.op == OP_MEMCPY;
                struct workset w;
                double t0 = now_s();
                workset_alloc(&w, cd->k, cd->r, len, (enum working_set)ws, need_copy,
                              0x5eed0000u + ci * 64 + si * 4 + (unsigned)ws);
                workset_prepare(&w);
                size_t bufs = (size_t)(cd->k + cd->r + cd->r + (need_copy ? cd->k : 0));
                fprintf(stderr,
                        "RS(%d,%d) %zu B %s: %zu stripe(s), %.1f MiB data, %.1f MiB total, "
                        "setup+verify %.2f s\n",
                        cd->k, cd->r, len, WS_NAMES[ws], w.nstripes,
                        (double)(w.nstripes * (size_t)cd->k * len) / 1048576.0,
                        (double)(w.nstripes * bufs * len) / 1048576.0, now_s() - t0);

                for (int op = 0; op < OP_COUNT; op++) {
                    if (opt.op >= 0 && opt.op != op)
                        continue;
                    bench_case(&w, (enum op)op, (enum working_set)ws, &opt);
                }
                workset_free(&w);
            }
        }
    }
    return 0;

bad:
    usage(argv[0]);
    return 2;
}
