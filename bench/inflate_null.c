/* inflate_null FILE: inflates a gzip file with zlib (gzread, 1 MB at a
 * time) to nothing: the decompression alone, as niorep's reader does it,
 * for bench/compressed_bench.sh (`gzip -dc` inflates slower than zlib). */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: inflate_null FILE.gz\n");
        return 2;
    }
    gzFile f = gzopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "inflate_null: cannot open %s\n", argv[1]);
        return 1;
    }
    gzbuffer(f, 1 << 20);
    static char buf[1 << 20];
    unsigned long long total = 0;
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0)
        total += (unsigned long long)n;
    int err;
    const char *msg = gzerror(f, &err);
    gzclose(f);
    if (n < 0 || err != Z_OK) {
        fprintf(stderr, "inflate_null: %s: %s\n", argv[1], msg);
        return 1;
    }
    printf("%llu\n", total);
    return 0;
}
