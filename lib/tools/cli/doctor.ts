// `khronos-loader doctor [openxr|vulkan] [--json] [--timeout ms]`: formats what doctor() or
// doctorVulkan() returns. The exit code is 1 when the active runtime (a selected Vulkan driver) or
// a layer in force is broken, 0 otherwise, 2 for a usage error (or if the doctor itself fails,
// which is a bug to report). No API named means OpenXR, as before Vulkan had a doctor.
import type { LogWriter } from '../../core/log.js';
import { doctor, doctorReportJson, doctorVulkan, formatDoctorReport, formatVulkanDoctorReport } from '../doctor/index.js';

export const DOCTOR_USAGE = `usage: khronos-loader doctor [openxr|vulkan] [--json] [--timeout <ms>]

  Checks every OpenXR (default) or Vulkan manifest found (schema, versions, library present,
  architecture), then loads and negotiates the active runtime / each Vulkan driver and each layer in
  a child process of its own, so a library that crashes or hangs cannot take the doctor down. A
  Vulkan driver that negotiates is asked for its physical devices. One line per problem, with what
  to do about it.
  --json          the report as JSON
  --timeout <ms>  how long each library may take to load and negotiate (default 5000)
  Exit code: 1 when the active runtime, a selected Vulkan driver or a layer in force is broken, else 0.
`;

export interface DoctorCliIo {
  stdout: (text: string) => void;
  stderr: LogWriter;
  env?: Readonly<Record<string, string | undefined>>;
}

export interface DoctorCliArgs {
  readonly api: 'openxr' | 'vulkan';
  readonly json: boolean;
  readonly timeoutMs?: number;
}

/** Parses the arguments after "doctor"; a string is the usage error. */
export function parseDoctorArgs(args: readonly string[]): DoctorCliArgs | string {
  let json = false;
  let timeoutMs: number | undefined;
  let target: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--json') json = true;
    else if (a === '--timeout' || a.startsWith('--timeout=')) {
      const value = a === '--timeout' ? args[++i] : a.slice('--timeout='.length);
      const n = Number(value);
      if (value === undefined || value === '' || !Number.isFinite(n) || n <= 0) return `--timeout needs a positive number of milliseconds, got ${JSON.stringify(value ?? '')}`;
      timeoutMs = n;
    } else if (!a.startsWith('-') && target === undefined) {
      target = a;
      if (target !== 'openxr' && target !== 'vulkan') return `doctor knows "openxr" and "vulkan", not ${JSON.stringify(target)}`;
    } else return `unknown argument ${JSON.stringify(a)}`;
  }
  return { api: target === 'vulkan' ? 'vulkan' : 'openxr', json, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}

export async function runDoctorCli(args: readonly string[], io: DoctorCliIo): Promise<number> {
  const parsed = parseDoctorArgs(args);
  if (typeof parsed === 'string') {
    io.stderr(`${parsed}\n${DOCTOR_USAGE}`);
    return 2;
  }
  try {
    const env = io.env ?? process.env;
    if (parsed.api === 'vulkan') {
      const report = await doctorVulkan({
        // Discovery's problems are in the report; its log lines only when asked for.
        logWriter: env.VK_LOADER_DEBUG !== undefined ? io.stderr : () => undefined,
        ...(io.env ? { env: io.env } : {}),
        ...(parsed.timeoutMs !== undefined ? { timeoutMs: parsed.timeoutMs } : {}),
      });
      io.stdout(parsed.json ? doctorReportJson(report) : formatVulkanDoctorReport(report));
      return report.exitCode;
    }
    const report = await doctor({
      // Discovery's problems are in the report; its log lines only when asked for.
      logWriter: env.XR_LOADER_DEBUG !== undefined ? io.stderr : () => undefined,
      ...(io.env ? { env: io.env } : {}),
      ...(parsed.timeoutMs !== undefined ? { timeoutMs: parsed.timeoutMs } : {}),
    });
    io.stdout(parsed.json ? doctorReportJson(report) : formatDoctorReport(report));
    return report.exitCode;
  } catch (err) {
    io.stderr(`khronos-loader doctor failed (this is a bug in khronos-loader, please report it): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 2;
  }
}
