// `khronos-loader bench vulkan [--command vkGetDeviceQueue|vkCmdPushConstants|record] [--layers <N|names>]
// [--iterations N] [--repeats R] [--processes P] [--max-processes M] [--json] [--no-khronos] [--khronos-loader path]
// [--driver manifest]`: ns per device call through this loader and the Khronos loader, with 0/1/3
// bundled pass-through Vulkan layers and real layers, on lavapipe by default. The options come from
// the command's table (lib/tools/cli/specs.ts); the benchmark's modules are imported only once they
// are right.
import { errorMessage, parseOptions, runCommand } from '../cli/args.js';
import { BENCH_VULKAN } from '../cli/specs.js';
import { parseLayerList, type BenchCliIo, type CommonBenchArgs } from './cli-args.js';
import type { VulkanBenchCommandName } from './vulkan-child-protocol.js';
import { RECORD_COMMAND } from './vulkan-record-protocol.js';

export interface VulkanBenchCliArgs extends CommonBenchArgs {
  readonly command: VulkanBenchCommandName;
  /** `--command record`: the command-recording benchmark instead of a per-call one. */
  readonly record?: true;
  readonly driverManifest?: string;
  readonly maxProcesses?: number;
}

function validate(o: Exclude<ReturnType<typeof parseOptions<typeof BENCH_VULKAN>>, string>): VulkanBenchCliArgs | string {
  const record = o['--command'] === RECORD_COMMAND;
  const command = (record ? undefined : o['--command']) ?? 'vkGetDeviceQueue';
  let counts: number[] = [];
  let realLayers: string[] = [];
  if (o['--layers'] !== undefined) {
    const list = parseLayerList(o['--layers'], /^VK_LAYER_\w+$/, 'layer');
    if (typeof list === 'string') return list;
    counts = [...new Set(list.counts)].sort((a, b) => a - b);
    realLayers = list.layers;
  }
  const processes = o['--processes'];
  const maxProcesses = o['--max-processes'];
  if (record && o['--layers'] !== undefined) return `--command ${RECORD_COMMAND} runs without layers: leave --layers out, got --layers ${JSON.stringify(o['--layers'])}`;
  if (record && maxProcesses !== undefined) return `--command ${RECORD_COMMAND} has no trampoline verdict: leave --max-processes out, got --max-processes ${maxProcesses}`;
  if (maxProcesses !== undefined && maxProcesses < (processes ?? 1)) return `--max-processes (${maxProcesses}) must be at least --processes (${processes ?? 1})`;
  const khronosLoader = o['--no-khronos'] === true ? false : o['--khronos-loader'];
  return {
    command: command as VulkanBenchCommandName,
    ...(record ? { record: true as const } : {}),
    passthroughCounts: counts.length > 0 ? counts : realLayers.length > 0 ? [0] : [0, 1, 3],
    realLayers,
    json: o['--json'] === true,
    ...(o['--iterations'] !== undefined ? { iterations: o['--iterations'] } : {}),
    ...(o['--repeats'] !== undefined ? { repeats: o['--repeats'] } : {}),
    ...(processes !== undefined ? { processes } : {}),
    ...(maxProcesses !== undefined ? { maxProcesses } : {}),
    ...(o['--driver'] !== undefined ? { driverManifest: o['--driver'] } : {}),
    ...(khronosLoader !== undefined ? { khronosLoader } : {}),
  };
}

/** Parses the arguments after "bench vulkan"; a string is the argument error (one line). */
export function parseVulkanBenchArgs(args: readonly string[]): VulkanBenchCliArgs | string {
  const o = parseOptions(BENCH_VULKAN, args);
  return typeof o === 'string' ? o : validate(o);
}

/** The arguments after "bench vulkan". */
export function runVulkanBenchCli(args: readonly string[], io: BenchCliIo): Promise<number> {
  return runCommand(BENCH_VULKAN, args, io, validate, async (parsed) => {
    try {
      if (parsed.record) {
        const { formatRecordBenchMarkdown, runRecordBench } = await import('./run-vulkan-record-bench.js');
        const result = await runRecordBench({
          ...(parsed.iterations !== undefined ? { frames: parsed.iterations } : {}),
          ...(parsed.repeats !== undefined ? { repeats: parsed.repeats } : {}),
          ...(parsed.driverManifest !== undefined ? { driverManifest: parsed.driverManifest } : {}),
          onProgress: (line) => io.stderr(`bench: ${line}\n`),
        });
        io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : formatRecordBenchMarkdown(result));
        return 0;
      }
      const [{ runVulkanBench }, { formatVulkanBenchMarkdown, vulkanTargets }] = await Promise.all([import('./run-vulkan-bench.js'), import('./vulkan-report.js')]);
      const result = await runVulkanBench({ ...parsed, onProgress: (line) => io.stderr(`bench: ${line}\n`) });
      io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatVulkanBenchMarkdown(result)}\n${vulkanTargets(result).join('\n')}\n`);
      return 0;
    } catch (error) {
      io.stderr(`khronos-loader bench vulkan: ${errorMessage(error)}\n`);
      return 1;
    }
  });
}
