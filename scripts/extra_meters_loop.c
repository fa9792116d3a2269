/* For a Few Extra Meters, random playouts in plain C: the yardstick of the bulk kernel.

   The same rules as games/extra_meters (the opening roll is 1..5, a later 6 ends the turn
   with one square per die, stop moves the sum; finish=first: the first runner past square
   N wins), the same random policy (roll or stop at even odds) and the same generator as
   dicegames.core.kernel: xoshiro128** seeded by splitmix64, exact uniform integers by
   rejection, one stream for the dice (seed) and one for the policy (~seed). So with the
   same seed it plays exactly the kernel's games; scripts/bench_kernels.py checks that.

   Usage: extra_meters_loop GAMES SEED [PLAYERS [TRACK]]
   Prints one JSON line: games, seconds (CPU), wins of seat 0, moves in all. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { uint32_t s[4]; } rng_t;

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void seed_rng(rng_t *r, uint64_t seed) {
    uint64_t x = seed, a = splitmix64(&x), b = splitmix64(&x);
    r->s[0] = (uint32_t)a; r->s[1] = (uint32_t)(a >> 32);
    r->s[2] = (uint32_t)b; r->s[3] = (uint32_t)(b >> 32);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1;
}

static inline uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

static inline uint32_t next_u32(rng_t *r) {
    uint32_t *s = r->s;
    uint32_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 9;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
}

static inline uint32_t below(rng_t *r, uint32_t n) {
    uint64_t limit = 4294967296ULL - 4294967296ULL % n;
    for (;;) {
        uint32_t x = next_u32(r);
        if (x < limit) return x % n;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s GAMES SEED [PLAYERS [TRACK]]\n", argv[0]); return 2; }
    long games = atol(argv[1]);
    uint64_t seed = strtoull(argv[2], NULL, 10);
    int players = argc > 3 ? atoi(argv[3]) : 2, track = argc > 4 ? atoi(argv[4]) : 50;
    rng_t dice, whims;
    seed_rng(&dice, seed);
    seed_rng(&whims, ~seed);
    long wins0 = 0, moves = 0;
    int pos[8];
    clock_t began = clock();
    for (long g = 0; g < games; g++) {
        for (int p = 0; p < players; p++) pos[p] = 0;
        int player = 0;
        for (;;) {
            int sum = (int)below(&dice, 5) + 1, count = 1, distance;
            moves++;
            for (;;) {
                moves++;
                if (below(&whims, 2) == 1) { distance = sum; break; }  /* stop */
                moves++;
                int face = (int)below(&dice, 6) + 1;
                if (face == 6) { distance = count + 1; break; }
                sum += face; count++;
            }
            pos[player] += distance;
            if (pos[player] > track) break;
            player = (player + 1) % players;
        }
        wins0 += player == 0;
    }
    double seconds = (double)(clock() - began) / CLOCKS_PER_SEC;
    printf("{\"games\": %ld, \"seconds\": %.6f, \"wins0\": %ld, \"moves\": %ld}\n",
           games, seconds, wins0, moves);
    return 0;
}
