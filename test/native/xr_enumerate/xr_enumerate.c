/* xr_enumerate [--out FILE] [--layer NAME]... [--extension NAME]... [--create]
 *              [--init [--init-property NAME=VALUE]... [--init-empty-name]]
 *
 * Writes JSON describing what the system OpenXR loader answers:
 *   apiLayers:       xrEnumerateApiLayerProperties (result and list)
 *   extensions:      xrEnumerateInstanceExtensionProperties(NULL)
 *   layerExtensions: xrEnumerateInstanceExtensionProperties(name) for every layer listed, and for
 *                    a name no layer has
 *   create:          with --create, the result of xrCreateInstance with the given layers and
 *                    extensions (then xrDestroyInstance)
 *   init:            with --init, first of all: whether xrGetInstanceProcAddr(XR_NULL_HANDLE,
 *                    "xrInitializeLoaderKHR") resolved it, and the result of calling it with an
 *                    XrLoaderInitInfoPropertiesEXT of the given properties (--init-empty-name adds
 *                    one with an empty name)
 * The JSON goes to FILE (default stdout); FILE keeps it apart from XR_LOADER_DEBUG output, which
 * the Khronos loader prints to stdout. */
#include <openxr/openxr.h>

#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

/* XR_EXT_loader_init_properties, for headers older than the extension (Debian 12's are 1.0.20). */
#ifndef XR_EXT_loader_init_properties
#define XR_TYPE_LOADER_INIT_INFO_PROPERTIES_EXT_VALUE 1000838000
typedef struct XrLoaderInitPropertyValueEXT {
    const char *name;
    const char *value;
} XrLoaderInitPropertyValueEXT;
typedef struct XrLoaderInitInfoPropertiesEXT {
    XrStructureType type;
    const void *next;
    uint32_t propertyValueCount;
    const XrLoaderInitPropertyValueEXT *propertyValues;
} XrLoaderInitInfoPropertiesEXT;
#else
#define XR_TYPE_LOADER_INIT_INFO_PROPERTIES_EXT_VALUE XR_TYPE_LOADER_INIT_INFO_PROPERTIES_EXT
#endif

/* Resolves xrInitializeLoaderKHR with XR_NULL_HANDLE and calls it with the properties given. */
static void init_json(FILE *f, const char **pairs, uint32_t pair_count, int empty_name) {
    PFN_xrVoidFunction fn = NULL;
    XrResult gr = xrGetInstanceProcAddr(XR_NULL_HANDLE, "xrInitializeLoaderKHR", &fn);
    fprintf(f, "\"init\": {\"getProcAddrResult\": %d, \"resolved\": %s", (int)gr, fn != NULL ? "true" : "false");
    if (fn != NULL) {
        XrLoaderInitPropertyValueEXT values[MAX_ARGS + 1];
        char names[MAX_ARGS][256];
        uint32_t n = 0;
        for (uint32_t i = 0; i < pair_count; ++i) {
            const char *eq = strchr(pairs[i], '=');
            size_t len = eq ? (size_t)(eq - pairs[i]) : strlen(pairs[i]);
            if (len >= sizeof(names[0])) len = sizeof(names[0]) - 1;
            memcpy(names[n], pairs[i], len);
            names[n][len] = '\0';
            values[n].name = names[n];
            values[n].value = eq ? eq + 1 : "";
            ++n;
        }
        if (empty_name) {
            values[n].name = "";
            values[n].value = "x";
            ++n;
        }
        XrLoaderInitInfoPropertiesEXT props;
        memset(&props, 0, sizeof(props));
        props.type = (XrStructureType)XR_TYPE_LOADER_INIT_INFO_PROPERTIES_EXT_VALUE;
        props.propertyValueCount = n;
        props.propertyValues = values;
        XrResult r = ((PFN_xrInitializeLoaderKHR)fn)((const XrLoaderInitInfoBaseHeaderKHR *)&props);
        fprintf(f, ", \"result\": %d", (int)r);
    }
    fprintf(f, "},\n ");
}

static void extensions_json(FILE *f, const char *layer) {
    uint32_t count = 0;
    XrResult r = xrEnumerateInstanceExtensionProperties(layer, 0, &count, NULL);
    XrExtensionProperties *props = NULL;
    if (XR_SUCCEEDED(r) && count > 0) {
        props = calloc(count, sizeof(*props));
        for (uint32_t i = 0; i < count; ++i) props[i].type = XR_TYPE_EXTENSION_PROPERTIES;
        r = xrEnumerateInstanceExtensionProperties(layer, count, &count, props);
    }
    fprintf(f, "{\"result\": %d, \"list\": [", (int)r);
    if (XR_SUCCEEDED(r)) {
        for (uint32_t i = 0; i < count; ++i) {
            fprintf(f, "%s{\"name\": ", i ? ", " : "");
            json_string(f, props[i].extensionName);
            fprintf(f, ", \"extensionVersion\": %u}", props[i].extensionVersion);
        }
    }
    fprintf(f, "]}");
    free(props);
}

int main(int argc, char **argv) {
    const char *out_path = NULL;
    const char *layers[MAX_ARGS];
    const char *exts[MAX_ARGS];
    uint32_t layer_count = 0, ext_count = 0;
    int create = 0, init = 0, init_empty_name = 0;
    const char *init_props[MAX_ARGS];
    uint32_t init_prop_count = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out_path = argv[++i];
        else if (strcmp(argv[i], "--layer") == 0 && i + 1 < argc && layer_count < MAX_ARGS) layers[layer_count++] = argv[++i];
        else if (strcmp(argv[i], "--extension") == 0 && i + 1 < argc && ext_count < MAX_ARGS) exts[ext_count++] = argv[++i];
        else if (strcmp(argv[i], "--create") == 0) create = 1;
        else if (strcmp(argv[i], "--init") == 0) init = 1;
        else if (strcmp(argv[i], "--init-empty-name") == 0) init_empty_name = 1;
        else if (strcmp(argv[i], "--init-property") == 0 && i + 1 < argc && init_prop_count < MAX_ARGS) init_props[init_prop_count++] = argv[++i];
        else {
            fprintf(stderr, "usage: xr_enumerate [--out FILE] [--layer NAME]... [--extension NAME]... [--create] "
                            "[--init [--init-property NAME=VALUE]... [--init-empty-name]]\n");
            return 2;
        }
    }
    FILE *f = out_path ? fopen(out_path, "w") : stdout;
    if (f == NULL) {
        perror(out_path);
        return 1;
    }

    fprintf(f, "{");
    if (init) init_json(f, init_props, init_prop_count, init_empty_name);

    uint32_t count = 0;
    XrResult r = xrEnumerateApiLayerProperties(0, &count, NULL);
    XrApiLayerProperties *props = NULL;
    if (XR_SUCCEEDED(r) && count > 0) {
        props = calloc(count, sizeof(*props));
        for (uint32_t i = 0; i < count; ++i) props[i].type = XR_TYPE_API_LAYER_PROPERTIES;
        r = xrEnumerateApiLayerProperties(count, &count, props);
    }
    fprintf(f, "\"apiLayers\": {\"result\": %d, \"list\": [", (int)r);
    if (XR_SUCCEEDED(r)) {
        for (uint32_t i = 0; i < count; ++i) {
            fprintf(f, "%s{\"layerName\": ", i ? ", " : "");
            json_string(f, props[i].layerName);
            fprintf(f, ", \"specVersion\": %llu, \"layerVersion\": %u, \"description\": ",
                    (unsigned long long)props[i].specVersion, props[i].layerVersion);
            json_string(f, props[i].description);
            fputc('}', f);
        }
    } else {
        count = 0;
    }
    fprintf(f, "]},\n \"extensions\": ");
    extensions_json(f, NULL);
    fprintf(f, ",\n \"layerExtensions\": {");
    for (uint32_t i = 0; i < count; ++i) {
        fprintf(f, "%s", i ? ",\n   " : "");
        json_string(f, props[i].layerName);
        fprintf(f, ": ");
        extensions_json(f, props[i].layerName);
    }
    fprintf(f, "%s\"XR_APILAYER_PROBE_no_such_layer\": ", count ? ",\n   " : "");
    extensions_json(f, "XR_APILAYER_PROBE_no_such_layer");
    fprintf(f, "}");
    free(props);

    if (create) {
        XrInstanceCreateInfo info;
        memset(&info, 0, sizeof(info));
        info.type = XR_TYPE_INSTANCE_CREATE_INFO;
        strcpy(info.applicationInfo.applicationName, "xr_enumerate");
        strcpy(info.applicationInfo.engineName, "khronos-loader tests");
        info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
        info.enabledApiLayerCount = layer_count;
        info.enabledApiLayerNames = layers;
        info.enabledExtensionCount = ext_count;
        info.enabledExtensionNames = exts;
        XrInstance instance = XR_NULL_HANDLE;
        XrResult cr = xrCreateInstance(&info, &instance);
        XrResult dr = XR_SUCCESS;
        if (XR_SUCCEEDED(cr)) dr = xrDestroyInstance(instance);
        fprintf(f, ",\n \"create\": {\"result\": %d, \"destroyResult\": %d}", (int)cr, (int)dr);
    }
    fprintf(f, "}\n");
    if (f != stdout) fclose(f);
    return 0;
}
