// The doctor's child process: loads one runtime or API layer library and negotiates with it,
// then prints one JSON line (protocol.ts) and exits. Run as
//   node probe-child.js '<job JSON>'            (the compiled package)
//   node --import tsx probe-child.ts '<job>'    (from the TypeScript sources, in tests)
// If the library crashes or hangs, only this process is lost; the parent reports it.
import { writeSync } from 'node:fs';
import { loaderLog, type LogRecord } from '../../core/log.js';
import type { ProbeAnswerLine, ProbeErrorLine, ProbeJob, ProbeStartLine } from './protocol.js';
import { loadToolsAddon } from '../native/addon.js';
import { InvalidArgumentError } from '../../core/errors.js';

function emit(line: ProbeStartLine | ProbeAnswerLine | ProbeErrorLine): void {
  // Synchronous, so the line is out before a crash that may follow.
  writeSync(1, JSON.stringify(line) + '\n');
}

function readJob(text: string | undefined): ProbeJob {
  if (text === undefined) throw new InvalidArgumentError('usage: probe-child <job JSON>');
  const job = JSON.parse(text) as Partial<ProbeJob>;
  if (!['runtime', 'api-layer', 'vulkan-driver', 'vulkan-layer'].includes(job.target ?? '')) throw new InvalidArgumentError('job.target must be "runtime", "api-layer", "vulkan-driver" or "vulkan-layer"');
  for (const key of ['name', 'libraryPath', 'negotiateFunctionName', 'manifestPath'] as const) {
    if (typeof job[key] !== 'string') throw new InvalidArgumentError(`job.${key} must be a string`);
  }
  return job as ProbeJob;
}

function main(): void {
  let job: ProbeJob;
  const log: Pick<LogRecord, 'level' | 'source' | 'message'>[] = [];
  try {
    job = readJob(process.argv[2]);
    loaderLog.on('record', (r) => log.push({ level: r.level, source: r.source, message: r.message }));
    const addon = loadToolsAddon();
    emit({ klProbe: 'start' });
    const target = { libraryPath: job.libraryPath, negotiateFunctionName: job.negotiateFunctionName, manifestPath: job.manifestPath };
    const names = { ...(job.getInstanceProcAddrName ? { getInstanceProcAddrName: job.getInstanceProcAddrName } : {}), ...(job.getDeviceProcAddrName ? { getDeviceProcAddrName: job.getDeviceProcAddrName } : {}) };
    const result =
      job.target === 'runtime'
        ? addon.openxrProbeRuntime({ ...target, ...(job.createInstance === true ? { createInstance: true } : {}) })
        : job.target === 'api-layer'
          ? addon.openxrProbeApiLayer({ ...target, name: job.name })
          : job.target === 'vulkan-driver'
            ? addon.vulkanProbeDriver({ libraryPath: job.libraryPath, manifestPath: job.manifestPath })
            : addon.vulkanProbeLayer({ ...target, ...names, name: job.name });
    // Native log records come through an async handle: let the loop deliver them first.
    setImmediate(() => emit({ klProbe: 'answer', result, log }));
  } catch (err) {
    emit({ klProbe: 'error', message: err instanceof Error ? err.message : String(err) });
    process.exitCode = 1;
  }
}

main();
