#!/usr/bin/env bash
# npm run test:sanitize [-- test files...]: builds the addon, the simulated runtime, the bundled
# layers and every test/native component with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-sanitize/ (build/ is left alone), then runs the tests that touch native code under them.
# Node itself is not instrumented: the ASan runtime is preloaded into it (and into every process
# the tests start). Leak checking is on. Any report fails the run; reports land in
# build-sanitize/reports/ and are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/build-sanitize
jobs=${KL_SANITIZE_JOBS:-2}

sanitize="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
# -O1 -g: readable stacks; the sanitizers' checks do not depend on the optimisation level.
opt="-O1 -g"

echo "test:sanitize: building the addon, simulated runtime and bundled layers into $out/addon"
node node_modules/cmake-js/bin/cmake-js build --out "$out/addon" --parallel "$jobs" \
  --CDCMAKE_CXX_FLAGS="$sanitize" --CDCMAKE_C_FLAGS="$sanitize" \
  --CDCMAKE_CXX_FLAGS_RELEASE="$opt" --CDCMAKE_C_FLAGS_RELEASE="$opt" \
  --CDCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null

echo "test:sanitize: building test/native into $out/test-native"
cmake -S test/native -B "$out/test-native" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_C_FLAGS="$sanitize" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$opt" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$opt" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$out/test-native" --parallel "$jobs" >/dev/null

# The tests that load the addon or the native test components. Left out: those that start a
# compiler (gcc and cmake leak by design and would report under the preloaded runtime) or load the
# addon from build/Release by path (the C-ABI, chain and Khronos-differential tests), and those on
# lavapipe (Mesa and LLVM are not instrumented; their leaks come from libraries already unloaded,
# which LeakSanitizer cannot name). KL_SANITIZE_TESTS or arguments replace the list.
default_tests=(
  test/openxr-api/api.test.ts test/openxr-api/new-user.test.ts test/openxr-api/misuse.test.ts
  test/openxr-api/workers.test.ts test/openxr-api/shutdown.test.ts test/openxr-api/heap.test.ts
  test/openxr-api/public-surface.test.ts test/openxr-api/input.test.ts test/openxr-api/hand-tracking.test.ts
  test/openxr-native/js-api.test.ts test/openxr-native/negotiation.test.ts test/openxr-native/runtime-choice.test.ts
  test/simxr/simulated-runtime.test.ts
  test/vulkan-native/drivers.test.ts test/vulkan-native/messengers.test.ts test/vulkan-native/pre-instance.test.ts
  test/vulkan-native/android-layer-introspection.test.ts
  test/addon/log-bridge.test.ts test/addon/log-forwarding.test.ts test/layers/passthrough-layer.test.ts
)
if [ "$#" -gt 0 ]; then tests=("$@"); elif [ -n "${KL_SANITIZE_TESTS:-}" ]; then read -r -a tests <<<"$KL_SANITIZE_TESTS"; else tests=("${default_tests[@]}"); fi

reports=$out/reports
rm -rf "$reports" && mkdir -p "$reports"
asan_runtime=$(g++ -print-file-name=libasan.so)
echo "test:sanitize: running ${#tests[@]} test files with $asan_runtime preloaded"
set +e
env LD_PRELOAD="$asan_runtime" \
  ASAN_OPTIONS="detect_leaks=1:log_path=$reports/asan:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1" \
  LSAN_OPTIONS="suppressions=$root/scripts/sanitize/lsan.supp:print_suppressions=0" \
  UBSAN_OPTIONS="print_stacktrace=1:log_path=$reports/ubsan" \
  NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--require $root/scripts/sanitize/exit-on-sigterm.cjs" \
  KHRONOS_LOADER_NATIVE_DIR="$out/addon/Release" KL_TEST_NATIVE_DIR="$out/test-native" KHRONOS_LOADER_PREBUILT=1 \
  node node_modules/vitest/vitest.mjs run --project main "${tests[@]}"
status=$?
set -e
shopt -s nullglob
found=("$reports"/*)
if [ "${#found[@]}" -gt 0 ]; then
  echo "test:sanitize: ${#found[@]} sanitizer report(s):"
  for f in "${found[@]}"; do echo "== $f"; cat "$f"; done
  exit 1
fi
echo "test:sanitize: no sanitizer reports (${#tests[@]} test files; vitest exit $status)"
exit "$status"
