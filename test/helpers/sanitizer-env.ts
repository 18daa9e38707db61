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
