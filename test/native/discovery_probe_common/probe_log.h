/* Shared by the discovery probe runtime and layer: append one line to the file named by
 * PROBE_LOG, so a test can see which runtime the loader picked and in what order layers were
 * negotiated and entered. Also tells each copy of a library where it was loaded from. */
#ifndef DISCOVERY_PROBE_LOG_H
#define DISCOVERY_PROBE_LOG_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static inline const char *probe_self_path(void) {
    Dl_info info;
    if (dladdr((void *)&probe_self_path, &info) != 0 && info.dli_fname != NULL) return info.dli_fname;
    return "?";
}

static inline void probe_log(const char *fmt, ...) {
    const char *file = getenv("PROBE_LOG");
    if (file == NULL || file[0] == '\0') return;
    FILE *f = fopen(file, "a");
    if (f == NULL) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

#endif
