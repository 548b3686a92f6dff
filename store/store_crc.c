/* store_crc: the checksum of chunks and of the footer (zlib's CRC-32). */
#include <zlib.h>

#include "store_internal.h"

uint32_t nr__store_crc32(const void *p, size_t n)
{
    const unsigned char *q = p;
    uLong crc = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        uInt step = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = crc32(crc, q, step);
        q += step;
        n -= step;
    }
    return (uint32_t)crc;
}
