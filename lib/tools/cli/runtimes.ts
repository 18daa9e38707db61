// `khronos-loader runtimes [--json] [--check] [--all] [--timeout ms]`: formats what listRuntimes()
// (and, with --check, checkRuntimes()) returns. No decisions are taken here.
import type { LogWriter } from '../../core/log.js';
import { createHostPlatform } from '../../core/platform/host.js';
import { formatDiagnostic } from '../../openxr/discovery/diagnostics.js';
import { listRuntimes, type ListedRuntime } from '../../openxr/discovery/runtime-list.js';
import { checkRuntimes, type RuntimeCheckReport } from '../doctor/openxr/check-runtimes.js';
import { problemLines, statusLabel } from '../doctor/format.js';
import type { ComponentReport } from '../doctor/openxr/report.js';

export const RUNTIMES_USAGE = `usage: khronos-loader runtimes [--json] [--check] [--all] [--timeout <ms>]

  Lists every OpenXR runtime installed: on Linux the runtime manifests in the openxr/1 folders of
  the XDG configuration and data folders, on Windows the AvailableRuntimes registry values, and
  XR_RUNTIME_JSON; the active one is marked, with why, and each one's problems.
  --check         also load and negotiate each runtime in a child process of its own and create an
                  instance on it: its own name, version and extensions, or what is wrong
  --all           Windows: also the runtimes whose AvailableRuntimes value disables them
  --json          the list (and checks) as JSON
  --timeout <ms>  with --check: how long each runtime may take (default 5000)
  Any runtime listed can be used by one application without changing the active one:
  createLoader({ runtime: '<name>' }), or khronos-loader demo --runtime '<name>'.
  Exit code: with --check, 1 when the active runtime is broken; else 0.
`;

export interface RuntimesCliArgs {
  readonly json: boolean;
  readonly check: boolean;
  readonly all: boolean;
  readonly timeoutMs?: number;
}

export interface RuntimesCliIo {
  stdout: (text: string) => void;
  stderr: LogWriter;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Parses the arguments after "runtimes"; a string is the usage error. */
export function parseRuntimesArgs(args: readonly string[]): RuntimesCliArgs | string {
  let json = false;
  let check = false;
  let all = false;
  let timeoutMs: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--json') json = true;
    else if (a === '--check') check = true;
    else if (a === '--all') all = true;
    else if (a === '--timeout' || a.startsWith('--timeout=')) {
      const value = a === '--timeout' ? args[++i] : a.slice('--timeout='.length);
      const n = Number(value);
      if (value === undefined || value === '' || !Number.isFinite(n) || n <= 0) return `--timeout needs a positive number of milliseconds, got ${JSON.stringify(value ?? '')}`;
      timeoutMs = n;
    } else return `unknown argument ${JSON.stringify(a)}`;
  }
  return { json, check, all, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
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

export function formatRuntimes(runtimes: readonly ListedRuntime[], checks?: RuntimeCheckReport): string {
  const out = [`OpenXR runtimes (${runtimes.length} found${runtimes.some((r) => r.active) ? '; * marks the active one' : '; none is active'})`, ''];
  runtimes.forEach((r, i) => {
    out.push(...runtimeLines(r, checks?.components[i]), '');
  });
  if (runtimes.length === 0) out.push('No OpenXR runtime manifest was found.', '');
  else out.push(`Use one without changing the active runtime: createLoader({ runtime: '<name or manifest>' }) or khronos-loader demo --runtime '<name or manifest>'.`);
  if (checks) out.push(checks.broken ? 'BROKEN: the active runtime does not work.' : 'The active runtime works (or none is active).');
  return out.join('\n') + '\n';
}

export async function runRuntimesCli(args: readonly string[], io: RuntimesCliIo): Promise<number> {
  const parsed = parseRuntimesArgs(args);
  if (typeof parsed === 'string') {
    io.stderr(`${parsed}\n${RUNTIMES_USAGE}`);
    return 2;
  }
  const env = io.env ?? process.env;
  const runtimes = listRuntimes({
    platform: createHostPlatform({ env }),
    includeDisabled: parsed.all,
    // The list says everything; the loader's own lines only when asked for.
    logWriter: env.XR_LOADER_DEBUG !== undefined ? io.stderr : () => undefined,
  });
  const checks = parsed.check
    ? await checkRuntimes(runtimes, { env, ...(parsed.timeoutMs !== undefined ? { timeoutMs: parsed.timeoutMs } : {}) })
    : undefined;
  if (parsed.json) {
    const entries = runtimes.map((r, i) => ({ ...r, ...(checks ? { check: checks.components[i] } : {}) }));
    io.stdout(JSON.stringify({ runtimes: entries, ...(checks ? { broken: checks.broken, exitCode: checks.exitCode } : {}) }, null, 2) + '\n');
  } else io.stdout(formatRuntimes(runtimes, checks));
  return checks?.exitCode ?? 0;
}
