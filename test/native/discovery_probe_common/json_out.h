/* Shared by the enumerate probes (xr_enumerate, vk_enumerate): a C string as a JSON string. */
#ifndef DISCOVERY_PROBE_JSON_OUT_H
#define DISCOVERY_PROBE_JSON_OUT_H

#include <stdio.h>

static inline void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

#endif
