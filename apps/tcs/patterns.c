#include "patterns.h"

uint64_t pat_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint32_t pat_word(int a, int b, size_t w, int r)
{
    return (uint32_t)pat_mix(((uint64_t)(a + 1) << 40) ^
                             ((uint64_t)(b + 2) << 32) ^ ((uint64_t)r << 24) ^
                             w);
}

static int lg2(int v)
{
    int l = 0;
    while ((1 << l) < v)
        l++;
    return l;
}

int pat_z_rank(int id, int w, int h)
{
    int bx = 0, by = 0, nx = lg2(w), ny = lg2(h), x = 0, y = 0;
    for (int b = 0; b < nx + ny; b++) {
        int bit = (id >> b) & 1;
        if ((b % 2 == 0 && bx < nx) || by >= ny)
            x |= bit << bx++;
        else
            y |= bit << by++;
    }
    return y * w + x;
}

int pat_rb_role_z(int mi, int k, int *partner)
{
    if (mi % (1 << k))
        return 0;
    *partner = mi ^ (1 << k);
    return mi & (1 << k) ? -1 : 1;
}
