#!/usr/bin/env bash
# npm run test:all [-- vitest arguments]: everything CI tests, in two steps: every vitest project
# (vitest run: npm test's suites and the slow ones), then ThreadSanitizer over the threaded tests
# (npm run test:sanitize:thread: workers, frame waits, the log bridge, the wait-thread reads, Vulkan
# messengers), one after the other (TSan on the loaded machine beside the suite would only measure the
# load). The vitest arguments go to the first step. Fails when either fails; both run.
# KHRONOS_LOADER_TEST_ALL_THREAD_SANITIZER=0 leaves the second step out: .ci/run does, and runs it as
# its own timed phase after the ASan/UBSan one.
set -uo pipefail
cd "$(dirname "$0")/.."
node node_modules/vitest/vitest.mjs run "$@"
status=$?
if [ "${KHRONOS_LOADER_TEST_ALL_THREAD_SANITIZER:-1}" != 0 ]; then
  scripts/test-sanitize.sh --thread || status=1
fi
exit "$status"
