// `khronos-loader bench vulkan [--command vkGetDeviceQueue|vkCmdPushConstants] [--layers <N|names>]
// [--iterations N] [--repeats R] [--processes P] [--max-processes M] [--json] [--no-khronos] [--khronos-loader path]
// [--driver manifest]`: ns per device call through this loader and the Khronos loader, with 0/1/3
// bundled pass-through Vulkan layers and real layers, on lavapipe by default.
import { runVulkanBench, vulkanBenchCommand, VULKAN_BENCH_COMMANDS } from './run-vulkan-bench.js';
import type { VulkanBenchCommandName } from './vulkan-child-protocol.js';
import { formatVulkanBenchMarkdown, vulkanTargets } from './vulkan-report.js';
import { flagsOf, positiveInteger, type BenchCliIo, type CommonBenchArgs } from './cli-args.js';
import { formatRecordBenchMarkdown, RECORD_COMMAND, runRecordBench } from './run-vulkan-record-bench.js';

export const BENCH_VULKAN_USAGE = `usage: khronos-loader bench vulkan [options]

  Times one Vulkan device command through this loader (its exported trampoline and the pointer
  from vkGetDeviceProcAddr) with copies of the bundled pass-through Vulkan layer and with real
  layers, beside the Khronos loader (libvulkan.so.1, dlopened in the same child processes), on lavapipe.
  --command <name>      ${Object.keys(VULKAN_BENCH_COMMANDS).join(', ')} (default vkGetDeviceQueue), or
                        ${RECORD_COMMAND}: a frame of 10,000 compute commands recorded one N-API call per command,
                        through the CommandEncoder, and in a C loop (no layers; --iterations is frames per run)
  --layers <list>       comma-separated: numbers of pass-through layers for a row each (default 0,1,3),
                        and names of real layers for a row each (e.g. VK_LAYER_KHRONOS_validation)
  --iterations <n>      calls per timed run (default per command)
  --repeats <n>         timed runs per cell, after a warm-up (default 7)
  --processes <n>       fresh child processes per row, each timing both loaders (default 1; 6 or
                        more give the trampoline verdict an interval: met / within noise / missed)
  --max-processes <n>   a row whose verdict is within noise is measured again, --processes more at
                        a time, up to this many (default: --processes); each look's interval is
                        then wider, so that the verdict is wrong at most 5 % of the time
  --driver <manifest>   the driver manifest (default lavapipe's)
  --json                the results as JSON instead of Markdown
  --no-khronos          leave the Khronos loader out
  --khronos-loader <p>  the Khronos loader library (default: libvulkan.so.1 where distributions put it)
`;

export interface VulkanBenchCliArgs extends CommonBenchArgs {
  readonly command: VulkanBenchCommandName;
  /** `--command record`: the command-recording benchmark instead of a per-call one. */
  readonly record?: true;
  readonly driverManifest?: string;
  readonly maxProcesses?: number;
}

/** Parses the arguments after "bench vulkan"; a string is the usage error. */
export function parseVulkanBenchArgs(args: readonly string[]): VulkanBenchCliArgs | string {
  let command: VulkanBenchCommandName = 'vkGetDeviceQueue';
  let record = false;
  const counts = new Set<number>();
  const realLayers: string[] = [];
  const numbers: { iterations?: number; repeats?: number; processes?: number; maxProcesses?: number } = {};
  let json = false;
  let khronosLoader: string | false | undefined;
  let driverManifest: string | undefined;
  for (const { flag, arg, value } of flagsOf(args)) {
    switch (flag) {
      case '--json':
        json = true;
        break;
      case '--no-khronos':
        khronosLoader = false;
        break;
      case '--command': {
        const name = value() ?? '';
        if (name === RECORD_COMMAND) {
          record = true;
          break;
        }
        try {
          command = vulkanBenchCommand(name).name;
        } catch (error) {
          return `${(error as Error).message}, ${RECORD_COMMAND}`;
        }
        break;
      }
      case '--layers': {
        const list = value();
        if (list === undefined || list.trim() === '') return '--layers needs numbers or layer names';
        for (const item of list.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
          if (/^\d+$/.test(item)) counts.add(Number(item));
          else if (/^VK_LAYER_\w+$/.test(item)) realLayers.push(item);
          else return `--layers: ${JSON.stringify(item)} is neither a layer count nor a layer name (VK_LAYER_...)`;
        }
        break;
      }
      case '--iterations':
      case '--repeats':
      case '--processes':
      case '--max-processes': {
        const n = positiveInteger(flag, value());
        if (typeof n === 'string') return n;
        numbers[flag === '--max-processes' ? 'maxProcesses' : (flag.slice(2) as 'iterations' | 'repeats' | 'processes')] = n;
        break;
      }
      case '--driver':
      case '--khronos-loader': {
        const file = value();
        if (file === undefined || file === '') return `${flag} needs a path`;
        if (flag === '--driver') driverManifest = file;
        else khronosLoader = file;
        break;
      }
      default:
        return `unknown argument ${JSON.stringify(arg)}`;
    }
  }
  if (record && (counts.size > 0 || realLayers.length > 0)) return `--command ${RECORD_COMMAND} runs without layers: leave --layers out`;
  if (record && numbers.maxProcesses !== undefined) return `--command ${RECORD_COMMAND} has no trampoline verdict: leave --max-processes out`;
  if (numbers.maxProcesses !== undefined && numbers.maxProcesses < (numbers.processes ?? 1)) return `--max-processes (${numbers.maxProcesses}) must be at least --processes (${numbers.processes ?? 1})`;
  return {
    command,
    ...(record ? { record: true as const } : {}),
    passthroughCounts: counts.size > 0 ? [...counts].sort((a, b) => a - b) : realLayers.length > 0 ? [0] : [0, 1, 3],
    realLayers,
    json,
    ...numbers,
    ...(driverManifest !== undefined ? { driverManifest } : {}),
    ...(khronosLoader !== undefined ? { khronosLoader } : {}),
  };
}

export async function runVulkanBenchCli(args: readonly string[], io: BenchCliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(BENCH_VULKAN_USAGE);
    return 0;
  }
  const parsed = parseVulkanBenchArgs(args);
  if (typeof parsed === 'string') {
    io.stderr(`${parsed}\n${BENCH_VULKAN_USAGE}`);
    return 2;
  }
  try {
    if (parsed.record) {
      const result = await runRecordBench({
        ...(parsed.iterations !== undefined ? { frames: parsed.iterations } : {}),
        ...(parsed.repeats !== undefined ? { repeats: parsed.repeats } : {}),
        ...(parsed.driverManifest !== undefined ? { driverManifest: parsed.driverManifest } : {}),
        onProgress: (line) => io.stderr(`bench: ${line}\n`),
      });
      io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : formatRecordBenchMarkdown(result));
      return 0;
    }
    const result = await runVulkanBench({ ...parsed, onProgress: (line) => io.stderr(`bench: ${line}\n`) });
    io.stdout(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatVulkanBenchMarkdown(result)}\n${vulkanTargets(result).join('\n')}\n`);
    return 0;
  } catch (error) {
    io.stderr(`khronos-loader bench vulkan: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
