/*
 * The lab's runtime-independent anchors: native workloads a paired process times in bursts beside its cells, so a ratio
 * across runtimes can be read as a ratio of ratios (cell / anchor on runtime A over cell / anchor on runtime B) in which
 * the machine speed each process saw cancels, as far as the anchor feels it as the cell does.
 *
 * The same source, compiler and flags on every runtime's build give the same machine code whatever runtime loads it
 * (each process reports the library's sha256; the analysis reads a ratio of ratios only between equal ones). Every call
 * does tens of microseconds of work, so the runtime's cost of calling native code (a few ns) is out of the picture.
 *
 *   scan: a JSON tokenizer over a fixed 48 KiB document held in L2 (brackets, strings with escapes, keys hashed, numbers
 *         parsed by hand): byte-at-a-time branchy work like a parser's, in the core and its caches.
 *   walk: dependent loads at pseudo-random 64-byte lines of a 64 MiB buffer: every load misses the caches, so it feels
 *         the memory system a neighbour shares.
 *
 * Inputs are generated from fixed seeds at init; nothing here allocates after it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SCAN_BYTES (48 * 1024)
#define WALK_BYTES (64u * 1024u * 1024u)
#define WALK_LINE 64u
#define WALK_STEPS 256

static char *scan_text;
static size_t scan_length;
static uint32_t *walk_next;

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

static size_t append(char *out, size_t at, const char *text)
{
    size_t n = strlen(text);
    memcpy(out + at, text, n);
    return at + n;
}

/* A document of records {"id":N,"name":"...","score":-12.375,"tags":["a\"b",...],"ok":true}, until SCAN_BYTES. */
static int make_scan_text(void)
{
    static const char *words[] = {"alpha", "bravo", "charlie", "delta\\\"quoted\\\"", "echo\\\\slash", "foxtrot", "golf", "hotel"};
    uint64_t state = 7;
    char number[32];
    size_t at = 0;
    scan_text = malloc(SCAN_BYTES + 256);
    if (!scan_text)
        return -1;
    at = append(scan_text, at, "[");
    for (int record = 0; at < SCAN_BYTES; record++) {
        uint64_t r = next_random(&state);
        at = append(scan_text, at, record ? ",{\"id\":" : "{\"id\":");
        for (int i = 0, v = record; i < 1 || v; i++, v /= 10)
            number[i] = (char)('0' + v % 10), number[i + 1] = 0;
        for (size_t i = 0, n = strlen(number); i < n / 2; i++) {
            char c = number[i];
            number[i] = number[n - 1 - i];
            number[n - 1 - i] = c;
        }
        at = append(scan_text, at, number);
        at = append(scan_text, at, ",\"name\":\"");
        at = append(scan_text, at, words[r % 8]);
        at = append(scan_text, at, "\",\"score\":");
        at = append(scan_text, at, (r & 1) ? "-" : "");
        number[0] = (char)('1' + r % 9), number[1] = (char)('0' + (r >> 4) % 10), number[2] = '.';
        number[3] = (char)('0' + (r >> 8) % 10), number[4] = (char)('0' + (r >> 12) % 10), number[5] = '5', number[6] = 0;
        at = append(scan_text, at, number);
        at = append(scan_text, at, ",\"tags\":[\"");
        at = append(scan_text, at, words[(r >> 3) % 8]);
        at = append(scan_text, at, "\",\"");
        at = append(scan_text, at, words[(r >> 6) % 8]);
        at = append(scan_text, at, (r >> 9) & 1 ? "\"],\"ok\":true}" : "\"],\"ok\":false}");
    }
    at = append(scan_text, at, "]");
    scan_length = at;
    return 0;
}

/* One cycle through WALK_BYTES / WALK_LINE lines in a random order (Sattolo's shuffle): each load depends on the last. */
static int make_walk(void)
{
    uint32_t lines = WALK_BYTES / WALK_LINE, stride = WALK_LINE / sizeof(uint32_t);
    uint32_t *order = malloc(sizeof(uint32_t) * lines);
    uint64_t state = 11;
    walk_next = malloc(WALK_BYTES);
    if (!order || !walk_next) {
        free(order);
        return -1;
    }
    for (uint32_t i = 0; i < lines; i++)
        order[i] = i;
    for (uint32_t i = lines - 1; i > 0; i--) {
        uint32_t j = (uint32_t)(next_random(&state) % i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    memset(walk_next, 0, WALK_BYTES);
    for (uint32_t i = 0; i < lines; i++)
        walk_next[order[i] * stride] = order[(i + 1) % lines] * stride;
    free(order);
    return 0;
}

/* 0 when both inputs are ready; call once per process before timing. */
int jsonlab_anchor_init(void)
{
    if (scan_text && walk_next)
        return 0;
    return make_scan_text() == 0 && make_walk() == 0 ? 0 : -1;
}

/* The scan: tokens seen, key hashes and number values folded into one checksum (the same on every call). */
uint64_t jsonlab_anchor_scan(void)
{
    uint64_t checksum = 0, hash = 0;
    int64_t integer = 0, fraction = 0, scale = 1;
    int negative = 0, in_number = 0, after_point = 0;
    for (size_t i = 0; i < scan_length; i++) {
        unsigned char c = (unsigned char)scan_text[i];
        if (c == '"') {
            hash = 1469598103934665603ull;
            for (i++; i < scan_length && scan_text[i] != '"'; i++) {
                if (scan_text[i] == '\\')
                    i++;
                hash = (hash ^ (unsigned char)scan_text[i]) * 1099511628211ull;
            }
            checksum += hash;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9') || (in_number && c == '.')) {
            if (!in_number)
                in_number = 1, negative = c == '-', integer = 0, fraction = 0, scale = 1, after_point = 0;
            if (c == '.')
                after_point = 1;
            else if (c != '-') {
                if (after_point)
                    fraction = fraction * 10 + (c - '0'), scale *= 10;
                else
                    integer = integer * 10 + (c - '0');
            }
            continue;
        }
        if (in_number) {
            double value = (double)integer + (double)fraction / (double)scale;
            checksum += (uint64_t)(int64_t)((negative ? -value : value) * 1000.0);
            in_number = 0;
        }
        switch (c) {
        case '{': case '[': checksum += 3; break;
        case '}': case ']': checksum += 5; break;
        case ':': checksum += 7; break;
        case ',': checksum += 11; break;
        case 't': checksum += 13, i += 3; break;
        case 'f': checksum += 17, i += 4; break;
        default: break;
        }
    }
    return checksum;
}

/* The walk: WALK_STEPS dependent loads from a start that moves with each call, so no two calls walk the same lines. */
uint64_t jsonlab_anchor_walk(void)
{
    static uint32_t position;
    uint32_t at = position;
    for (int i = 0; i < WALK_STEPS; i++)
        at = walk_next[at];
    position = at;
    return at;
}

/* The overhead twin: the same call, no work. */
uint64_t jsonlab_anchor_nothing(void)
{
    return 0;
}
