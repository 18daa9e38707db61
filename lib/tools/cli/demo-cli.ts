// `khronos-loader demo [--seconds <s>] [--runtime <name|manifest>] [--vulkan | --scene] [--json]` (npm run
// demo): the options (specs.ts), then runDemo() and its report. The demo's modules, and with them
// the native addon, are imported only once the arguments are right.
import { errorMessage, runCommand, usageError, type CliIo } from './args.js';
import { DEMO } from './specs.js';

export function runDemoCli(args: readonly string[], io: CliIo): Promise<number> {
  return runCommand(DEMO, args, io, (o) => o, async (o) => {
    try {
      let runtime: string | undefined;
      let manifest: string | undefined;
      if (o['--runtime'] !== undefined) {
        const { resolveRuntimeOption } = await import('./runtime-option.js');
        const resolved = resolveRuntimeOption(o['--runtime'], io.env ?? process.env);
        if ('error' in resolved) return usageError(DEMO.name, resolved.error, io);
        runtime = resolved.runtime;
        manifest = resolved.manifestPath;
      }
      if (o['--scene'] === true) {
        const { runSceneDemo } = await import('./demo-scene.js');
        const result = await runSceneDemo({ seconds: o['--seconds'] ?? 5, ...(manifest !== undefined ? { runtime: manifest } : {}) }, (line) => {
          if (!o['--json']) io.stdout(`${line}\n`);
        });
        if (o['--json']) io.stdout(JSON.stringify(result, null, 2) + '\n');
        return 0;
      }
      const { formatDemo, runDemo } = await import('./demo.js');
      const result = await runDemo({ seconds: o['--seconds'] ?? 5, vulkan: o['--vulkan'] === true, ...(runtime !== undefined ? { runtime } : {}) });
      io.stdout(o['--json'] ? JSON.stringify(result, null, 2) + '\n' : formatDemo(result));
      return 0;
    } catch (error) {
      io.stderr(`demo failed: ${errorMessage(error)}\n`);
      return 1;
    }
  });
}
