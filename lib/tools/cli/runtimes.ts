// `khronos-loader runtimes [--json] [--check] [--all] [--timeout ms]`: formats what listRuntimes()
// (and, with --check, checkRuntimes()) returns, and the simulated runtime bundled with the package,
// listed apart. No decisions are taken here. The listing's modules are imported only once the
// arguments are right.
import { formatDiagnostic } from '../../openxr/discovery/diagnostics.js';
import type { ListedRuntime } from '../../openxr/discovery/runtime-list.js';
import type { RuntimeCheckReport } from '../doctor/openxr/check-runtimes.js';
import { problemLines, statusLabel } from '../doctor/format.js';
import { BUNDLED_RUNTIME_KEYWORD, noActiveRuntimeVerdict } from '../doctor/openxr/no-runtime.js';
import type { ComponentReport } from '../doctor/openxr/report.js';
import { errorMessage, parseOptions, runCommand, type CliIo } from './args.js';
import { RUNTIMES } from './specs.js';

export interface RuntimesCliArgs {
  readonly json: boolean;
  readonly check: boolean;
  readonly all: boolean;
  readonly timeoutMs?: number;
  /** --set-active: the runtime to make the user's active one first. */
  readonly setActive?: string;
}

/** The simulated runtime bundled with the package: not installed, usable by --runtime simulated. */
export interface BundledRuntime {
  /** The --runtime value that names it. */
  readonly keyword: typeof BUNDLED_RUNTIME_KEYWORD;
  /** The name in its manifest. */
  readonly name: string;
  readonly manifestPath: string;
}

function argsOf(o: Exclude<ReturnType<typeof parseOptions<typeof RUNTIMES>>, string>): RuntimesCliArgs {
  return {
    json: o['--json'] === true,
    check: o['--check'] === true,
    all: o['--all'] === true,
    ...(o['--timeout'] !== undefined ? { timeoutMs: o['--timeout'] } : {}),
    ...(o['--set-active'] !== undefined ? { setActive: o['--set-active'] } : {}),
  };
}

/** Parses the arguments after "runtimes"; a string is the argument error (one line). */
export function parseRuntimesArgs(args: readonly string[]): RuntimesCliArgs | string {
  const o = parseOptions(RUNTIMES, args);
  return typeof o === 'string' ? o : argsOf(o);
}

const INDENT = '      ';

function libraryLine(r: ListedRuntime): string {
  if (r.libraryPath === null) return '(the manifest cannot be read)';
  const note = r.libraryPathKind === 'bare' ? ' (bare name: the system library search decides)' : r.libraryExists === false ? ' — MISSING' : '';
  return `${r.libraryPath}${note}`;
}

function checkLines(c: ComponentReport): string[] {
  const out = [`    check:     ${statusLabel(c.status).trim()}`];
  const n = c.negotiated;
  if (n) {
    if (n.runtimeName !== undefined) out.push(`    runtime:   ${n.runtimeName}${n.runtimeVersion !== undefined ? ` ${n.runtimeVersion}` : ''}`);
    out.push(`    negotiated: loader interface ${n.interfaceVersion}, OpenXR ${n.apiVersion}`);
    if (n.extensions) out.push(`    extensions (${n.extensions.length}): ${n.extensions.map((e) => e.name).join(', ') || 'none'}`);
  } else if (!c.probe.ran) out.push(`    not loaded: ${c.probe.reason}`);
  if (c.problems.length === 0) out.push('    problems:  none');
  else out.push('    problems:', ...c.problems.flatMap((p) => problemLines(p, INDENT)));
  return out;
}

function runtimeLines(r: ListedRuntime, check: ComponentReport | undefined): string[] {
  const tags = [r.active ? 'active' : '', r.disabled ? 'disabled' : '', r.usable ? '' : 'unusable'].filter((t) => t !== '');
  const out = [`${r.active ? '*' : ' '} ${r.name}${tags.length ? `  [${tags.join(', ')}]` : ''}`];
  const elsewhere = r.foundAt.filter((f) => f.path !== r.manifestPath).map((f) => f.path);
  out.push(`    manifest:  ${r.manifestPath} (${r.source}${elsewhere.length ? `; also as ${elsewhere.join(', ')}` : ''})`);
  out.push(`    name:      from the ${r.nameFrom === 'manifest' ? 'manifest\'s "name" field' : 'file name (the manifest has no "name")'}`);
  out.push(`    library:   ${libraryLine(r)}`);
  out.push(`    active:    ${r.active ? `yes — ${r.activeReason}` : `no — ${r.activeReason}`}`);
  if (r.disabledReason !== undefined) out.push(`    disabled:  ${r.disabledReason}`);
  if (check) return [...out, ...checkLines(check)];
  if (r.problems.length === 0) out.push('    problems:  none');
  else out.push('    problems:', ...r.problems.map((p) => `${INDENT}${p.severity}: ${formatDiagnostic(p)}`));
  return out;
}

function bundledLines(bundled: BundledRuntime | undefined): string[] {
  if (bundled === undefined) return [];
  return [
    `Bundled with khronos-loader (not installed, not counted above; needs no installing):`,
    `  ${bundled.keyword} — ${bundled.name}`,
    `    manifest:  ${bundled.manifestPath}`,
    `    use:       --runtime ${bundled.keyword} on demo, info openxr and bench openxr`,
    '',
  ];
}

export function formatRuntimes(runtimes: readonly ListedRuntime[], checks?: RuntimeCheckReport, bundled?: BundledRuntime): string {
  const active = runtimes.some((r) => r.active);
  const out = [`OpenXR runtimes installed: ${runtimes.length}${active ? '; * marks the active one' : '; none is active'}`, ''];
  runtimes.forEach((r, i) => {
    out.push(...runtimeLines(r, checks?.components[i]), '');
  });
  if (runtimes.length === 0) out.push('No OpenXR runtime manifest was found.', '');
  else out.push(`Use one without changing the active runtime: --runtime '<name or manifest>' on demo, info openxr and bench openxr.`, '');
  out.push(...bundledLines(bundled));
  // The same words as the doctor's, and the same exit code (0): no active runtime is not a broken one.
  if (!active) out.push(noActiveRuntimeVerdict(runtimes.length));
  else if (checks) out.push(checks.broken ? 'BROKEN: the active runtime does not work.' : 'OK: the active runtime works.');
  return out.join('\n') + '\n';
}

/** The bundled simulated runtime, or undefined when this build has none (its library is not built). */
async function bundledRuntime(): Promise<BundledRuntime | undefined> {
  const { SIMULATED_RUNTIME_NAME, simulatedRuntime } = await import('../../openxr/simulated-runtime.js');
  try {
    return { keyword: BUNDLED_RUNTIME_KEYWORD, name: SIMULATED_RUNTIME_NAME, manifestPath: simulatedRuntime() };
  } catch {
    return undefined;
  }
}

export function runRuntimesCli(args: readonly string[], io: CliIo): Promise<number> {
  return runCommand(RUNTIMES, args, io, argsOf, async (parsed) => {
    try {
      const [{ createHostPlatform }, { listRuntimes }, { checkRuntimes }] = await Promise.all([
        import('../../core/platform/host.js'),
        import('../../openxr/discovery/runtime-list.js'),
        import('../doctor/openxr/check-runtimes.js'),
      ]);
      const env = io.env ?? process.env;
      const list = () => listRuntimes({ platform: createHostPlatform({ env }), includeDisabled: parsed.all, logWriter: () => undefined });
      let setActive: import('./set-active-runtime.js').SetActiveResult | undefined;
      if (parsed.setActive !== undefined) {
        const { setActiveRuntime } = await import('./set-active-runtime.js');
        setActive = setActiveRuntime(list(), parsed.setActive, env);
        if (!parsed.json) io.stdout(`Active runtime for this user: ${setActive.runtime} (${setActive.manifestPath}), written to ${setActive.file}${setActive.previous ? `; the one it replaces is kept as ${setActive.previous}` : ''}\n\n`);
      }
      const runtimes = listRuntimes({
        platform: createHostPlatform({ env }),
        includeDisabled: parsed.all,
        // The list says everything; the loader's own lines only when asked for.
        logWriter: env.XR_LOADER_DEBUG !== undefined ? io.stderr : () => undefined,
      });
      const checks = parsed.check
        ? await checkRuntimes(runtimes, { env, ...(parsed.timeoutMs !== undefined ? { timeoutMs: parsed.timeoutMs } : {}) })
        : undefined;
      const bundled = await bundledRuntime();
      if (parsed.json) {
        const entries = runtimes.map((r, i) => ({ ...r, ...(checks ? { check: checks.components[i] } : {}) }));
        const noActive = !runtimes.some((r) => r.active);
        io.stdout(
          JSON.stringify({ runtimes: entries, bundled: bundled ?? null, activeRuntime: !noActive, ...(setActive ? { setActive } : {}), ...(checks ? { broken: checks.broken, exitCode: checks.exitCode } : {}) }, null, 2) + '\n',
        );
      } else io.stdout(formatRuntimes(runtimes, checks, bundled));
      return checks?.exitCode ?? 0;
    } catch (error) {
      io.stderr(`khronos-loader runtimes failed: ${errorMessage(error)}\n`);
      return 1;
    }
  });
}
