/*
 * looptale-asr: one persistent pocketsphinx decoder serving many decodes (server/voice/native-asr.ts runs a pool of
 * them). The acoustic model is loaded once; each request names a search (a JSGF grammar or an ARPA language model, by
 * file), the dictionary file of the words it needs and the decoder flags it is searched with, and carries one whole
 * utterance of audio. The answer is what pocketsphinx's `-backtrace yes` log holds (server/voice/backtrace.ts): the
 * hypothesis, its score and the words of the best path with their frames and acoustic and language scores.
 *
 * Same audio, same answer, whatever was decoded before, and the answer pocketsphinx_continuous gives from a fresh
 * process (the thresholds of server/voice/policy.ts were tuned on those):
 *   - features are normalised from the utterance's own cepstral mean (see own_mean), never from a running mean
 *     carried over from earlier audio; the dither's random generator is reseeded, the front end reset;
 *   - the audio is fed in blocks as pocketsphinx_continuous feeds it (its voice-activity detector drops the same
 *     silent frames; fed whole, the language model heard "the tide can you" for "... the tide caves");
 *   - one decoder per dictionary file (16 kept, ~3 MB of private memory each; the model loads in a few ms, its senone
 *     file mapped and shared), loaded with exactly the request's words in their order, so homophones (a name's
 *     spelling variants: "ferrule", "ferule") tie as in a fresh process. One shared dictionary grown word by word tied
 *     them by the order earlier requests added words. Searches are kept per decoder by file, flags and mtime. A
 *     request's front-end flags (-frate, -warp_params) make a decoder of their own, beside the default one.
 * Protocol (stdin/stdout, one line each way per request):
 *   request:  id TAB kind TAB search-file TAB dict-file TAB flags TAB base64(PCM16LE mono 16 kHz) NL
 *             kind: jsgf | lm; flags: space-separated "-flag value" pairs among FLAGS and FE_FLAGS below ("" = the
 *             defaults); a front-end flag (FE_FLAGS) selects a decoder of its own.
 *   answer:   {"id":..,"ok":true,"utts":[{"hyp":..,"score":..,"words":[{"word","start","end","ascr","lscr"}]}],
 *              "cpu_ms":..,"search":"cached"|"built"} (utts is [] when nothing was heard)
 *             or {"id":..,"ok":false,"error":".."}: a bad request is refused, the process goes on.
 *   At start: {"ready":true,"pid":..} once the model is loaded, or {"ready":false,"error":".."} and exit 1.
 * Usage: looptale-asr [--cmn=own|batch] [--feed=blocks|whole] HMM_DIR [-flag value ...]   (flags for every decoder)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pocketsphinx.h>
#include <sphinxbase/ckd_alloc.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/cmn.h>
#include <sphinxbase/fe.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/err.h>
#include <sphinxbase/genrand.h>

#define MAX_LINE (64L * 1024 * 1024)

/* Decoder flags a request may set for its search; every other flag stays as started. */
typedef enum { T_FLOAT, T_INT, T_BOOL } flag_type;
static const struct {
    const char *name;
    flag_type type;
} FLAGS[] = {
    {"-beam", T_FLOAT}, {"-wbeam", T_FLOAT}, {"-pbeam", T_FLOAT}, {"-lpbeam", T_FLOAT}, {"-lponlybeam", T_FLOAT},
    {"-fwdflatbeam", T_FLOAT}, {"-fwdflatwbeam", T_FLOAT}, {"-lw", T_FLOAT}, {"-wip", T_FLOAT}, {"-pip", T_FLOAT},
    {"-silprob", T_FLOAT}, {"-fillprob", T_FLOAT}, {"-uw", T_FLOAT}, {"-maxhmmpf", T_INT}, {"-maxwpf", T_INT},
    {"-bestpath", T_BOOL}, {"-fwdflat", T_BOOL}, {"-fwdtree", T_BOOL},
};
#define N_FLAGS (sizeof(FLAGS) / sizeof(FLAGS[0]))

/* Front-end flags a request may set: they change the features, so a decoder is kept per dictionary and front end.
 * -frate: frames a second (fast speech has phones shorter than the model's three 10 ms states); -warp_params: a
 * vocal-tract-length warp of the frequency axis (inverse_linear: a voice with higher formants than the model's). */
static const struct {
    const char *name;
    double min, max;
} FE_FLAGS[] = {{"-frate", 50, 400}, {"-warp_params", 0.5, 2.0}};
#define N_FE_FLAGS (sizeof(FE_FLAGS) / sizeof(FE_FLAGS[0]))
#define MAX_FLAGS_LEN 1024

static char **base_args;
static int n_base_args;
static double defaults[N_FLAGS];
static long seed = 1;
/* How features are normalised: own (default, see own_mean) or the model's batch normalisation. */
static enum { NORM_OWN, NORM_BATCH } cmn_mode = NORM_OWN;
static mfcc_t default_mean[64];
/* Audio fed in blocks of 2048 samples as pocketsphinx_continuous does (default; frames the voice-activity detector
 * finds silent dropped), or as one whole utterance (full_utt). */
static int feed_blocks = 1;

typedef struct {
    char name[16];
    char *kind, *path, *flags;
    time_t mtime;
    long mtime_ns;
    off_t size;
    unsigned long used;
} search_t;

#define MAX_DECODERS 16
#define MAX_SEARCHES 8
typedef struct {
    ps_decoder_t *ps;
    cmd_ln_t *config;
    char *dict;
    char *fe; /* the front-end flags it was made with ("" = the defaults) */
    time_t mtime;
    long mtime_ns;
    off_t size;
    unsigned long used;
    search_t searches[MAX_SEARCHES];
    int n_searches;
} decoder_t;
static decoder_t decoders[MAX_DECODERS];
static int n_decoders = 0;
static unsigned long clock_tick = 0, next_name = 0;

/* ---- output ---- */

static void json_str(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

static void refuse(const char *id, const char *fmt, const char *detail) {
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, detail ? detail : "");
    fputs("{\"id\":", stdout);
    json_str(stdout, id ? id : "");
    fputs(",\"ok\":false,\"error\":", stdout);
    json_str(stdout, msg);
    fputs("}\n", stdout);
    fflush(stdout);
}

/* ---- base64 ---- */

static int b64_value(int c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Decodes in place; returns the byte count, or -1 when the text is not base64. */
static long b64_decode(char *s) {
    long n = (long)strlen(s), out = 0;
    if (n % 4 != 0) return -1;
    unsigned char *dst = (unsigned char *)s;
    for (long i = 0; i < n; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            int c = (unsigned char)s[i + k];
            if (c == '=' && i + 4 == n && k >= 2) {
                v[k] = 0;
                pad++;
            } else if (pad > 0 || (v[k] = b64_value(c)) < 0) return -1;
        }
        unsigned long triple = ((unsigned long)v[0] << 18) | ((unsigned long)v[1] << 12) | ((unsigned long)v[2] << 6) | (unsigned long)v[3];
        dst[out++] = (triple >> 16) & 0xff;
        if (pad < 2) dst[out++] = (triple >> 8) & 0xff;
        if (pad < 1) dst[out++] = triple & 0xff;
    }
    return out;
}

/* ---- decoder flags ---- */

static int flag_index(const char *name) {
    for (size_t i = 0; i < N_FLAGS; i++)
        if (strcmp(FLAGS[i].name, name) == 0) return (int)i;
    return -1;
}

static void set_flag(cmd_ln_t *config, size_t i, double v) {
    if (FLAGS[i].type == T_FLOAT) cmd_ln_set_float_r(config, FLAGS[i].name, v);
    else cmd_ln_set_int_r(config, FLAGS[i].name, (long)v);
}

/* Parses "-flag value ..."; with a configuration, sets them there (every other flag of FLAGS back to its default). */
static int apply_flags(cmd_ln_t *config, const char *flags, const char **bad) {
    char *copy = strdup(flags), *save = NULL;
    double values[N_FLAGS];
    int given[N_FLAGS] = {0};
    int ok = 1;
    for (char *name = strtok_r(copy, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
        char *value = strtok_r(NULL, " ", &save);
        int i = flag_index(name);
        if (i < 0 || !value) {
            ok = 0;
            break;
        }
        char *end = NULL;
        if (FLAGS[i].type == T_BOOL) {
            if (strcmp(value, "yes") == 0 || strcmp(value, "true") == 0) values[i] = 1;
            else if (strcmp(value, "no") == 0 || strcmp(value, "false") == 0) values[i] = 0;
            else ok = 0;
        } else {
            errno = 0;
            values[i] = strtod(value, &end);
            if (errno || !end || *end) ok = 0;
        }
        if (!ok) break;
        given[i] = 1;
    }
    free(copy);
    if (!ok) {
        if (bad) *bad = flags;
        return -1;
    }
    if (config)
        for (size_t i = 0; i < N_FLAGS; i++) set_flag(config, i, given[i] ? values[i] : defaults[i]);
    return 0;
}

/* Splits a request's flags into the search's and the front end's (each "-flag value ..."); -1 on a front-end flag
 * out of range or without a value, or flags too long. */
static int split_flags(const char *flags, char *search, char *fe, const char **bad) {
    char *copy = strdup(flags), *save = NULL;
    int ok = strlen(flags) < MAX_FLAGS_LEN;
    search[0] = fe[0] = '\0';
    for (char *name = strtok_r(copy, " ", &save); ok && name; name = strtok_r(NULL, " ", &save)) {
        char *value = strtok_r(NULL, " ", &save);
        int f = -1;
        for (size_t i = 0; i < N_FE_FLAGS; i++)
            if (strcmp(FE_FLAGS[i].name, name) == 0) f = (int)i;
        char *out = f >= 0 ? fe : search;
        if (f >= 0) {
            char *end = NULL;
            double v = value ? strtod(value, &end) : 0;
            if (!value || !end || *end || !(v >= FE_FLAGS[f].min && v <= FE_FLAGS[f].max)) ok = 0;
        }
        if (!ok) break;
        if (out[0]) strcat(out, " ");
        strcat(out, name);
        if (value) {
            strcat(out, " ");
            strcat(out, value);
        }
    }
    free(copy);
    if (!ok && bad) *bad = flags;
    return ok ? 0 : -1;
}

/* ---- decoders, one per dictionary and front end ---- */

static void drop_search(decoder_t *d, int i) {
    ps_unset_search(d->ps, d->searches[i].name);
    free(d->searches[i].kind);
    free(d->searches[i].path);
    free(d->searches[i].flags);
    d->searches[i] = d->searches[--d->n_searches];
}

static void drop_decoder(int i) {
    decoder_t *d = &decoders[i];
    while (d->n_searches > 0) drop_search(d, 0);
    ps_free(d->ps);
    cmd_ln_free_r(d->config);
    free(d->dict);
    free(d->fe);
    decoders[i] = decoders[--n_decoders];
}

static int same_file(const char *path, time_t mtime, long ns, off_t size, const char *path2, const struct stat *st) {
    return strcmp(path, path2) == 0 && mtime == st->st_mtim.tv_sec && ns == st->st_mtim.tv_nsec && size == st->st_size;
}

/* The decoder of this dictionary file: loaded with exactly its words, in its order, as pocketsphinx_continuous -dict
 * loads them (homophones, e.g. a name's spelling variants, then tie the same way whatever was decoded before). */
static decoder_t *decoder_for(const char *dict, const char *fe, const char **why) {
    struct stat st;
    if (stat(dict, &st) < 0 || !S_ISREG(st.st_mode)) {
        *why = "no such dictionary %s";
        return NULL;
    }
    for (int i = 0; i < n_decoders; i++)
        if (strcmp(decoders[i].fe, fe) == 0 && same_file(decoders[i].dict, decoders[i].mtime, decoders[i].mtime_ns, decoders[i].size, dict, &st)) return &decoders[i];
    if (n_decoders == MAX_DECODERS) {
        int oldest = 0;
        for (int i = 1; i < n_decoders; i++)
            if (decoders[i].used < decoders[oldest].used) oldest = i;
        drop_decoder(oldest);
    }
    base_args[3] = (char *)dict;
    /* The base flags, then the request's front-end ones (the later of a flag given twice wins). */
    char *fe_copy = strdup(fe), *save = NULL;
    int n_args = n_base_args;
    char **args = calloc((size_t)n_base_args + MAX_FLAGS_LEN / 2 + 1, sizeof(char *));
    memcpy(args, base_args, (size_t)n_base_args * sizeof(char *));
    for (char *t = strtok_r(fe_copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) args[n_args++] = t;
    cmd_ln_t *config = cmd_ln_parse_r(NULL, ps_args(), n_args, args, FALSE);
    free(args);
    free(fe_copy);
    ps_decoder_t *ps = config ? ps_init(config) : NULL;
    if (!ps) {
        if (config) cmd_ln_free_r(config);
        *why = "cannot load the model with the dictionary %s";
        return NULL;
    }
    decoder_t *d = &decoders[n_decoders++];
    memset(d, 0, sizeof *d);
    d->ps = ps;
    d->config = config;
    d->dict = strdup(dict);
    d->fe = strdup(fe);
    d->mtime = st.st_mtim.tv_sec;
    d->mtime_ns = st.st_mtim.tv_nsec;
    d->size = st.st_size;
    /* Normalised from each utterance's own mean (own_mean), live from there. */
    if (cmn_mode == NORM_OWN) ps_get_feat(ps)->cmn = CMN_LIVE;
    return d;
}

/* ---- searches ---- */

static int find_search(decoder_t *d, const char *kind, const char *path, const char *flags, const struct stat *st) {
    for (int i = 0; i < d->n_searches; i++) {
        search_t *s = &d->searches[i];
        if (strcmp(s->kind, kind) == 0 && strcmp(s->flags, flags) == 0 && same_file(s->path, s->mtime, s->mtime_ns, s->size, path, st)) return i;
    }
    return -1;
}

static int build_search(decoder_t *d, const char *kind, const char *path, const char *flags, const struct stat *st, const char **why) {
    if (d->n_searches == MAX_SEARCHES) {
        int oldest = 0;
        for (int i = 1; i < d->n_searches; i++)
            if (d->searches[i].used < d->searches[oldest].used) oldest = i;
        drop_search(d, oldest);
    }
    search_t *s = &d->searches[d->n_searches];
    snprintf(s->name, sizeof s->name, "s%lu", next_name++);
    int rv = strcmp(kind, "lm") == 0 ? ps_set_lm_file(d->ps, s->name, path) : ps_set_jsgf_file(d->ps, s->name, path);
    if (rv < 0) {
        *why = "cannot build a search from %s";
        return -1;
    }
    s->kind = strdup(kind);
    s->path = strdup(path);
    s->flags = strdup(flags);
    s->mtime = st->st_mtim.tv_sec;
    s->mtime_ns = st->st_mtim.tv_nsec;
    s->size = st->st_size;
    return d->n_searches++;
}

/* ---- feature normalisation ---- */

/* The utterance's own cepstral mean (over the frames the decode will see, those of non-negative energy, as
 * pocketsphinx's own means are), made the starting point of a live normalisation: features normalised as
 * by the model's `-cmn batch`, except that frames of near-zero energy (the digital quiet around trimmed speech) are
 * left as they are, as live normalisation leaves them. With plain batch normalisation those frames fall far below any
 * silence the model was trained on, and "Down to the tide caves" (fixture m3) was heard as silence and then a decoy. */
static void own_mean(ps_decoder_t *ps, const int16 *pcm, size_t samples) {
    fe_t *fe = ps_get_fe(ps);
    feat_t *fcb = ps_get_feat(ps);
    int veclen = fe_get_output_size(fe);
    mfcc_t *mean = calloc((size_t)veclen, sizeof(mfcc_t));
    double *sum = calloc((size_t)veclen, sizeof(double));
    long used = 0;
    genrand_seed((unsigned long)seed);
    fe_start_stream(fe);
    fe_start_utt(fe);
    size_t left = samples;
    int32 cap = 0, nfr = 0, ntail = 0;
    fe_process_frames(fe, NULL, &left, NULL, &cap, NULL);
    cap += 64;
    mfcc_t **cep = (mfcc_t **)ckd_calloc_2d((size_t)cap, (size_t)veclen, sizeof(mfcc_t));
    /* In blocks, as the decode reads them: the voice-activity detector keeps the same frames. */
    for (size_t at = 0; at < samples && nfr < cap - 1;) {
        size_t block = samples - at < 2048 ? samples - at : 2048, rest = block;
        const int16 *p = pcm + at;
        int32 n = cap - 1 - nfr;
        if (fe_process_frames(fe, &p, &rest, cep + nfr, &n, NULL) < 0) break;
        nfr += n;
        at += block - rest;
        if (rest == block && n == 0) break;
    }
    if (nfr < cap) {
        fe_end_utt(fe, cep[nfr], &ntail);
        nfr += ntail;
    }
    for (int f = 0; f < nfr; f++) {
        if (cep[f][0] < 0) continue;
        for (int i = 0; i < veclen; i++) sum[i] += cep[f][i];
        used++;
    }
    ckd_free_2d(cep);
    for (int i = 0; i < veclen; i++) mean[i] = used > 0 ? (mfcc_t)(sum[i] / used) : default_mean[i];
    fcb->cmn = CMN_LIVE;
    cmn_live_set(fcb->cmn_struct, mean);
    fe_start_stream(fe);
    free(sum);
    free(mean);
}

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ---- one request ---- */

static void serve(char *line) {
    char *field[6];
    int n = 0;
    char *p = line;
    field[n++] = p;
    while (n < 6 && (p = strchr(p, '\t'))) {
        *p++ = '\0';
        field[n++] = p;
    }
    const char *id = field[0];
    for (const char *c = id; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_') || c - id > 64) {
            refuse("", "bad request id%s", NULL);
            return;
        }
    if (n != 6) {
        refuse(id, "a request has 6 tab-separated fields%s", NULL);
        return;
    }
    const char *kind = field[1], *path = field[2], *dict = field[3], *flags = field[4];
    char *audio = field[5];
    if (strcmp(kind, "jsgf") != 0 && strcmp(kind, "lm") != 0) {
        refuse(id, "unknown search kind '%s' (jsgf or lm)", kind);
        return;
    }
    const char *bad = NULL;
    static char search_flags[MAX_FLAGS_LEN], fe_flags[MAX_FLAGS_LEN];
    if (split_flags(flags, search_flags, fe_flags, &bad) < 0 || apply_flags(NULL, search_flags, &bad) < 0) {
        refuse(id, "bad decoder flags '%s'", bad);
        return;
    }
    flags = search_flags;
    long bytes = b64_decode(audio);
    if (bytes < 0 || bytes % 2 != 0) {
        refuse(id, "the audio is not base64 of 16-bit samples%s", NULL);
        return;
    }
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
        refuse(id, "no such search file %s", path);
        return;
    }
    double t0 = cpu_ms();
    const char *why = NULL;
    decoder_t *d = decoder_for(dict, fe_flags, &why);
    if (!d) {
        refuse(id, why, dict);
        return;
    }
    d->used = ++clock_tick;
    ps_decoder_t *ps = d->ps;
    /* The search is built, and decodes, with the request's flags. */
    apply_flags(d->config, flags, NULL);
    int built = 0;
    int at = find_search(d, kind, path, flags, &st);
    if (at < 0) {
        at = build_search(d, kind, path, flags, &st, &why);
        if (at < 0) {
            refuse(id, why, path);
            return;
        }
        built = 1;
    }
    d->searches[at].used = ++clock_tick;
    if (ps_set_search(ps, d->searches[at].name) < 0) {
        refuse(id, "cannot select the search for %s", path);
        return;
    }
    size_t samples = (size_t)bytes / 2;
    int16 *pcm = malloc(samples * sizeof(int16) + 2);
    memcpy(pcm, audio, (size_t)bytes);
    if (cmn_mode == NORM_OWN) own_mean(ps, pcm, samples);
    /* The same audio gives the same answer: the dither's generator and the front end start afresh. */
    genrand_seed((unsigned long)seed);
    ps_start_stream(ps);
    if (ps_start_utt(ps) < 0) {
        free(pcm);
        refuse(id, "cannot start an utterance%s", NULL);
        return;
    }
    int frames = 0;
    if (feed_blocks) {
        for (size_t at = 0; at < samples && frames >= 0; at += 2048) {
            int r = ps_process_raw(ps, pcm + at, samples - at < 2048 ? samples - at : 2048, FALSE, FALSE);
            frames = r < 0 ? r : frames + r;
        }
    } else if (samples > 0) frames = ps_process_raw(ps, pcm, samples, FALSE, TRUE);
    free(pcm);
    if (ps_end_utt(ps) < 0 || frames < 0) {
        refuse(id, "decoding failed%s", NULL);
        return;
    }
    int32 score = 0;
    const char *hyp = ps_get_hyp(ps, &score);
    fputs("{\"id\":", stdout);
    json_str(stdout, id);
    fputs(",\"ok\":true,\"utts\":[", stdout);
    if (hyp) {
        fputs("{\"hyp\":", stdout);
        json_str(stdout, hyp);
        printf(",\"score\":%d,\"words\":[", score);
        int first = 1;
        for (ps_seg_t *seg = ps_seg_iter(ps); seg; seg = ps_seg_next(seg)) {
            const char *word = ps_seg_word(seg);
            int sf, ef;
            int32 ascr = 0, lscr = 0, lback = 0;
            ps_seg_frames(seg, &sf, &ef);
            ps_seg_prob(seg, &ascr, &lscr, &lback);
            /* A grammar's path may begin with a null transition: left out, as backtrace.ts does. */
            if (!word || sf < 0 || strcmp(word, "(NULL)") == 0) continue;
            fputs(first ? "{\"word\":" : ",{\"word\":", stdout);
            json_str(stdout, word);
            printf(",\"start\":%d,\"end\":%d,\"ascr\":%d,\"lscr\":%d}", sf, ef, ascr, lscr);
            first = 0;
        }
        fputs("]}", stdout);
    }
    printf("],\"frames\":%d,\"cpu_ms\":%.2f,\"search\":\"%s\"}\n", frames, cpu_ms() - t0, built ? "built" : "cached");
    fflush(stdout);
}

int main(int argc, char **argv) {
    while (argc >= 3 && strncmp(argv[1], "--", 2) == 0) {
        if (strcmp(argv[1], "--cmn=batch") == 0) cmn_mode = NORM_BATCH;
        else if (strcmp(argv[1], "--feed=whole") == 0) feed_blocks = 0;
        else if (strcmp(argv[1], "--cmn=own") != 0 && strcmp(argv[1], "--feed=blocks") != 0) argc = 0;
        argv++;
        argc--;
    }
    if (argc < 2 || argc % 2 != 0) {
        fprintf(stderr, "usage: looptale-asr [--cmn=own|batch] [--feed=blocks|whole] HMM_DIR [-flag value ...]\n");
        return 2;
    }
    err_set_logfp(NULL);
    /* Decoder flags: the model, the request's dictionary (set per decoder), no log; then the caller's. The first
     * decoder (the phone loop's dictionary is any small one: here the model's filler dictionary) checks the model. */
    n_base_args = 6 + (argc - 2);
    base_args = calloc((size_t)n_base_args + 1, sizeof(char *));
    base_args[0] = "-hmm";
    base_args[1] = argv[1];
    base_args[2] = "-dict";
    base_args[3] = "/dev/null";
    base_args[4] = "-logfn";
    base_args[5] = "/dev/null";
    for (int i = 2; i < argc; i++) base_args[6 + i - 2] = argv[i];
    cmd_ln_t *config = cmd_ln_parse_r(NULL, ps_args(), n_base_args, base_args, FALSE);
    ps_decoder_t *ps = config ? ps_init(config) : NULL;
    if (!config || !ps) {
        printf("{\"ready\":false,\"error\":\"cannot load the model from %s\"}\n", argv[1]);
        fflush(stdout);
        return 1;
    }
    if (cmd_ln_exists_r(config, "-seed")) seed = cmd_ln_int_r(config, "-seed");
    if (seed < 0) seed = 1;
    /* The model's initial mean: for audio without a frame of speech energy. */
    const char *init = cmd_ln_exists_r(config, "-cmninit") ? cmd_ln_str_r(config, "-cmninit") : NULL;
    for (int i = 0; init && *init && i < 64; i++) {
        char *end;
        default_mean[i] = (mfcc_t)strtod(init, &end);
        init = *end == ',' ? end + 1 : "";
    }
    for (size_t i = 0; i < N_FLAGS; i++) defaults[i] = FLAGS[i].type == T_FLOAT ? cmd_ln_float_r(config, FLAGS[i].name) : (double)cmd_ln_int_r(config, FLAGS[i].name);
    ps_free(ps);
    cmd_ln_free_r(config);
    printf("{\"ready\":true,\"pid\":%d}\n", (int)getpid());
    fflush(stdout);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (len == 0) continue;
        if (len > MAX_LINE) {
            refuse("", "request too long%s", NULL);
            continue;
        }
        serve(line);
    }
    free(line);
    while (n_decoders > 0) drop_decoder(0);
    return 0;
}
