// The OpenXR doctor's report as text: one block per runtime, API layer or unusable manifest.
import { formatReport, problemLines, statusLabel } from '../format.js';
import type { ComponentReport, DoctorReport } from './report.js';
import { isNoActiveRuntime, noActiveRuntimeVerdict } from './no-runtime.js';

function title(c: ComponentReport): string {
  if (isNoActiveRuntime(c)) return 'runtime: none active';
  if (c.kind === 'runtime') return `runtime ${c.name}`;
  if (c.kind === 'manifest') return `manifest ${c.manifestPath}`;
  return `${c.layerKind ?? 'API'} layer ${c.name}`;
}

function componentLines(c: ComponentReport): string[] {
  const head = `${statusLabel(c.status)} ${title(c)}${c.inForce ? ' (in force)' : ''}`;
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

export function formatDoctorReport(r: DoctorReport): string {
  const text = formatReport(r, 'OpenXR', componentLines, title);
  if (!r.components.some(isNoActiveRuntime) || r.broken) return text;
  // No runtime active and nothing else broken: the verdict `runtimes` gives too (no-runtime.ts).
  const lines = text.trimEnd().split('\n');
  lines[lines.length - 1] = noActiveRuntimeVerdict();
  return `${lines.join('\n')}\n`;
}
