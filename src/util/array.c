/* src/util/array.c - growable arrays (see ZVP_GROW in src/internal.h). */
#include <stdint.h>
#include <stdlib.h>
#include "internal.h"

void *zvp_grow(void *ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return ptr;
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return ptr;
        n *= 2;
    }
    if (elem && n > SIZE_MAX / elem)
        return ptr;
    void *p = realloc(ptr, n * elem);
    if (!p)
        return ptr;
    *cap = n;
    return p;
}
