#!/usr/bin/env node
// The khronos-loader command line. Thin: it formats what the library returns.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LogWriter } from '../../core/log.js';
import { discover } from '../../openxr/discovery/discover.js';
import { createLoader } from '../../openxr/loader.js';
import { runBenchCli } from '../bench/cli.js';
import { runDemoCli } from './demo.js';
import { runDoctorCli } from './doctor.js';
import { runRuntimesCli } from './runtimes.js';
import { formatOpenXrInfo } from './info.js';
import { discover as discoverVulkan } from '../../vulkan/discovery/discover.js';
import { formatVulkanInfo } from './info-vulkan.js';
import { processVulkanLoader } from '../../vulkan/api/process-loader.js';
import { PrebuildMissingError } from '../../core/native/binary.js';

const USAGE = `usage: khronos-loader <command>

commands:
  info openxr [--json] [--runtime <name|manifest>]
                         the active OpenXR runtime (or the one named, as an application choosing it gets it),
                         every API layer found, every problem
  info vulkan [--json]   the Vulkan drivers, every layer (kind, manifest, library, versions, on/off and why,
                         meta components), the loader settings file in force, every problem
  runtimes [--json] [--check] [--all]
                         every OpenXR runtime installed (the active one marked, why, problems); --check loads,
                         negotiates and creates an instance on each in a child process: its name, version, extensions
  demo [--seconds N] [--runtime <name|manifest>] [--vulkan] [--json]
                         a 90 Hz frame loop through the loader on the simulated runtime (or on --runtime's), with the
                         bundled pass-through layer (and core_validation when installed): frames, event-loop lag, ns per call
  doctor [openxr] [--json] [--timeout ms]
                         load and negotiate every runtime and layer (each in a child process); problems and fixes
  doctor vulkan [--json] [--timeout ms]
                         the same for every Vulkan driver (and its physical devices) and layer
  bench openxr [--command xrLocateSpace|...] [--layers N,names] [--json] [--svg file]
                         ns per call with 0..N pass-through layers and real layers, beside the Khronos loader and koffi
  bench vulkan [--command vkGetDeviceQueue|vkCmdPushConstants] [--layers 0,1,3,names] [--json]
                         ns per device call with pass-through layers and real layers, beside the Khronos loader, on lavapipe
`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: LogWriter;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Runs the CLI; returns the exit code (a promise for the commands that wait on child processes). */
export function runCli(argv: readonly string[], io: CliIo): number | Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'doctor') return runDoctorCli(rest, io);
  if (command === 'demo') return runDemoCli(rest, io);
  if (command === 'runtimes') return runRuntimesCli(rest, io);
  if (command === 'bench') return runBenchCli(rest, io);
  if (command === 'info') {
    const target = rest[0];
    const flags = rest.slice(1);
    // --runtime <name|manifest>: what an application that chose that runtime gets (OpenXR only).
    const at = flags.indexOf('--runtime');
    const runtime = target === 'openxr' && at !== -1 ? flags[at + 1] : undefined;
    if (runtime !== undefined) flags.splice(at, 2);
    if ((target !== 'openxr' && target !== 'vulkan') || flags.some((f) => f !== '--json') || (at !== -1 && !runtime)) {
      io.stderr(USAGE);
      return 2;
    }
    if (target === 'vulkan') {
      // The report says everything; the loader's own VK_LOADER_DEBUG lines would repeat it.
      const vk = discoverVulkan({ logWriter: () => {} });
      const processLoader = processVulkanLoader();
      io.stdout(flags.includes('--json') ? JSON.stringify({ ...vk, processVulkanLoader: processLoader }, null, 2) + '\n' : formatVulkanInfo(vk, processLoader));
      return 0;
    }
    let result;
    try {
      result = runtime === undefined ? discover({ logWriter: io.stderr }) : createLoader({ runtime, logWriter: io.stderr }).discover();
    } catch (error) {
      io.stderr(`info openxr failed: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    if (flags.includes('--json')) io.stdout(JSON.stringify(result, null, 2) + '\n');
    else io.stdout(formatOpenXrInfo(result));
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  io.stderr(USAGE);
  return 2;
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** A platform without a prebuilt binary gets the message alone, not a stack trace. */
function exitCodeForError(error: unknown, stderr: LogWriter): number {
  if (error instanceof PrebuildMissingError) {
    stderr(`${error.message}\n`);
    return 1;
  }
  throw error;
}

if (isMain()) {
  const stderr: LogWriter = (t) => process.stderr.write(t);
  new Promise<number>((resolve) => resolve(runCli(process.argv.slice(2), { stdout: (t) => process.stdout.write(t), stderr })))
    .catch((error: unknown) => exitCodeForError(error, stderr))
    .then((code) => {
      process.exitCode = code;
    });
}
