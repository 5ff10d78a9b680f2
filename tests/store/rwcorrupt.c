/*
  rwcorrupt FILE SEED: damages FILE in place the way trial SEED of
  t307-fuzz.sh says, and prints what it did, so that any trial can be
  replayed by hand.  The damage is a pure function of the seed and the file:

    seed % 8 in 0..2  flip 1-8 random bits anywhere in the file
               3      overwrite a random run of 1-64 bytes with random bytes
               4      truncate the file at a random length
               5..6   flip 1-4 bits near a rewind attribute's name (its
                      attribute message: header, datatype, dataspace, value)
                      or an object header's signature (its first messages:
                      a dataset's dataspace, datatype and layout)
               7      overwrite 1-16 bytes near one of those

  The generator is splitmix64, written out here so that a seed means the same
  damage on every machine (rand() does not).  No HDF5: the point is damage
  HDF5 was not told about.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t next(uint64_t *s)
{
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);

  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* uniform in [0, n), n > 0 */
static size_t below(uint64_t *s, size_t n)
{
  return (size_t)(next(s) % (uint64_t)n);
}

/* The offsets of every occurrence of the names rewind gives its attributes */
static size_t find_names(const unsigned char *buf, size_t len, size_t *at, size_t max)
{
  static const char *names[] = {"format", "identity", "slots", "layout", "model", "dim", "grid", "dof", "step", "time", "checksum", "valid", "attachment", "record", "OHDR", "OCHK", NULL};
  size_t             n       = 0;

  for (int i = 0; names[i]; i++) {
    size_t nl = strlen(names[i]);

    for (size_t o = 0; o + nl <= len && n < max; o++)
      if (!memcmp(buf + o, names[i], nl)) at[n++] = o;
  }
  return n;
}

/* An offset in the attribute message around a name, inside the file */
static size_t near_name(uint64_t *s, const unsigned char *buf, size_t len)
{
  size_t at[1024], n = find_names(buf, len, at, 1024), lo, hi;

  if (!n) return below(s, len);
  lo = at[below(s, n)];
  hi = lo + 96 < len ? lo + 96 : len;
  lo = lo > 32 ? lo - 32 : 0;
  return lo + below(s, hi - lo);
}

int main(int argc, char **argv)
{
  unsigned char *buf;
  size_t         len, k, o;
  uint64_t       seed, s;
  FILE          *f;
  long           end;

  if (argc != 3) {
    fprintf(stderr, "usage: rwcorrupt FILE SEED\n");
    return 2;
  }
  seed = strtoull(argv[2], NULL, 10);
  s    = seed;
  if (!(f = fopen(argv[1], "r+b")) || fseek(f, 0, SEEK_END) || (end = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET)) {
    perror(argv[1]);
    return 2;
  }
  len = (size_t)end;
  if (!(buf = malloc(len)) || fread(buf, 1, len, f) != len) {
    perror(argv[1]);
    return 2;
  }
  printf("seed %llu:", (unsigned long long)seed);
  switch (seed % 8) {
  case 0:
  case 1:
  case 2:
  case 5:
  case 6:
    k = seed % 8 < 5 ? 1 + below(&s, 8) : 1 + below(&s, 4);
    printf(" flip");
    for (size_t i = 0; i < k; i++) {
      int bit = (int)below(&s, 8);

      o = seed % 8 < 5 ? below(&s, len) : near_name(&s, buf, len);
      buf[o] ^= (unsigned char)(1u << bit);
      printf(" %zu.%d", o, bit);
    }
    break;
  case 3:
  case 7:
    k = seed % 8 == 3 ? 1 + below(&s, 64) : 1 + below(&s, 16);
    o = seed % 8 == 3 ? below(&s, len) : near_name(&s, buf, len);
    if (o + k > len) k = len - o;
    for (size_t i = 0; i < k; i++) buf[o + i] = (unsigned char)next(&s);
    printf(" overwrite %zu bytes at %zu", k, o);
    break;
  case 4:
    k = below(&s, len);
    printf(" truncate to %zu of %zu bytes\n", k, len);
    fclose(f);
    return truncate(argv[1], (off_t)k) ? (perror(argv[1]), 2) : 0;
  }
  printf("\n");
  if (fseek(f, 0, SEEK_SET) || fwrite(buf, 1, len, f) != len || fclose(f)) {
    perror(argv[1]);
    return 2;
  }
  free(buf);
  return 0;
}
