// Preloaded into every Node process of npm run test:sanitize (NODE_OPTIONS): vitest stops its
// worker processes with SIGTERM, which ends a process without exit handlers, so LeakSanitizer's
// end-of-process check would never run in them. Exit through exit() instead. process.exit is
// taken now, before vitest replaces it in its workers with a function that throws.
const exit = process.exit.bind(process);
process.on('SIGTERM', () => exit(process.exitCode ?? 0));
