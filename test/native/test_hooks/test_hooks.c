// kl_test_hooks.node: hooks only the tests need, kept out of the shipped addon.
//   useLoaderAddon(path)            the product addon (already loaded: dlopen hands back the same module)
//   emitLog(level, source, message) a record through the product addon's native log path
//                                   (its exported khronosLoaderLog), as loader code emits one; tests the bridge
#include <dlfcn.h>
#include <node_api.h>
#include <stdlib.h>

typedef void (*EmitLogFn)(int level, const char* source, const char* message);

static EmitLogFn emit_log = NULL;

static napi_value Throw(napi_env env, const char* message) {
  napi_value msg = NULL, code = NULL, error = NULL;
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &msg);
  napi_create_string_utf8(env, "KL_INVALID_ARGUMENT", NAPI_AUTO_LENGTH, &code);
  napi_create_type_error(env, NULL, msg, &error);
  napi_set_named_property(env, error, "code", code);
  napi_throw(env, error);
  return NULL;
}

// A string argument as a malloc'ed copy (NULL when it is not a string).
static char* StringArgument(napi_env env, napi_value value) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
  char* out = malloc(length + 1);
  if (out != NULL) napi_get_value_string_utf8(env, value, out, length + 1, &length);
  return out;
}

static napi_value UseLoaderAddon(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char* path = argc < 1 ? NULL : StringArgument(env, argv[0]);
  if (path == NULL) return Throw(env, "useLoaderAddon(path: string)");
  void* addon = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  free(path);
  emit_log = addon == NULL ? NULL : (EmitLogFn)dlsym(addon, "khronosLoaderLog");
  if (emit_log == NULL) {
    napi_throw_error(env, NULL, "useLoaderAddon: the addon does not export khronosLoaderLog");
    return NULL;
  }
  return NULL;
}

static napi_value EmitLog(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  const char* usage = "emitLog(level: number, source: string, message: string)";
  int32_t level = 0;
  if (argc < 3 || napi_get_value_int32(env, argv[0], &level) != napi_ok) return Throw(env, usage);
  char* source = StringArgument(env, argv[1]);
  char* message = StringArgument(env, argv[2]);
  if (source == NULL || message == NULL) {
    free(source);
    free(message);
    return Throw(env, usage);
  }
  if (level < 0 || level > 3) {
    free(source);
    free(message);
    return Throw(env, "emitLog: level must be 0..3");
  }
  if (emit_log == NULL) {
    free(source);
    free(message);
    napi_throw_error(env, NULL, "emitLog: call useLoaderAddon(path) first");
    return NULL;
  }
  emit_log(level, source, message);
  free(source);
  free(message);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn = NULL;
  napi_create_function(env, "useLoaderAddon", NAPI_AUTO_LENGTH, UseLoaderAddon, NULL, &fn);
  napi_set_named_property(env, exports, "useLoaderAddon", fn);
  napi_create_function(env, "emitLog", NAPI_AUTO_LENGTH, EmitLog, NULL, &fn);
  napi_set_named_property(env, exports, "emitLog", fn);
  return exports;
}
