// node scripts/sanitize/preload-in-workers.mjs <vitest arguments>: runs vitest with the sanitizer
// runtime KL_WORKER_PRELOAD names preloaded into its test workers (which load the instrumented
// addon and test/native) and every process they start, but not into vitest's own process: that one
// loads no instrumented code, and its bundler (a Rust module with threads of its own) runs many
// times slower under the runtime's interceptors, starving the workers on a 2-core machine.
// npm run test:sanitize:thread runs vitest through it (scripts/test-sanitize.sh).
const runtime = process.env.KL_WORKER_PRELOAD;
if (!runtime) {
  process.stderr.write('preload-in-workers: KL_WORKER_PRELOAD must name the sanitizer runtime library\n');
  process.exit(2);
}
// Workers are started with this process's environment: they get the runtime at their exec.
process.env.LD_PRELOAD = runtime;
delete process.env.KL_WORKER_PRELOAD;
await import('../../node_modules/vitest/vitest.mjs');
