// The doctor's report as text (one line per problem, with what to do about it) and as JSON.
import type { ComponentReport, DoctorReport, Problem } from './report.js';

const STATUS: Readonly<Record<ComponentReport['status'], string>> = { ok: '[ok]     ', warning: '[warning]', broken: '[BROKEN] ' };

function cause(p: Problem): string {
  const where = `${p.why.file}${p.why.field ? ` [${p.why.field}]` : ''}${p.why.symbol ? ` (symbol ${p.why.symbol})` : ''}`;
  return `${where}: ${p.why.reason}`;
}

export function problemLines(p: Problem, indent: string): string[] {
  // A manifest diagnostic's reason is already the "what": then "why" only says where.
  const where = `${p.why.file}${p.why.field ? ` [${p.why.field}]` : ''}${p.why.symbol ? ` (symbol ${p.why.symbol})` : ''}`;
  const why = p.what.includes(p.why.reason) ? where : cause(p);
  return [`${indent}${p.severity === 'error' ? 'error' : 'warning'}: ${p.what}`, `${indent}  why: ${why}`, `${indent}  fix: ${p.fix}`];
}

function title(c: ComponentReport): string {
  if (c.kind === 'runtime') return `runtime ${c.name}`;
  if (c.kind === 'manifest') return `manifest ${c.manifestPath}`;
  return `${c.layerKind ?? 'API'} layer ${c.name}`;
}

/** "[ok]     ", "[warning]", "[BROKEN] ". */
export function statusLabel(status: ComponentReport['status']): string {
  return STATUS[status];
}

/** The last line: broken (and what), or OK with how many problems elsewhere. */
export function verdictLine<C extends Pick<ComponentReport, 'status' | 'inForce' | 'problems'>>(components: readonly C[], generalProblems: number, title: (c: C) => string, api: string): string {
  const broken = components.filter((c) => c.status === 'broken');
  const brokenInForce = broken.filter((c) => c.inForce);
  const problems = components.reduce((n, c) => n + c.problems.length, generalProblems);
  if (brokenInForce.length) return `BROKEN: ${brokenInForce.map(title).join(', ')} — ${api} applications started now will fail (${problems} problem${problems === 1 ? '' : 's'} in all).`;
  if (problems) return `OK for what is in force; ${problems} problem${problems === 1 ? '' : 's'} elsewhere${broken.length ? ` (broken but not in force: ${broken.map(title).join(', ')})` : ''}.`;
  return 'OK: no problems found.';
}

function componentLines(c: ComponentReport): string[] {
  const head = `${STATUS[c.status]} ${title(c)}${c.inForce ? ' (in force)' : ''}`;
  const out = [head];
  if (c.manifestPath && c.kind !== 'manifest') out.push(`            manifest: ${c.manifestPath}`);
  if (c.libraryPath) out.push(`            library:  ${c.libraryPath}`);
  out.push(`            in force: ${c.inForce ? 'yes' : 'no'} — ${c.inForceReason}`);
  if (c.negotiated) {
    const n = c.negotiated;
    out.push(`            negotiated: loader interface ${n.interfaceVersion}, OpenXR ${n.apiVersion}`);
    if (n.extensions) out.push(`            extensions: ${n.extensions.length ? n.extensions.map((e) => `${e.name} v${e.extensionVersion}`).join(', ') : 'none'}`);
  } else if (!c.probe.ran) {
    out.push(`            not loaded: ${c.probe.reason}`);
  }
  for (const p of c.problems) out.push(...problemLines(p, '            '));
  return out;
}

/** The whole text report, whichever API: the header, one block per component, the other problems, the verdict. */
export function formatReport<C extends Pick<ComponentReport, 'status' | 'inForce' | 'problems'>>(
  r: Pick<DoctorReport, 'platform' | 'general' | 'timeoutMs'> & { readonly components: readonly C[] },
  api: string,
  blockOf: (c: C) => string[],
  titleOf: (c: C) => string,
): string {
  const out: string[] = [];
  out.push(`khronos-loader doctor: ${api} (${r.platform.os}, ${r.platform.arch}${r.platform.elevated ? ', elevated' : ''}); each library loaded in a child process, ${r.timeoutMs / 1000} s limit`);
  out.push('');
  for (const c of r.components) out.push(...blockOf(c), '');
  if (r.general.length) {
    out.push('Other problems:');
    for (const p of r.general) out.push(...problemLines(p, '  '));
    out.push('');
  }
  out.push(verdictLine(r.components, r.general.length, titleOf, api));
  return out.join('\n') + '\n';
}

export function formatDoctorReport(r: DoctorReport): string {
  return formatReport(r, 'OpenXR', componentLines, title);
}

export function doctorReportJson(r: Pick<DoctorReport, 'api'> | { readonly api: 'vulkan' }): string {
  return JSON.stringify(r, null, 2) + '\n';
}
