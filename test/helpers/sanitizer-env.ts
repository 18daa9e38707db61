// Under the sanitizers (scripts/test-sanitize.sh) the addon and test/native are instrumented
// builds that need the sanitizer runtime preloaded: a child given an environment of its own (the
// doctor's probe children) must carry the run's variables too, or it cannot load them.
const VARIABLES = ['LD_PRELOAD', 'ASAN_OPTIONS', 'LSAN_OPTIONS', 'UBSAN_OPTIONS', 'TSAN_OPTIONS', 'KHRONOS_LOADER_NATIVE_DIR', 'KL_TEST_NATIVE_DIR', 'KHRONOS_LOADER_PREBUILT'];

/**
 * The sanitizer run's variables that are set in this process (none outside it). With
 * `deliberateCrash`, for a child that is meant to die of SIGSEGV or SIGABRT: the runtime leaves
 * those signals alone, so the child dies of them (what the test checks) and files no report.
 */
export function sanitizerEnv(options: { deliberateCrash?: boolean } = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of VARIABLES) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  // Its runtime's notes about the crash (a no-return call on another stack) go to its stderr, not
  // to the run's reports: a real error still ends it with the runtime's exit code, not the signal.
  if (options.deliberateCrash && env.ASAN_OPTIONS !== undefined) env.ASAN_OPTIONS += ':handle_segv=0:handle_sigbus=0:handle_abort=0:detect_leaks=0:log_path=stderr';
  return env;
}

/**
 * The sanitizer this run is under: scripts/test-sanitize.sh sets KHRONOS_LOADER_SANITIZER to
 * 'address' (npm run test:sanitize) or 'thread' (npm run test:sanitize:thread); unset otherwise.
 */
export const sanitizer: 'address' | 'thread' | undefined = ((v) => (v === 'address' || v === 'thread' ? v : undefined))(process.env.KHRONOS_LOADER_SANITIZER);

/**
 * How many rounds, frames or workers a threaded test runs: `normal`, or `underThreadSanitizer`
 * under ThreadSanitizer, where every instrumented memory access and every synchronisation costs
 * 5–15 times as much (and the CI machine has two cores): fewer rounds of the same paths, with the
 * same assertions (docs/testing.md, "Sanitizers").
 */
export function threadSanitizerCount(normal: number, underThreadSanitizer: number): number {
  return sanitizer === 'thread' ? underThreadSanitizer : normal;
}

/**
 * Under ThreadSanitizer the time limits of the threaded tests (and of the child processes and
 * workers they wait for) are 8 times as long: a child that starts Node and tsx with the runtime
 * preloaded took two minutes on a loaded 2-core machine.
 */
export const THREAD_SANITIZER_SLOWDOWN = 8;

/** A time limit in milliseconds: `ms`, times THREAD_SANITIZER_SLOWDOWN under ThreadSanitizer. */
export function threadSanitizerTimeout(ms: number): number {
  return sanitizer === 'thread' ? ms * THREAD_SANITIZER_SLOWDOWN : ms;
}
