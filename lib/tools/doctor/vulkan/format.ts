// The Vulkan doctor's report as text: one block per driver and layer, one line per problem with
// why and what to do (the lines themselves are the OpenXR doctor's, format.ts).
import { formatReport, problemLines, statusLabel } from '../format.js';
import type { VulkanComponentReport, VulkanDoctorReport } from './report.js';

function title(c: VulkanComponentReport): string {
  return c.kind === 'driver' ? `driver ${c.name}` : `${c.layerKind ?? ''} layer ${c.name}`.trimStart();
}

function componentLines(c: VulkanComponentReport): string[] {
  const pad = '            ';
  const out = [`${statusLabel(c.status)} ${title(c)}${c.inForce ? (c.kind === 'driver' ? ' (selected)' : ' (in force)') : ''}`];
  out.push(`${pad}manifest: ${c.manifestPath}`);
  if (c.libraryPath) out.push(`${pad}library:  ${c.libraryPath}`);
  out.push(`${pad}${c.kind === 'driver' ? 'selected' : 'in force'}: ${c.inForce ? 'yes' : 'no'} — ${c.inForceReason}`);
  if (c.negotiated) {
    const n = c.negotiated;
    out.push(`${pad}negotiated: ${c.kind === 'driver' ? 'loader/driver' : 'loader/layer'} interface ${n.interfaceVersion}${n.apiVersion ? `, Vulkan ${n.apiVersion}` : ''}`);
    if (n.devices) out.push(`${pad}devices: ${n.devices.length ? n.devices.join(', ') : 'none'}`);
  } else if (!c.probe.ran) {
    out.push(`${pad}not loaded: ${c.probe.reason}`);
  }
  for (const p of c.problems) out.push(...problemLines(p, pad));
  return out;
}

export function formatVulkanDoctorReport(r: VulkanDoctorReport): string {
  return formatReport(r, 'Vulkan', componentLines, title);
}
