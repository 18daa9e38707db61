/* xr_script --out FILE [--invalid-handle]
 *
 * The scripted sequence of the Monado differential, through the system Khronos OpenXR loader on
 * the runtime XR_RUNTIME_JSON names (layers through XR_ENABLE_API_LAYERS), written as JSON to
 * FILE: the instance extensions; xrCreateInstance with XR_MND_headless; instance and system
 * properties; view configurations with their views and blend modes; a headless session and its
 * reference space types; the session states up to focused; xrLocateSpace and xrLocateViews at
 * fixed times; an action set with a boolean and a pose action, a suggested binding for the
 * simple controller (and one with a path the profile lacks), attach, sync and the action states.
 * test/system/openxr-monado-differential.test.ts runs the same through this package's loader.
 * --invalid-handle also calls xrLocateSpace with a handle that was never created (a negative
 * control: a validation layer must report it). */
#include <openxr/openxr.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;

static void json_string(const char *s) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

static void fail(const char *what, XrResult r) {
    fprintf(stderr, "xr_script: %s failed: %d\n", what, (int)r);
    fprintf(out, "\"failed\": {\"call\": ");
    json_string(what);
    fprintf(out, ", \"result\": %d}}\n", (int)r);
    fclose(out);
    exit(1);
}

#define CHECK(call)                        \
    do {                                   \
        XrResult r_ = (call);              \
        if (XR_FAILED(r_)) fail(#call, r_); \
    } while (0)

static void pose_json(const XrPosef *p) {
    fprintf(out, "[%.9g, %.9g, %.9g, %.9g, %.9g, %.9g, %.9g]", p->position.x, p->position.y, p->position.z, p->orientation.x,
            p->orientation.y, p->orientation.z, p->orientation.w);
}

static XrPath path(XrInstance instance, const char *text) {
    XrPath p = XR_NULL_PATH;
    CHECK(xrStringToPath(instance, text, &p));
    return p;
}

static const char *state_name(XrSessionState s) {
    static const char *names[] = {"unknown", "idle", "ready", "synchronized", "visible", "focused", "stopping", "loss-pending", "exiting"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "other";
}

int main(int argc, char **argv) {
    const char *out_path = NULL;
    int invalid_handle = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out_path = argv[++i];
        else if (strcmp(argv[i], "--invalid-handle") == 0) invalid_handle = 1;
        else {
            fprintf(stderr, "usage: xr_script --out FILE [--invalid-handle]\n");
            return 2;
        }
    }
    if (!out_path || !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "xr_script: cannot write %s\n", out_path ? out_path : "(no --out)");
        return 2;
    }
    fprintf(out, "{");

    uint32_t count = 0;
    CHECK(xrEnumerateInstanceExtensionProperties(NULL, 0, &count, NULL));
    XrExtensionProperties *exts = calloc(count, sizeof *exts);
    for (uint32_t i = 0; i < count; ++i) exts[i].type = XR_TYPE_EXTENSION_PROPERTIES;
    CHECK(xrEnumerateInstanceExtensionProperties(NULL, count, &count, exts));
    fprintf(out, "\"extensions\": [");
    for (uint32_t i = 0; i < count; ++i) {
        fprintf(out, "%s{\"name\": ", i ? ", " : "");
        json_string(exts[i].extensionName);
        fprintf(out, ", \"extensionVersion\": %u}", exts[i].extensionVersion);
    }
    fprintf(out, "], ");
    free(exts);

    const char *enabled[] = {"XR_MND_headless", "XR_KHR_convert_timespec_time"};
    XrInstanceCreateInfo ci = {.type = XR_TYPE_INSTANCE_CREATE_INFO};
    strcpy(ci.applicationInfo.applicationName, "monado differential");
    ci.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
    ci.enabledExtensionCount = 2;
    ci.enabledExtensionNames = enabled;
    XrInstance instance = XR_NULL_HANDLE;
    CHECK(xrCreateInstance(&ci, &instance));

    XrInstanceProperties ip = {.type = XR_TYPE_INSTANCE_PROPERTIES};
    CHECK(xrGetInstanceProperties(instance, &ip));
    fprintf(out, "\"instance\": {\"runtimeName\": ");
    json_string(ip.runtimeName);
    fprintf(out, ", \"runtimeVersion\": \"%llu\"}, ", (unsigned long long)ip.runtimeVersion);

    XrSystemGetInfo gi = {.type = XR_TYPE_SYSTEM_GET_INFO, .formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
    XrSystemId system = XR_NULL_SYSTEM_ID;
    CHECK(xrGetSystem(instance, &gi, &system));
    XrSystemProperties sp = {.type = XR_TYPE_SYSTEM_PROPERTIES};
    CHECK(xrGetSystemProperties(instance, system, &sp));
    fprintf(out, "\"system\": {\"vendorId\": %u, \"systemName\": ", sp.vendorId);
    json_string(sp.systemName);
    fprintf(out,
            ", \"graphicsProperties\": {\"maxSwapchainImageWidth\": %u, \"maxSwapchainImageHeight\": %u, \"maxLayerCount\": %u}, "
            "\"trackingProperties\": {\"orientationTracking\": %s, \"positionTracking\": %s}}, ",
            sp.graphicsProperties.maxSwapchainImageWidth, sp.graphicsProperties.maxSwapchainImageHeight, sp.graphicsProperties.maxLayerCount,
            sp.trackingProperties.orientationTracking ? "true" : "false", sp.trackingProperties.positionTracking ? "true" : "false");

    XrViewConfigurationType types[16];
    CHECK(xrEnumerateViewConfigurations(instance, system, 16, &count, types));
    fprintf(out, "\"viewConfigurations\": [");
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t n = 0;
        XrViewConfigurationView views[16];
        for (int v = 0; v < 16; ++v) views[v] = (XrViewConfigurationView){.type = XR_TYPE_VIEW_CONFIGURATION_VIEW};
        CHECK(xrEnumerateViewConfigurationViews(instance, system, types[i], 16, &n, views));
        fprintf(out, "%s{\"type\": %d, \"views\": [", i ? ", " : "", (int)types[i]);
        for (uint32_t v = 0; v < n; ++v) {
            fprintf(out, "%s[%u, %u, %u, %u, %u, %u]", v ? ", " : "", views[v].recommendedImageRectWidth, views[v].maxImageRectWidth,
                    views[v].recommendedImageRectHeight, views[v].maxImageRectHeight, views[v].recommendedSwapchainSampleCount,
                    views[v].maxSwapchainSampleCount);
        }
        XrEnvironmentBlendMode modes[16];
        CHECK(xrEnumerateEnvironmentBlendModes(instance, system, types[i], 16, &n, modes));
        fprintf(out, "], \"blendModes\": [");
        for (uint32_t m = 0; m < n; ++m) fprintf(out, "%s%d", m ? ", " : "", (int)modes[m]);
        fprintf(out, "]}");
    }
    fprintf(out, "], ");

    /* Actions: created and suggested before the session, as applications do. */
    XrActionSetCreateInfo asci = {.type = XR_TYPE_ACTION_SET_CREATE_INFO};
    strcpy(asci.actionSetName, "gameplay");
    strcpy(asci.localizedActionSetName, "Gameplay");
    XrActionSet set = XR_NULL_HANDLE;
    CHECK(xrCreateActionSet(instance, &asci, &set));
    XrPath hands[2] = {path(instance, "/user/hand/left"), path(instance, "/user/hand/right")};
    XrActionCreateInfo aci = {.type = XR_TYPE_ACTION_CREATE_INFO};
    aci.countSubactionPaths = 2;
    aci.subactionPaths = hands;
    aci.actionType = XR_ACTION_TYPE_BOOLEAN_INPUT;
    strcpy(aci.actionName, "select");
    strcpy(aci.localizedActionName, "Select");
    XrAction select = XR_NULL_HANDLE, grip = XR_NULL_HANDLE;
    CHECK(xrCreateAction(set, &aci, &select));
    aci.actionType = XR_ACTION_TYPE_POSE_INPUT;
    strcpy(aci.actionName, "grip");
    strcpy(aci.localizedActionName, "Grip");
    CHECK(xrCreateAction(set, &aci, &grip));
    XrPath simple = path(instance, "/interaction_profiles/khr/simple_controller");
    XrActionSuggestedBinding bad[1] = {{select, path(instance, "/user/hand/left/input/nope/click")}};
    XrInteractionProfileSuggestedBinding sb = {.type = XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING, .interactionProfile = simple, .countSuggestedBindings = 1, .suggestedBindings = bad};
    const XrResult bad_suggest = xrSuggestInteractionProfileBindings(instance, &sb);
    XrActionSuggestedBinding good[2] = {{select, path(instance, "/user/hand/left/input/select/click")},
                                        {grip, path(instance, "/user/hand/left/input/grip/pose")}};
    sb.countSuggestedBindings = 2;
    sb.suggestedBindings = good;
    const XrResult suggest = xrSuggestInteractionProfileBindings(instance, &sb);

    XrSessionCreateInfo sci = {.type = XR_TYPE_SESSION_CREATE_INFO, .systemId = system};
    XrSession session = XR_NULL_HANDLE;
    CHECK(xrCreateSession(instance, &sci, &session));
    uint32_t space_count = 0;
    XrReferenceSpaceType space_types[16];
    CHECK(xrEnumerateReferenceSpaces(session, 16, &space_count, space_types));
    fprintf(out, "\"referenceSpaces\": [");
    for (uint32_t i = 0; i < space_count; ++i) fprintf(out, "%s%d", i ? ", " : "", (int)space_types[i]);
    fprintf(out, "], ");
    XrSessionActionSetsAttachInfo attach = {.type = XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO, .countActionSets = 1, .actionSets = &set};
    const XrResult attached = xrAttachSessionActionSets(session, &attach);

    /* States: poll until ready, begin, poll until focused (or the queue runs dry). */
    fprintf(out, "\"states\": [");
    int states = 0, running = 0;
    XrSessionState state = XR_SESSION_STATE_UNKNOWN;
    for (int round = 0; round < 100 && state != XR_SESSION_STATE_FOCUSED; ++round) {
        XrEventDataBuffer ev = {.type = XR_TYPE_EVENT_DATA_BUFFER};
        XrResult r = xrPollEvent(instance, &ev);
        if (r == XR_EVENT_UNAVAILABLE) {
            if (!running) break;
            continue;
        }
        CHECK(r);
        if (ev.type != XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED) continue;
        state = ((XrEventDataSessionStateChanged *)&ev)->state;
        fprintf(out, "%s\"%s\"", states++ ? ", " : "", state_name(state));
        if (state == XR_SESSION_STATE_READY && !running) {
            XrSessionBeginInfo bi = {.type = XR_TYPE_SESSION_BEGIN_INFO, .primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO};
            CHECK(xrBeginSession(session, &bi));
            running = 1;
        }
    }
    fprintf(out, "], ");

    /* Locate at fixed times: the same XrTimes through both loaders. */
    XrReferenceSpaceCreateInfo rci = {.type = XR_TYPE_REFERENCE_SPACE_CREATE_INFO};
    rci.poseInReferenceSpace.orientation.w = 1;
    XrSpace local, view, stage;
    rci.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_LOCAL;
    CHECK(xrCreateReferenceSpace(session, &rci, &local));
    rci.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_VIEW;
    CHECK(xrCreateReferenceSpace(session, &rci, &view));
    rci.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_STAGE;
    CHECK(xrCreateReferenceSpace(session, &rci, &stage));
    XrActionSpaceCreateInfo gci = {.type = XR_TYPE_ACTION_SPACE_CREATE_INFO, .action = grip, .subactionPath = hands[0]};
    gci.poseInActionSpace.orientation.w = 1;
    XrSpace grip_space;
    CHECK(xrCreateActionSpace(session, &gci, &grip_space));
    const XrTime times[] = {1000000000, 2000000000, 3500000000};
    struct {
        const char *name;
        XrSpace space, base;
    } pairs[] = {{"view-in-local", view, local}, {"stage-in-local", stage, local}, {"local-in-view", local, view}, {"grip-in-local", grip_space, local}};
    fprintf(out, "\"locate\": [");
    int located = 0;
    for (unsigned t = 0; t < sizeof times / sizeof times[0]; ++t) {
        for (unsigned p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
            XrSpaceLocation loc = {.type = XR_TYPE_SPACE_LOCATION};
            CHECK(xrLocateSpace(pairs[p].space, pairs[p].base, times[t], &loc));
            fprintf(out, "%s{\"what\": \"%s\", \"time\": %lld, \"flags\": %llu, \"pose\": ", located++ ? ", " : "", pairs[p].name,
                    (long long)times[t], (unsigned long long)loc.locationFlags);
            pose_json(&loc.pose);
            fprintf(out, "}");
        }
        XrViewLocateInfo vli = {.type = XR_TYPE_VIEW_LOCATE_INFO, .viewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, .displayTime = times[t], .space = local};
        XrViewState vs = {.type = XR_TYPE_VIEW_STATE};
        XrView views[2] = {{.type = XR_TYPE_VIEW}, {.type = XR_TYPE_VIEW}};
        uint32_t n = 0;
        CHECK(xrLocateViews(session, &vli, &vs, 2, &n, views));
        for (uint32_t v = 0; v < n; ++v) {
            fprintf(out, ", {\"what\": \"view%u-in-local\", \"time\": %lld, \"flags\": %llu, \"pose\": ", v, (long long)times[t],
                    (unsigned long long)vs.viewStateFlags);
            pose_json(&views[v].pose);
            fprintf(out, ", \"fov\": [%.9g, %.9g, %.9g, %.9g]}", views[v].fov.angleLeft, views[v].fov.angleRight, views[v].fov.angleUp,
                    views[v].fov.angleDown);
        }
    }
    fprintf(out, "], ");

    XrActiveActionSet active = {set, XR_NULL_PATH};
    XrActionsSyncInfo sync = {.type = XR_TYPE_ACTIONS_SYNC_INFO, .countActiveActionSets = 1, .activeActionSets = &active};
    const XrResult synced = xrSyncActions(session, &sync);
    XrActionStateGetInfo get = {.type = XR_TYPE_ACTION_STATE_GET_INFO, .action = select, .subactionPath = hands[0]};
    XrActionStateBoolean sel = {.type = XR_TYPE_ACTION_STATE_BOOLEAN};
    CHECK(xrGetActionStateBoolean(session, &get, &sel));
    get.action = grip;
    XrActionStatePose pose = {.type = XR_TYPE_ACTION_STATE_POSE};
    CHECK(xrGetActionStatePose(session, &get, &pose));
    XrInteractionProfileState profile = {.type = XR_TYPE_INTERACTION_PROFILE_STATE};
    CHECK(xrGetCurrentInteractionProfile(session, hands[0], &profile));
    char profile_name[XR_MAX_PATH_LENGTH] = "";
    if (profile.interactionProfile != XR_NULL_PATH) CHECK(xrPathToString(instance, profile.interactionProfile, sizeof profile_name, &count, profile_name));
    fprintf(out, "\"actions\": {\"badSuggest\": %d, \"suggest\": %d, \"attach\": %d, \"sync\": %d, \"selectActive\": %s, \"gripActive\": %s, \"profile\": ",
            (int)bad_suggest, (int)suggest, (int)attached, (int)synced, sel.isActive ? "true" : "false", pose.isActive ? "true" : "false");
    json_string(profile_name);
    fprintf(out, "}");

    if (invalid_handle) {
        XrSpaceLocation loc = {.type = XR_TYPE_SPACE_LOCATION};
        fprintf(out, ", \"invalidHandle\": %d", (int)xrLocateSpace((XrSpace)(uintptr_t)0xdead0001, local, times[0], &loc));
    }

    XrResult r = xrRequestExitSession(session);
    fprintf(out, ", \"requestExit\": %d", (int)r);
    CHECK(xrDestroySession(session));
    CHECK(xrDestroyInstance(instance));
    fprintf(out, "}\n");
    fclose(out);
    return 0;
}
