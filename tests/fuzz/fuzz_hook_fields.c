/* Fuzz target: the input is one hook line. The fast scan must take only
 * lines jansson reads as an object, with jansson's fields
 * (hook_fields_agree.h); it aborts otherwise. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hook_fields_agree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[512];
    int taken;
    if (hook_fields_agree((const char *)data, size, &taken, why, sizeof why) < 0) {
        fprintf(stderr, "fuzz_hook_fields: %s\n", why);
        abort();
    }
    return 0;
}
