// The doctor's report as text (one line per problem, with what to do about it) and as JSON,
// whichever API; each API's format.ts writes its own component blocks.
import type { ComponentStatus, DoctorReportOf, Problem } from './report.js';

/** What every API's component entry has that the text report reads. */
type ComponentLike = { readonly status: ComponentStatus; readonly inForce: boolean; readonly problems: readonly Problem[] };

const STATUS: Readonly<Record<ComponentStatus, string>> = { ok: '[ok]     ', warning: '[warning]', broken: '[BROKEN] ' };

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

/** "[ok]     ", "[warning]", "[BROKEN] ". */
export function statusLabel(status: ComponentStatus): string {
  return STATUS[status];
}

/** The last line: broken (and what), or OK with how many problems elsewhere. */
export function verdictLine<C extends ComponentLike>(components: readonly C[], generalProblems: number, title: (c: C) => string, api: string): string {
  const broken = components.filter((c) => c.status === 'broken');
  const brokenInForce = broken.filter((c) => c.inForce);
  const problems = components.reduce((n, c) => n + c.problems.length, generalProblems);
  if (brokenInForce.length) return `BROKEN: ${brokenInForce.map(title).join(', ')} — ${api} applications started now will fail (${problems} problem${problems === 1 ? '' : 's'} in all).`;
  if (problems) return `OK for what is in force; ${problems} problem${problems === 1 ? '' : 's'} elsewhere${broken.length ? ` (broken but not in force: ${broken.map(title).join(', ')})` : ''}.`;
  return 'OK: no problems found.';
}

/** The whole text report, whichever API: the header, one block per component, the other problems, the verdict. */
export function formatReport<C extends ComponentLike>(
  r: Pick<DoctorReportOf<string, C>, 'platform' | 'general' | 'timeoutMs' | 'components'>,
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

export function doctorReportJson(r: { readonly api: 'openxr' | 'vulkan' }): string {
  return JSON.stringify(r, null, 2) + '\n';
}
