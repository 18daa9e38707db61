#!/usr/bin/env bash
# npm run test:sanitize [-- test files...]: builds the addon, the simulated runtime, the bundled
# layers and every test/native component with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-sanitize/ (build/ is left alone), then runs the tests that touch native code under them.
# Node itself is not instrumented: the ASan runtime is preloaded into it (and into every process
# the tests start). Leak checking is on. Any report fails the run; reports land in
# build-sanitize/reports/ and are printed.
#
# npm run test:sanitize:thread (this script with --thread first): the ThreadSanitizer variant, into
# build-tsan/, over the threaded paths only (the waitFrame threads, several instances and workers
# at once, exit and worker termination with threads alive, the log bridge's cross-thread delivery,
# Vulkan messengers). Races inside Node and V8 (not instrumented) are not seen; races between the
# threads of the loader, the runtime and the layers are. In CI after the ASan phase (.ci/run) and
# the second step of npm run test:all (scripts/test-all.sh); its build is lean (below). Under it the
# threaded tests run fewer rounds and frames with the same assertions, and every time limit is 8
# times as long (KHRONOS_LOADER_SANITIZER=thread: test/helpers/sanitizer-env.ts, vitest.config.ts).
# Either variant prints its wall time at the end (build and tests apart).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS
jobs=${KL_SANITIZE_JOBS:-2}
mode=address
if [ "${1:-}" = "--thread" ]; then mode=thread; shift; fi

if [ "$mode" = thread ]; then
  name=test:sanitize:thread
  out=$root/build-tsan
  flags="-fsanitize=thread"
  sanitize="$flags -fno-omit-frame-pointer"
else
  name=test:sanitize
  out=$root/build-sanitize
  flags="-fsanitize=address,undefined"
  sanitize="$flags -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
fi
# -O1 -g: readable stacks; the sanitizers' checks do not depend on the optimisation level.
opt="-O1 -g"

echo "$name: building the addon, simulated runtime and bundled layers into $out/addon"
# cmake-js sets CMAKE_CXX_FLAGS itself (-DBUILDING_NODE_EXTENSION), replacing one given here, so
# the instrumentation goes into the Release flags it leaves alone; the build then checks that the
# addon really is instrumented (its ASan/TSan symbols), since an uninstrumented addon passes every test.
cmake_js_flags=(--out "$out/addon" --CDCMAKE_CXX_FLAGS_RELEASE="$opt $sanitize" --CDCMAKE_C_FLAGS_RELEASE="$opt $sanitize"
  --CDCMAKE_SHARED_LINKER_FLAGS="$flags")
if [ "$mode" = thread ]; then
  # Lean (CI runs it): only what the thread list loads: the addon, the simulated runtime, the bundled
  # layers and the process loader; not the tools addon (benches and probes; no thread test loads it,
  # and a test that did would fail on the missing file, see KL_PREBUILT_WITHOUT_TOOLS below).
  node node_modules/cmake-js/bin/cmake-js configure "${cmake_js_flags[@]}" >/dev/null
  cmake --build "$out/addon" --config Release --parallel "$jobs" \
    --target khronos_loader khronos_simxr khronos_layer_passthrough khronos_vk_layer_passthrough khronos_vulkan_process_loader >/dev/null
else
  node node_modules/cmake-js/bin/cmake-js build "${cmake_js_flags[@]}" --parallel "$jobs" >/dev/null
fi
marker=__asan_report; [ "$mode" = thread ] && marker=__tsan_
if ! nm -D --undefined-only "$out/addon/Release/khronos_loader.node" | grep "$marker" >/dev/null; then
  echo "$name: $out/addon/Release/khronos_loader.node is not instrumented (no $marker symbols)" >&2
  exit 1
fi

echo "$name: building test/native into $out/test-native"
cmake -S test/native -B "$out/test-native" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_C_FLAGS="$sanitize" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$opt" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$opt" \
  -DCMAKE_SHARED_LINKER_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
if [ "$mode" = thread ]; then
  # Only the components the thread list loads (a test that loads another fails on the missing
  # library): the test hooks, the OpenXR test runtime (plain and with XR_EXT_debug_utils), the
  # layers js-api.test.ts chains, the Vulkan drivers and layer messengers.test.ts plans.
  cmake --build "$out/test-native" --parallel "$jobs" --target kl_test_hooks kl_test_runtime kl_test_runtime_debug_utils \
    kl_test_layer_passthrough_0 kl_test_layer_intercept kl_test_layer_neg_bad_api_version \
    kl_vk_driver_v7 kl_vk_driver_negotiate_fails kl_vk_layer_negotiate_fails >/dev/null
else
  cmake --build "$out/test-native" --parallel "$jobs" >/dev/null
fi

# The tests that load the addon or the native test components: the typed APIs, the chains and the
# exported C functions, fault injection and the bad-value property tests, the surfaces and
# swapchains on the test drivers (their fault paths: lost and out-of-date surfaces, every image
# acquired, destroyed handles) (children meant to die of a signal get the runtime's hands off those
# signals: test/helpers/sanitizer-env.ts). Left out:
# those that start a compiler (gcc and cmake leak by design and would report under the preloaded
# runtime), the Khronos-differential tests (the Khronos loaders are not instrumented) and those on
# lavapipe (Mesa and LLVM are not instrumented; their leaks come from libraries already unloaded,
# which LeakSanitizer cannot name: vulkan-properties.test.ts, xr-vulkan-properties.test.ts), and command-stream.test.ts, which compiles its own ASan/UBSan
# harness (a compiler run under the preloaded runtime reports its own leaks). KL_SANITIZE_TESTS or
# arguments replace the list.
default_tests=(
  test/openxr-api/api.test.ts test/openxr-api/new-user.test.ts test/openxr-api/misuse.test.ts
  test/openxr-api/workers.test.ts test/openxr-api/shutdown.test.ts test/openxr-api/heap.test.ts
  test/openxr-api/public-surface.test.ts test/openxr-api/input.test.ts test/openxr-api/hand-tracking.test.ts
  test/openxr-native/js-api.test.ts test/openxr-native/negotiation.test.ts test/openxr-native/runtime-choice.test.ts
  test/simxr/simulated-runtime.test.ts
  test/vulkan-native/drivers.test.ts test/vulkan-native/messengers.test.ts test/vulkan-native/pre-instance.test.ts
  test/vulkan-native/android-layer-introspection.test.ts
  test/vulkan-native/wsi-surfaces.test.ts test/vulkan-native/wsi-typed-drivers.test.ts
  test/addon/log-bridge.test.ts test/addon/log-forwarding.test.ts test/layers/passthrough-layer.test.ts
  test/openxr-native/chain.test.ts test/vulkan-native/chain.test.ts test/vulkan-native/c-abi.test.ts
  test/faults/openxr-faults.test.ts test/faults/vulkan-faults.test.ts test/faults/openxr-properties.test.ts
  test/faults/wsi-properties.test.ts
)
# The thread variant's list. Left out: misuse.test.ts, whose time limits do not hold at TSan's
# slowdown (its threads are those of api and shutdown).
thread_tests=(
  test/openxr-api/api.test.ts test/openxr-api/workers.test.ts test/openxr-api/shutdown.test.ts
  test/addon/log-bridge.test.ts test/vulkan-native/messengers.test.ts test/openxr-native/js-api.test.ts
  test/openxr-api/frame-query-wait-thread.test.ts
)
[ "$mode" = thread ] && default_tests=("${thread_tests[@]}")
if [ "$#" -gt 0 ]; then tests=("$@"); elif [ -n "${KL_SANITIZE_TESTS:-}" ]; then read -r -a tests <<<"$KL_SANITIZE_TESTS"; else tests=("${default_tests[@]}"); fi

built=$SECONDS
reports=$out/reports
rm -rf "$reports" && mkdir -p "$reports"
set +e
if [ "$mode" = thread ]; then
  runtime=$(g++ -print-file-name=libtsan.so)
  echo "$name: running ${#tests[@]} test files with $runtime preloaded"
  # exitcode=0: processes end with their own codes (the shutdown tests check them); reports fail the run below.
  # The runtime goes into the test workers and their children only (scripts/sanitize/preload-in-workers.mjs).
  env KL_WORKER_PRELOAD="$runtime" KHRONOS_LOADER_SANITIZER=thread \
    TSAN_OPTIONS="log_path=$reports/tsan:halt_on_error=0:exitcode=0:second_deadlock_stack=1:suppressions=$root/scripts/sanitize/tsan.supp" \
    KHRONOS_LOADER_NATIVE_DIR="$out/addon/Release" KL_TEST_NATIVE_DIR="$out/test-native" KHRONOS_LOADER_PREBUILT=1 \
    KL_PREBUILT_WITHOUT_TOOLS=1 node scripts/sanitize/preload-in-workers.mjs run --project main "${tests[@]}"
else
  runtime=$(g++ -print-file-name=libasan.so)
  echo "$name: running ${#tests[@]} test files with $runtime preloaded"
  env LD_PRELOAD="$runtime" KHRONOS_LOADER_SANITIZER=address \
    ASAN_OPTIONS="detect_leaks=1:log_path=$reports/asan:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1" \
    LSAN_OPTIONS="suppressions=$root/scripts/sanitize/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="print_stacktrace=1:log_path=$reports/ubsan" \
    NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--require $root/scripts/sanitize/exit-on-sigterm.cjs" \
    KHRONOS_LOADER_NATIVE_DIR="$out/addon/Release" KL_TEST_NATIVE_DIR="$out/test-native" KHRONOS_LOADER_PREBUILT=1 \
    node node_modules/vitest/vitest.mjs run --project main "${tests[@]}"
fi
status=$?
set -e
echo "$name: wall time $((SECONDS - started)) s (build $((built - started)) s, ${#tests[@]} test files $((SECONDS - built)) s)"
shopt -s nullglob
found=("$reports"/*)
if [ "${#found[@]}" -gt 0 ]; then
  echo "$name: ${#found[@]} sanitizer report(s):"
  for f in "${found[@]}"; do echo "== $f"; cat "$f"; done
  exit 1
fi
echo "$name: no sanitizer reports (${#tests[@]} test files; vitest exit $status)"
exit "$status"
