// `khronos-loader info openxr [--json] [--runtime <name|manifest>]` and `info vulkan [--json]`:
// the options (specs.ts), then what discovery returns, formatted. Discovery's modules are imported
// only once the arguments are right.
import { errorMessage, runCommand, usageError, type CliIo } from './args.js';
import { INFO_OPENXR, INFO_VULKAN } from './specs.js';

export async function runInfoCli(spec: typeof INFO_OPENXR | typeof INFO_VULKAN, args: readonly string[], io: CliIo): Promise<number> {
  if (spec === INFO_VULKAN) {
    return runCommand(INFO_VULKAN, args, io, (o) => o, async (o) => {
      const [{ discover }, { processVulkanLoader }, { formatVulkanInfo }] = await Promise.all([
        import('../../vulkan/discovery/discover.js'),
        import('../../vulkan/api/process-loader.js'),
        import('./info-vulkan.js'),
      ]);
      try {
        // The report says everything; the loader's own VK_LOADER_DEBUG lines would repeat it.
        const vk = discover({ logWriter: () => {} });
        const processLoader = processVulkanLoader();
        io.stdout(o['--json'] ? JSON.stringify({ ...vk, processVulkanLoader: processLoader }, null, 2) + '\n' : formatVulkanInfo(vk, processLoader));
        return 0;
      } catch (error) {
        io.stderr(`khronos-loader info vulkan failed: ${errorMessage(error)}\n`);
        return 1;
      }
    });
  }
  return runCommand(INFO_OPENXR, args, io, (o) => o, async (o) => {
    const [{ discover }, { createLoader }, { formatOpenXrInfo }, { resolveRuntimeOption }] = await Promise.all([
      import('../../openxr/discovery/discover.js'),
      import('../../openxr/loader.js'),
      import('./info.js'),
      import('./runtime-option.js'),
    ]);
    try {
      let runtime: string | undefined;
      if (o['--runtime'] !== undefined) {
        const resolved = resolveRuntimeOption(o['--runtime'], io.env ?? process.env);
        if ('error' in resolved) return usageError(INFO_OPENXR.name, resolved.error, io);
        runtime = resolved.runtime;
      }
      // --runtime: what an application that chose that runtime gets.
      const result = runtime === undefined ? discover({ logWriter: io.stderr }) : createLoader({ runtime, logWriter: io.stderr }).discover();
      io.stdout(o['--json'] ? JSON.stringify(result, null, 2) + '\n' : formatOpenXrInfo(result));
      return 0;
    } catch (error) {
      io.stderr(`khronos-loader info openxr failed: ${errorMessage(error)}\n`);
      return 1;
    }
  });
}
