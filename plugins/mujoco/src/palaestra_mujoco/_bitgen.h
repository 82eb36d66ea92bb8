/*
 * numpy's C interface to a bit generator (numpy/random/bitgen.h, documented since numpy 1.17): the
 * functions every numpy BitGenerator exports in its "BitGenerator" capsule, declared as numpy declares
 * them, for _compiled.c's draws and _normals.c's standard normal.
 */
#ifndef PALAESTRA_MUJOCO_BITGEN_H
#define PALAESTRA_MUJOCO_BITGEN_H

#include <stdint.h>

typedef struct bitgen {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

#endif
