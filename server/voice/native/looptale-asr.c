/*
 * looptale-asr: one persistent pocketsphinx decoder serving many decodes (server/voice/native-asr.ts runs a pool of
 * them). The acoustic model is loaded once; each request names a search (a JSGF grammar or an ARPA language model, by
 * file), the dictionary file of the words it needs and the decoder flags it is searched with, and carries one whole
 * utterance of audio. The answer is what pocketsphinx's `-backtrace yes` log holds (server/voice/backtrace.ts): the
 * hypothesis, its score and the words of the best path with their frames and acoustic and language scores.
 *
 * Same audio, same answer, whatever was decoded before:
 *   - the utterance is decoded at once (full_utt), its features normalised by its own cepstral mean (see own_mean),
 *     never by a running mean carried over from earlier audio;
 *   - the dither's random generator is seeded again before each utterance, the front end's noise statistics reset;
 *   - words are added to one dictionary as requests need them; a search only sees its own words (a grammar's words,
 *     a language model's known words), so other words in the dictionary change nothing. Adding words to
 *     pocketsphinx also adds them to every language-model search, so those are dropped first (rebuilt when next
 *     asked for). A word asked for with another pronunciation than the one loaded resets the whole dictionary.
 *
 * Protocol (stdin/stdout, one line each way per request):
 *   request:  id TAB kind TAB search-file TAB dict-file TAB flags TAB base64(PCM16LE mono 16 kHz) NL
 *             kind: jsgf | lm; flags: space-separated "-flag value" pairs among FLAGS below ("" = the defaults).
 *   answer:   {"id":..,"ok":true,"utts":[{"hyp":..,"score":..,"words":[{"word","start","end","ascr","lscr"}]}],
 *              "cpu_ms":..,"search":"cached"|"built"} (utts is [] when nothing was heard)
 *             or {"id":..,"ok":false,"error":".."}: a bad request is refused, the process goes on.
 *   At start: {"ready":true,"pid":..} once the model is loaded, or {"ready":false,"error":".."} and exit 1.
 * Usage: looptale-asr [--cmn=own|batch] HMM_DIR [-flag value ...]   (decoder flags for every search, e.g. -dither yes)
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
#include <sphinxbase/hash_table.h>

#define MAX_LINE (64L * 1024 * 1024)
#define MAX_SEARCHES 48

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

static ps_decoder_t *ps;
static cmd_ln_t *config;
static double defaults[N_FLAGS];
static long seed = 1;
/* How features are normalised: own (default, see own_mean) or the model's batch normalisation. */
static enum { NORM_OWN, NORM_BATCH } cmn_mode = NORM_OWN;
static mfcc_t default_mean[64];

typedef struct {
    char name[16];
    char *kind, *path, *flags;
    time_t mtime;
    long mtime_ns;
    off_t size;
    unsigned long used;
} search_t;
static search_t searches[MAX_SEARCHES];
static int n_searches = 0;
static unsigned long clock_tick = 0, next_name = 0;

/* Words loaded in the dictionary (with "(2)" marks for alternatives) -> pronunciation; and per base word how many. */
static hash_table_t *words;
static hash_table_t *alternatives;
static glist_t word_keys = NULL; /* owned strings of both tables */


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

static void set_flag(size_t i, double v) {
    if (FLAGS[i].type == T_FLOAT) cmd_ln_set_float_r(config, FLAGS[i].name, v);
    else cmd_ln_set_int_r(config, FLAGS[i].name, (long)v);
}

/* Parses "-flag value ..." (NULL err: apply to the configuration after resetting every flag to its default). */
static int apply_flags(const char *flags, const char **bad) {
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
    for (size_t i = 0; i < N_FLAGS; i++) set_flag(i, given[i] ? values[i] : defaults[i]);
    return 0;
}

/* ---- dictionary ---- */

static void forget_searches(int lm_only) {
    for (int i = 0; i < n_searches;) {
        if (lm_only && strcmp(searches[i].kind, "lm") != 0) {
            i++;
            continue;
        }
        ps_unset_search(ps, searches[i].name);
        free(searches[i].kind);
        free(searches[i].path);
        free(searches[i].flags);
        searches[i] = searches[--n_searches];
    }
}

static void keep_key(char *k) {
    word_keys = glist_add_ptr(word_keys, k);
}

static int reset_dictionary(void) {
    forget_searches(0);
    hash_table_empty(words);
    hash_table_empty(alternatives);
    for (gnode_t *g = word_keys; g; g = gnode_next(g)) ckd_free(gnode_ptr(g));
    glist_free(word_keys);
    word_keys = NULL;
    return ps_load_dict(ps, "/dev/null", NULL, NULL);
}

typedef struct {
    char *word, *pron;
} entry_t;

static char *base_of(const char *word) {
    char *b = strdup(word);
    char *paren = strrchr(b, '(');
    if (paren && paren != b && b[strlen(b) - 1] == ')') *paren = '\0';
    return b;
}

/* Reads a dictionary file: "word PH ON ES" per line, pronunciations normalised to single spaces. */
static int read_dict(const char *path, entry_t **out, int *n_out, const char **why) {
    FILE *f = fopen(path, "r");
    if (!f) {
        *why = "cannot open the dictionary %s";
        return -1;
    }
    int n = 0, cap = 64;
    entry_t *list = malloc(cap * sizeof *list);
    char *line = NULL;
    size_t len = 0;
    while (getline(&line, &len, f) >= 0) {
        char *save = NULL, *word = strtok_r(line, " \t\r\n", &save);
        if (!word) continue;
        char pron[4096] = "";
        size_t used = 0;
        int phones = 0;
        for (char *ph = strtok_r(NULL, " \t\r\n", &save); ph; ph = strtok_r(NULL, " \t\r\n", &save)) {
            size_t l = strlen(ph);
            if (used + l + 2 >= sizeof pron) break;
            if (used) pron[used++] = ' ';
            memcpy(pron + used, ph, l + 1);
            used += l;
            phones++;
        }
        if (phones == 0) continue;
        if (n == cap) list = realloc(list, (cap *= 2) * sizeof *list);
        list[n].word = strdup(word);
        list[n].pron = strdup(pron);
        n++;
    }
    free(line);
    fclose(f);
    *out = list;
    *n_out = n;
    return 0;
}

static void free_entries(entry_t *list, int n) {
    for (int i = 0; i < n; i++) {
        free(list[i].word);
        free(list[i].pron);
    }
    free(list);
}

/* Makes the loaded dictionary hold the request's words with exactly its pronunciations. */
static int load_words(const char *path, const char **why) {
    if (!*path) return 0;
    entry_t *list;
    int n;
    if (read_dict(path, &list, &n, why) < 0) return -1;
    /* How many pronunciations each base word has in the request. */
    hash_table_t *counts = hash_table_new(n + 1, HASH_CASE_YES);
    glist_t count_keys = NULL;
    int conflict = 0, missing = 0;
    for (int i = 0; i < n; i++) {
        char *b = base_of(list[i].word);
        void *v;
        if (hash_table_lookup(counts, b, &v) == 0) {
            hash_table_replace(counts, b, (void *)((long)v + 1));
            free(b);
        } else {
            hash_table_enter(counts, b, (void *)1L);
            count_keys = glist_add_ptr(count_keys, b);
        }
        if (hash_table_lookup(words, list[i].word, &v) == 0) {
            if (strcmp((const char *)v, list[i].pron) != 0) conflict = 1;
        } else missing = 1;
    }
    for (gnode_t *g = count_keys; g && !conflict; g = gnode_next(g)) {
        void *have, *want;
        hash_table_lookup(counts, gnode_ptr(g), &want);
        if (hash_table_lookup(alternatives, gnode_ptr(g), &have) == 0 && (long)have != (long)want) conflict = 1;
    }
    int rv = 0;
    if (conflict) {
        if (reset_dictionary() < 0) {
            *why = "cannot reset the dictionary%s";
            rv = -1;
        }
        missing = 1;
    }
    if (rv == 0 && missing) {
        /* Adding words adds them to every language-model search too: those go first. */
        forget_searches(1);
        for (int i = 0; i < n && rv == 0; i++) {
            void *v;
            if (hash_table_lookup(words, list[i].word, &v) == 0) continue;
            if (ps_add_word(ps, list[i].word, list[i].pron, FALSE) < 0) {
                *why = "cannot add a word of %s (unknown phone?)";
                rv = -1;
                break;
            }
            char *w = strdup(list[i].word), *p = strdup(list[i].pron);
            hash_table_enter(words, w, p);
            keep_key(w);
            keep_key(p);
            char *b = base_of(list[i].word);
            if (hash_table_lookup(alternatives, b, &v) == 0) {
                hash_table_replace(alternatives, b, (void *)((long)v + 1));
                free(b);
            } else {
                hash_table_enter(alternatives, b, (void *)1L);
                keep_key(b);
            }
        }
        /* A failed add leaves the dictionary partly changed: start again from an empty one next time. */
        if (rv < 0) reset_dictionary();
    }
    for (gnode_t *g = count_keys; g; g = gnode_next(g)) free(gnode_ptr(g));
    glist_free(count_keys);
    hash_table_free(counts);
    free_entries(list, n);
    return rv;
}

/* ---- searches ---- */

static int find_search(const char *kind, const char *path, const char *flags, const struct stat *st) {
    for (int i = 0; i < n_searches; i++) {
        search_t *s = &searches[i];
        if (strcmp(s->kind, kind) == 0 && strcmp(s->path, path) == 0 && strcmp(s->flags, flags) == 0 && s->mtime == st->st_mtim.tv_sec
            && s->mtime_ns == st->st_mtim.tv_nsec && s->size == st->st_size)
            return i;
    }
    return -1;
}

static int build_search(const char *kind, const char *path, const char *flags, const struct stat *st, const char **why) {
    if (n_searches == MAX_SEARCHES) {
        int oldest = 0;
        for (int i = 1; i < n_searches; i++)
            if (searches[i].used < searches[oldest].used) oldest = i;
        ps_unset_search(ps, searches[oldest].name);
        free(searches[oldest].kind);
        free(searches[oldest].path);
        free(searches[oldest].flags);
        searches[oldest] = searches[--n_searches];
    }
    search_t *s = &searches[n_searches];
    snprintf(s->name, sizeof s->name, "s%lu", next_name++);
    int rv = strcmp(kind, "lm") == 0 ? ps_set_lm_file(ps, s->name, path) : ps_set_jsgf_file(ps, s->name, path);
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
    return n_searches++;
}

/* ---- feature normalisation ---- */

/* The utterance's own cepstral mean (over the frames the decode will see, those of non-negative energy, as
 * pocketsphinx's own means are), made the starting point of a live normalisation: features normalised as
 * by the model's `-cmn batch`, except that frames of near-zero energy (the digital quiet around trimmed speech) are
 * left as they are, as live normalisation leaves them. With plain batch normalisation those frames fall far below any
 * silence the model was trained on, and "Down to the tide caves" (fixture m3) was heard as silence and then a decoy. */
static void own_mean(const int16 *pcm, size_t samples) {
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
    int32 nfr = 0, ntail = 0;
    fe_process_frames(fe, NULL, &left, NULL, &nfr, NULL);
    mfcc_t **cep = (mfcc_t **)ckd_calloc_2d((size_t)nfr + 2, (size_t)veclen, sizeof(mfcc_t));
    const int16 *p = pcm;
    left = samples;
    if (fe_process_frames(fe, &p, &left, cep, &nfr, NULL) >= 0) {
        fe_end_utt(fe, cep[nfr], &ntail);
        nfr += ntail;
        for (int f = 0; f < nfr; f++) {
            if (cep[f][0] < 0) continue;
            for (int i = 0; i < veclen; i++) sum[i] += cep[f][i];
            used++;
        }
    }
    ckd_free_2d(cep);
    for (int i = 0; i < veclen; i++) mean[i] = used > 0 ? (mfcc_t)(sum[i] / used) : default_mean[i];
    fcb->cmn = CMN_LIVE;
    cmn_live_set(fcb->cmn_struct, mean);
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
    if (apply_flags(flags, &bad) < 0) {
        refuse(id, "bad decoder flags '%s'", bad);
        return;
    }
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
    if (load_words(dict, &why) < 0) {
        refuse(id, why, dict);
        return;
    }
    int built = 0;
    int at = find_search(kind, path, flags, &st);
    if (at < 0) {
        at = build_search(kind, path, flags, &st, &why);
        if (at < 0) {
            refuse(id, why, path);
            return;
        }
        built = 1;
    }
    searches[at].used = ++clock_tick;
    if (ps_set_search(ps, searches[at].name) < 0) {
        refuse(id, "cannot select the search for %s", path);
        return;
    }
    size_t samples = (size_t)bytes / 2;
    int16 *pcm = malloc(samples * sizeof(int16) + 2);
    memcpy(pcm, audio, (size_t)bytes);
    if (cmn_mode == NORM_OWN) own_mean(pcm, samples);
    /* The same audio gives the same answer: the dither's generator and the front end start afresh. */
    genrand_seed((unsigned long)seed);
    ps_start_stream(ps);
    if (ps_start_utt(ps) < 0) {
        free(pcm);
        refuse(id, "cannot start an utterance%s", NULL);
        return;
    }
    int frames = samples > 0 ? ps_process_raw(ps, pcm, samples, FALSE, TRUE) : 0;
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
    if (argc >= 3 && strncmp(argv[1], "--cmn=", 6) == 0) {
        if (strcmp(argv[1] + 6, "batch") == 0) cmn_mode = NORM_BATCH;
        else if (strcmp(argv[1] + 6, "own") != 0) argc = 0;
        argv++;
        argc--;
    }
    if (argc < 2 || argc % 2 != 0) {
        fprintf(stderr, "usage: looptale-asr [--cmn=own|batch] HMM_DIR [-flag value ...]\n");
        return 2;
    }
    err_set_logfp(NULL);
    /* Decoder flags: the model, an empty dictionary (requests bring their words), no log; then the caller's. */
    int n_args = 6 + (argc - 2);
    char **args = calloc((size_t)n_args + 1, sizeof(char *));
    args[0] = "-hmm";
    args[1] = argv[1];
    args[2] = "-dict";
    args[3] = "/dev/null";
    args[4] = "-logfn";
    args[5] = "/dev/null";
    for (int i = 2; i < argc; i++) args[6 + i - 2] = argv[i];
    config = cmd_ln_parse_r(NULL, ps_args(), n_args, args, FALSE);
    if (config) ps = ps_init(config);
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
    words = hash_table_new(4096, HASH_CASE_YES);
    alternatives = hash_table_new(4096, HASH_CASE_YES);
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
    ps_free(ps);
    cmd_ln_free_r(config);
    return 0;
}
