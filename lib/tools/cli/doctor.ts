// `khronos-loader doctor [openxr|vulkan] [--json] [--timeout ms]`: formats what doctor() or
// doctorVulkan() returns. The exit code is 1 when the active runtime (a selected Vulkan driver) or
// a layer in force is broken, 0 otherwise — also when no OpenXR runtime is active, which the
// report says (as `runtimes --check` does) —, 2 for an argument error (or if the doctor itself
// fails, which is a bug to report). No API named means OpenXR. The doctor's modules are imported
// only once the arguments are right.
import { errorMessage, parseOptions, runCommand, usageError, type CliIo } from './args.js';
import { DOCTOR_OPENXR, DOCTOR_VULKAN } from './specs.js';

export type DoctorCliIo = CliIo;

export interface DoctorCliArgs {
  readonly api: 'openxr' | 'vulkan';
  readonly json: boolean;
  readonly timeoutMs?: number;
}

/** The API the arguments name ("openxr" or "vulkan" first; none means OpenXR), or the argument error. */
function apiOf(args: readonly string[]): { readonly api: 'openxr' | 'vulkan'; readonly rest: readonly string[] } | string {
  const [first, ...rest] = args;
  if (first === 'openxr' || first === 'vulkan') return { api: first, rest };
  if (first !== undefined && !first.startsWith('-')) return `needs a target, "openxr" or "vulkan" (or none: openxr), got ${JSON.stringify(first)}`;
  return { api: 'openxr', rest: args };
}

/** Parses the arguments after "doctor"; a string is the argument error (one line). */
export function parseDoctorArgs(args: readonly string[]): DoctorCliArgs | string {
  const which = apiOf(args);
  if (typeof which === 'string') return which;
  const o = parseOptions(which.api === 'vulkan' ? DOCTOR_VULKAN : DOCTOR_OPENXR, which.rest);
  if (typeof o === 'string') return o;
  return { api: which.api, json: o['--json'] === true, ...(o['--timeout'] !== undefined ? { timeoutMs: o['--timeout'] } : {}) };
}

export async function runDoctorCli(args: readonly string[], io: CliIo): Promise<number> {
  const which = apiOf(args);
  if (typeof which === 'string') return usageError('doctor', which, io);
  return runCommand(which.api === 'vulkan' ? DOCTOR_VULKAN : DOCTOR_OPENXR, which.rest, io, () => parseDoctorArgs(args), async (parsed) => {
    try {
      const { doctor, doctorReportJson, doctorVulkan, formatDoctorReport, formatVulkanDoctorReport } = await import('../doctor/index.js');
      const env = io.env ?? process.env;
      // Inside Flatpak, Snap or pressure-vessel: which host folders are hidden, and what exposes them.
      const [{ detectSandbox, formatSandbox }, { createHostPlatform }] = await Promise.all([import('../../core/sandbox.js'), import('../../core/platform/host.js')]);
      const sandbox = detectSandbox(createHostPlatform({ env }));
      const print = (json: string, text: string): void => {
        if (parsed.json) io.stdout(sandbox === null ? json : `${JSON.stringify({ ...(JSON.parse(json) as object), sandbox }, null, 2)}\n`);
        else io.stdout(sandbox === null ? text : `${text}${formatSandbox(sandbox, parsed.api).join('\n')}\n`);
      };
      if (parsed.api === 'vulkan') {
        const report = await doctorVulkan({
          // Discovery's problems are in the report; its log lines only when asked for.
          logWriter: env.VK_LOADER_DEBUG !== undefined ? io.stderr : () => undefined,
          ...(io.env ? { env: io.env } : {}),
          ...(parsed.timeoutMs !== undefined ? { timeoutMs: parsed.timeoutMs } : {}),
        });
        print(doctorReportJson(report), formatVulkanDoctorReport(report));
        return report.exitCode;
      }
      const report = await doctor({
        // Discovery's problems are in the report; its log lines only when asked for.
        logWriter: env.XR_LOADER_DEBUG !== undefined ? io.stderr : () => undefined,
        ...(io.env ? { env: io.env } : {}),
        ...(parsed.timeoutMs !== undefined ? { timeoutMs: parsed.timeoutMs } : {}),
      });
      print(doctorReportJson(report), formatDoctorReport(report));
      return report.exitCode;
    } catch (err) {
      io.stderr(`khronos-loader doctor failed (this is a bug in khronos-loader, please report it): ${err instanceof Error ? (err.stack ?? errorMessage(err)) : String(err)}\n`);
      return 2;
    }
  });
}
