/*
 * fuzz/fuzz_ini.c - libFuzzer harness: the private INI reader (src/util/ini.h), parsing
 * straight from memory, then the duplicate finder. Checks the documented shape of the
 * result: non-empty keys, line numbers in file order, duplicates in file order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/ini.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    zvp_ini *ini = NULL;
    zvp_error err = {0};
    size_t first = 0, second = 0, prev_line = 0;
    if (zvp_ini_parse("fuzz", (const char *)data, size, &ini, &err) != ZVP_SUCCESS) {
        if (err.message[0] == '\0')
            __builtin_trap(); /* every error has a message */
        zvp_ini_free(ini);
        return 0;
    }
    for (size_t i = 0; i < ini->n_entries; i++) {
        const zvp_ini_entry *e = &ini->entries[i];
        if (!e->section || !e->key || !e->value || e->key[0] == '\0' || e->line < prev_line ||
            e->line == 0)
            __builtin_trap();
        prev_line = e->line;
    }
    int dup = zvp_ini_find_duplicate(ini, &first, &second);
    if (dup == 1 && (first >= second || second >= ini->n_entries ||
                     strcmp(ini->entries[first].section, ini->entries[second].section) != 0 ||
                     strcmp(ini->entries[first].key, ini->entries[second].key) != 0))
        __builtin_trap();
    zvp_ini_free(ini);
    return 0;
}
