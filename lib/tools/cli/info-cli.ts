// `khronos-loader info openxr [--json] [--runtime <name|manifest>]` and `info vulkan [--json]`:
// the options (specs.ts), then what discovery returns, formatted. Discovery's modules are imported
// only once the arguments are right.
import { errorMessage, runCommand, usageError, type CliIo } from './args.js';
import { INFO_OPENXR, INFO_VULKAN } from './specs.js';

/** Flatpak, Snap or pressure-vessel around this process (lib/core/sandbox.ts), or null. */
async function hostSandbox(io: CliIo): Promise<import('../../core/sandbox.js').SandboxReport | null> {
  const [{ detectSandbox }, { createHostPlatform }] = await Promise.all([import('../../core/sandbox.js'), import('../../core/platform/host.js')]);
  return detectSandbox(createHostPlatform({ env: io.env ?? process.env }));
}

export async function runInfoCli(spec: typeof INFO_OPENXR | typeof INFO_VULKAN, args: readonly string[], io: CliIo): Promise<number> {
  if (spec === INFO_VULKAN) {
    return runCommand(INFO_VULKAN, args, io, (o) => o, async (o) => {
      const [{ createLoader: createVulkanLoader }, { processVulkanLoader }, { formatVulkanInfo }] = await Promise.all([
        import('../../vulkan/loader.js'),
        import('../../vulkan/api/process-loader.js'),
        import('./info-vulkan.js'),
      ]);
      try {
        // The report says everything; the loader's own VK_LOADER_DEBUG lines would repeat it.
        const loader = createVulkanLoader({ logWriter: () => {} });
        const vk = loader.discovery;
        const processLoader = processVulkanLoader();
        // The plan says which rule decided each layer, driver and device filter (nothing is loaded).
        const plan = loader.planInstance();
        const sandbox = await hostSandbox(io);
        io.stdout(o['--json'] ? JSON.stringify({ ...vk, processVulkanLoader: processLoader, planDecisions: plan.decisions, sandbox }, null, 2) + '\n' : formatVulkanInfo(vk, processLoader, plan.decisions, sandbox));
        return 0;
      } catch (error) {
        io.stderr(`khronos-loader info vulkan failed: ${errorMessage(error)}\n`);
        return 1;
      }
    });
  }
  return runCommand(INFO_OPENXR, args, io, (o) => o, async (o) => {
    const [{ createLoader }, { formatOpenXrInfo }, { resolveRuntimeOption }] = await Promise.all([
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
      // The runtime's extensions are not asked for: info loads nothing.
      const loader = createLoader({ ...(runtime !== undefined ? { runtime } : {}), logWriter: io.stderr, runtimeExtensions: () => [] });
      const result = loader.discover();
      let planDecisions: readonly string[] | undefined;
      try {
        planDecisions = loader.planInstance().decisions;
      } catch {
        planDecisions = undefined; // no usable runtime or a layer XR_ENABLE_API_LAYERS names is missing: the report says so
      }
      const sandbox = await hostSandbox(io);
      io.stdout(o['--json'] ? JSON.stringify({ ...result, ...(planDecisions ? { planDecisions } : {}), sandbox }, null, 2) + '\n' : formatOpenXrInfo(result, planDecisions, sandbox));
      return 0;
    } catch (error) {
      io.stderr(`khronos-loader info openxr failed: ${errorMessage(error)}\n`);
      return 1;
    }
  });
}
