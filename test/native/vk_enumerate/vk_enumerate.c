/* vk_enumerate [--loader PATH] [--out FILE] [--layer NAME]... [--extension NAME]... [--query-layer NAME]... [--create]
 *              [--devices] [--device-capacity N] [--maps TEXT] [--device-query NAME]... [--device-extension NAME]...
 *              [--app-name NAME] [--app-version N] [--engine-name NAME] [--engine-version N] [--api-version N]
 *
 * Loads the system Khronos Vulkan loader (default libvulkan.so.1) with dlopen and writes JSON:
 *   layers:          vkEnumerateInstanceLayerProperties (result and list)
 *   extensions:      vkEnumerateInstanceExtensionProperties(NULL)
 *   layerExtensions: vkEnumerateInstanceExtensionProperties(name) for every layer listed, and for
 *                    every --query-layer NAME (listed or not: an unknown name shows its result)
 *   create:          with --create, the result of vkCreateInstance with the given layers and
 *                    extensions (then vkDestroyInstance); --app-name, --app-version, --engine-name,
 *                    --engine-version and --api-version (a packed number) fill its VkApplicationInfo
 *                    (default: no names, versions 0, apiVersion 1.0, or 1.1 with --devices)
 *   devices, groups: with --devices (implies --create, apiVersion 1.1), the physical devices'
 *                    names in vkEnumeratePhysicalDevices order (with the size query's result and
 *                    count), and vkEnumeratePhysicalDeviceGroups' groups as lists of names
 *   capped:          with --device-capacity N (implies --devices), one vkEnumeratePhysicalDevices
 *                    fill call with room for N devices: its result, count and names
 *   deviceExtensions: with --device-query NAME (implies --devices; "-" stands for NULL), the first
 *                    physical device's vkEnumerateDeviceExtensionProperties(NAME), keyed by NAME
 *   deviceCreate:    with --device-query or --device-extension, vkCreateDevice on the first
 *                    physical device (queue family 0) with the --device-extension names
 *   mapped:          with --maps TEXT, at the end (after vkDestroyInstance): the files mapped into
 *                    the process (/proc/self/maps) whose path contains TEXT, each once
 * The JSON goes to FILE (default stdout), apart from the loader's VK_LOADER_DEBUG output (stderr). */
#include <vulkan/vulkan.h>

#include "json_out.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

static PFN_vkGetInstanceProcAddr gipa;

/* The mapped files whose path contains `needle`, each once, in /proc/self/maps order. */
static void mapped_json(FILE *f, const char *needle) {
    char seen[64][512];
    int n = 0;
    fprintf(f, ", \"mapped\": [");
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[1024];
    while (maps != NULL && fgets(line, sizeof(line), maps) != NULL) {
        char *file = strchr(line, '/');
        if (file == NULL || strstr(file, needle) == NULL) continue;
        file[strcspn(file, "\n")] = '\0';
        int dup = 0;
        for (int i = 0; i < n && !dup; ++i) dup = strcmp(seen[i], file) == 0;
        if (dup || n == 64) continue;
        snprintf(seen[n], sizeof(seen[n]), "%s", file);
        fprintf(f, "%s", n ? ", " : "");
        json_string(f, seen[n]);
        ++n;
    }
    if (maps != NULL) fclose(maps);
    fprintf(f, "]");
}

static void extensions_json(FILE *f, const char *layer) {
    PFN_vkEnumerateInstanceExtensionProperties enumerate =
        (PFN_vkEnumerateInstanceExtensionProperties)gipa(VK_NULL_HANDLE, "vkEnumerateInstanceExtensionProperties");
    uint32_t count = 0;
    VkResult r = enumerate(layer, &count, NULL);
    VkExtensionProperties *props = NULL;
    if (r == VK_SUCCESS && count > 0) {
        props = calloc(count, sizeof(*props));
        r = enumerate(layer, &count, props);
    }
    fprintf(f, "{\"result\": %d, \"list\": [", (int)r);
    if (r == VK_SUCCESS) {
        for (uint32_t i = 0; i < count; ++i) {
            fprintf(f, "%s{\"extensionName\": ", i ? ", " : "");
            json_string(f, props[i].extensionName);
            fprintf(f, ", \"specVersion\": %u}", props[i].specVersion);
        }
    }
    fprintf(f, "]}");
    free(props);
}

static void device_name_json(FILE *f, VkInstance instance, VkPhysicalDevice device) {
    PFN_vkGetPhysicalDeviceProperties props_of = (PFN_vkGetPhysicalDeviceProperties)gipa(instance, "vkGetPhysicalDeviceProperties");
    VkPhysicalDeviceProperties props;
    memset(&props, 0, sizeof(props));
    props_of(device, &props);
    json_string(f, props.deviceName);
}

/* vkEnumerateDeviceExtensionProperties(layer) of `device`, as {result, list}. */
static void device_extensions_json(FILE *f, VkInstance instance, VkPhysicalDevice device, const char *layer) {
    PFN_vkEnumerateDeviceExtensionProperties enumerate =
        (PFN_vkEnumerateDeviceExtensionProperties)gipa(instance, "vkEnumerateDeviceExtensionProperties");
    uint32_t count = 0;
    VkResult r = enumerate(device, layer, &count, NULL);
    VkExtensionProperties *props = NULL;
    if (r == VK_SUCCESS && count > 0) {
        props = calloc(count, sizeof(*props));
        r = enumerate(device, layer, &count, props);
    }
    fprintf(f, "{\"result\": %d, \"list\": [", (int)r);
    for (uint32_t i = 0; r == VK_SUCCESS && i < count; ++i) {
        fprintf(f, "%s{\"extensionName\": ", i ? ", " : "");
        json_string(f, props[i].extensionName);
        fprintf(f, ", \"specVersion\": %u}", props[i].specVersion);
    }
    fprintf(f, "]}");
    free(props);
}

/* The first physical device's extension lists for each query, then vkCreateDevice with `exts`. */
static void device_json(FILE *f, VkInstance instance, const char *const *queries, uint32_t query_count, const char *const *exts,
                        uint32_t ext_count) {
    PFN_vkEnumeratePhysicalDevices enumerate = (PFN_vkEnumeratePhysicalDevices)gipa(instance, "vkEnumeratePhysicalDevices");
    uint32_t count = 1;
    VkPhysicalDevice device = VK_NULL_HANDLE;
    VkResult r = enumerate(instance, &count, &device);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
        fprintf(f, ", \"deviceCreate\": {\"result\": %d}", r != VK_SUCCESS && r != VK_INCOMPLETE ? (int)r : 1);
        return;
    }
    fprintf(f, ", \"deviceExtensions\": {");
    for (uint32_t i = 0; i < query_count; ++i) {
        fprintf(f, "%s", i ? ", " : "");
        json_string(f, queries[i]);
        fprintf(f, ": ");
        device_extensions_json(f, instance, device, strcmp(queries[i], "-") == 0 ? NULL : queries[i]);
    }
    fprintf(f, "}");
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = 0, .queueCount = 1,
                                     .pQueuePriorities = &priority};
    VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue,
                               .enabledExtensionCount = ext_count, .ppEnabledExtensionNames = exts};
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(instance, "vkCreateDevice");
    VkDevice created = VK_NULL_HANDLE;
    r = create(device, &info, NULL, &created);
    fprintf(f, ", \"deviceCreate\": {\"result\": %d}", (int)r);
    if (r == VK_SUCCESS) {
        PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice)gipa(instance, "vkDestroyDevice");
        destroy(created, NULL);
    }
}

static void devices_json(FILE *f, VkInstance instance, long capacity) {
    PFN_vkEnumeratePhysicalDevices enumerate = (PFN_vkEnumeratePhysicalDevices)gipa(instance, "vkEnumeratePhysicalDevices");
    uint32_t count = 0;
    VkResult r = enumerate(instance, &count, NULL);
    const VkResult size_result = r;
    const uint32_t size_count = count;
    VkPhysicalDevice *list = calloc(count + 1, sizeof(*list));
    if (r == VK_SUCCESS) r = enumerate(instance, &count, list);
    fprintf(f, ", \"devices\": {\"sizeResult\": %d, \"sizeCount\": %u, \"result\": %d, \"list\": [", (int)size_result, size_count, (int)r);
    for (uint32_t i = 0; r == VK_SUCCESS && i < count; ++i) {
        fprintf(f, "%s", i ? ", " : "");
        device_name_json(f, instance, list[i]);
    }
    fprintf(f, "]}");
    free(list);
    if (capacity >= 0) {
        /* One fill call with room for `capacity` devices (no size query first). */
        uint32_t n = (uint32_t)capacity;
        list = calloc(n + 1, sizeof(*list));
        r = enumerate(instance, &n, list);
        fprintf(f, ", \"capped\": {\"result\": %d, \"count\": %u, \"list\": [", (int)r, n);
        for (uint32_t i = 0; r >= 0 && i < n; ++i) {
            fprintf(f, "%s", i ? ", " : "");
            device_name_json(f, instance, list[i]);
        }
        fprintf(f, "]}");
        free(list);
    }
    PFN_vkEnumeratePhysicalDeviceGroups groups_of = (PFN_vkEnumeratePhysicalDeviceGroups)gipa(instance, "vkEnumeratePhysicalDeviceGroups");
    count = 0;
    r = groups_of(instance, &count, NULL);
    VkPhysicalDeviceGroupProperties *groups = calloc(count + 1, sizeof(*groups));
    for (uint32_t g = 0; g < count; ++g) groups[g].sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES;
    if (r == VK_SUCCESS) r = groups_of(instance, &count, groups);
    fprintf(f, ", \"groups\": {\"result\": %d, \"list\": [", (int)r);
    for (uint32_t g = 0; r == VK_SUCCESS && g < count; ++g) {
        fprintf(f, "%s[", g ? ", " : "");
        for (uint32_t i = 0; i < groups[g].physicalDeviceCount; ++i) {
            fprintf(f, "%s", i ? ", " : "");
            device_name_json(f, instance, groups[g].physicalDevices[i]);
        }
        fprintf(f, "]");
    }
    fprintf(f, "]}");
    free(groups);
}

int main(int argc, char **argv) {
    const char *loader_path = "libvulkan.so.1";
    int devices = 0;
    const char *out_path = NULL;
    const char *layers[MAX_ARGS];
    const char *exts[MAX_ARGS];
    const char *queries[MAX_ARGS];
    const char *device_queries[MAX_ARGS];
    const char *device_exts[MAX_ARGS];
    uint32_t layer_count = 0, ext_count = 0, query_count = 0, device_query_count = 0, device_ext_count = 0;
    int create = 0;
    const char *maps_needle = NULL;
    const char *app_name = NULL, *engine_name = NULL;
    uint32_t app_version = 0, engine_version = 0, api_version = 0;
    int api_version_set = 0;
    long device_capacity = -1;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--loader") == 0 && i + 1 < argc) loader_path = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out_path = argv[++i];
        else if (strcmp(argv[i], "--layer") == 0 && i + 1 < argc && layer_count < MAX_ARGS) layers[layer_count++] = argv[++i];
        else if (strcmp(argv[i], "--extension") == 0 && i + 1 < argc && ext_count < MAX_ARGS) exts[ext_count++] = argv[++i];
        else if (strcmp(argv[i], "--query-layer") == 0 && i + 1 < argc && query_count < MAX_ARGS) queries[query_count++] = argv[++i];
        else if (strcmp(argv[i], "--create") == 0) create = 1;
        else if (strcmp(argv[i], "--devices") == 0) create = devices = 1;
        else if (strcmp(argv[i], "--device-capacity") == 0 && i + 1 < argc) {
            device_capacity = strtol(argv[++i], NULL, 10);
            create = devices = 1;
        }
        else if (strcmp(argv[i], "--device-query") == 0 && i + 1 < argc && device_query_count < MAX_ARGS) {
            device_queries[device_query_count++] = argv[++i];
            create = devices = 1;
        } else if (strcmp(argv[i], "--device-extension") == 0 && i + 1 < argc && device_ext_count < MAX_ARGS) {
            device_exts[device_ext_count++] = argv[++i];
            create = devices = 1;
        }
        else if (strcmp(argv[i], "--maps") == 0 && i + 1 < argc) maps_needle = argv[++i];
        else if (strcmp(argv[i], "--app-name") == 0 && i + 1 < argc) app_name = argv[++i];
        else if (strcmp(argv[i], "--engine-name") == 0 && i + 1 < argc) engine_name = argv[++i];
        else if (strcmp(argv[i], "--app-version") == 0 && i + 1 < argc) app_version = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--engine-version") == 0 && i + 1 < argc) engine_version = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--api-version") == 0 && i + 1 < argc) {
            api_version = (uint32_t)strtoul(argv[++i], NULL, 0);
            api_version_set = 1;
        }
        else {
            fprintf(stderr, "vk_enumerate: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    void *lib = dlopen(loader_path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "vk_enumerate: %s\n", dlerror());
        return 3;
    }
    gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
    if (gipa == NULL) return 3;
    FILE *f = out_path ? fopen(out_path, "w") : stdout;
    if (f == NULL) return 4;

    PFN_vkEnumerateInstanceLayerProperties enum_layers =
        (PFN_vkEnumerateInstanceLayerProperties)gipa(VK_NULL_HANDLE, "vkEnumerateInstanceLayerProperties");
    uint32_t count = 0;
    VkResult r = enum_layers(&count, NULL);
    VkLayerProperties *props = NULL;
    if (r == VK_SUCCESS && count > 0) {
        props = calloc(count, sizeof(*props));
        r = enum_layers(&count, props);
    }
    fprintf(f, "{\"layers\": {\"result\": %d, \"list\": [", (int)r);
    if (r == VK_SUCCESS) {
        for (uint32_t i = 0; i < count; ++i) {
            fprintf(f, "%s{\"layerName\": ", i ? ", " : "");
            json_string(f, props[i].layerName);
            fprintf(f, ", \"specVersion\": %u, \"implementationVersion\": %u, \"description\": ", props[i].specVersion,
                    props[i].implementationVersion);
            json_string(f, props[i].description);
            fputc('}', f);
        }
    }
    fprintf(f, "]}, \"extensions\": ");
    extensions_json(f, NULL);
    fprintf(f, ", \"layerExtensions\": {");
    for (uint32_t i = 0; r == VK_SUCCESS && i < count; ++i) {
        fprintf(f, "%s", i ? ", " : "");
        json_string(f, props[i].layerName);
        fprintf(f, ": ");
        extensions_json(f, props[i].layerName);
    }
    for (uint32_t i = 0; i < query_count; ++i) {
        fprintf(f, "%s", (r == VK_SUCCESS && count > 0) || i > 0 ? ", " : "");
        json_string(f, queries[i]);
        fprintf(f, ": ");
        extensions_json(f, queries[i]);
    }
    fprintf(f, "}");
    free(props);

    if (create) {
        PFN_vkCreateInstance create_instance = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
        VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                 .pApplicationName = app_name,
                                 .applicationVersion = app_version,
                                 .pEngineName = engine_name,
                                 .engineVersion = engine_version,
                                 .apiVersion = api_version_set ? api_version : devices ? VK_API_VERSION_1_1 : VK_API_VERSION_1_0};
        VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                     .pApplicationInfo = &app,
                                     .enabledLayerCount = layer_count,
                                     .ppEnabledLayerNames = layers,
                                     .enabledExtensionCount = ext_count,
                                     .ppEnabledExtensionNames = exts};
        VkInstance instance = VK_NULL_HANDLE;
        VkResult cr = create_instance(&info, NULL, &instance);
        fprintf(f, ", \"create\": {\"result\": %d}", (int)cr);
        if (cr == VK_SUCCESS && devices) devices_json(f, instance, device_capacity);
        if (cr == VK_SUCCESS && (device_query_count > 0 || device_ext_count > 0))
            device_json(f, instance, device_queries, device_query_count, device_exts, device_ext_count);
        if (cr == VK_SUCCESS) {
            PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)gipa(instance, "vkDestroyInstance");
            if (destroy != NULL) destroy(instance, NULL);
        }
    }
    if (maps_needle != NULL) mapped_json(f, maps_needle);
    fprintf(f, "}\n");
    if (f != stdout) fclose(f);
    return 0;
}
