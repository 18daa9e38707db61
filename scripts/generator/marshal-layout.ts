// Emits native/generated/openxr_layout_check.h: every structure of the marshal tables with each
// member, each under the macro of the core version or extension that defines it, so a program
// compiled against another set of OpenXR headers (the system's) prints the layouts those headers
// give for exactly what they define (test/native/xr_generated_layout compares them with the tables).
import { bannerText, type ApiConfig } from './apis.js';
import type { MarshalModel } from './marshal-model.js';
import type { Selection } from './select.js';

export function emitLayoutCheck(cfg: ApiConfig, sel: Selection, model: MarshalModel): string {
  const out: string[] = [`// ${bannerText(cfg, sel.registry)}`];
  out.push('// KL_LAYOUT_STRUCT(S) and KL_LAYOUT_FIELD(S, member) for every structure of openxr_marshal.h, each');
  out.push('// under the macro its header section defines (XR_VERSION_1_0, XR_EXT_hand_tracking, ...). The includer');
  out.push('// defines both macros and includes an OpenXR header set first.');
  const byUnit = new Map<string, typeof model.structs[number][]>();
  for (const s of model.structs) {
    const list = byUnit.get(s.definedBy) ?? [];
    list.push(s);
    byUnit.set(s.definedBy, list);
  }
  for (const [unit, structs] of byUnit) {
    out.push(`#if defined(${unit})`);
    for (const s of structs) {
      out.push(`KL_LAYOUT_STRUCT(${s.name})`);
      for (const f of s.fields) out.push(`KL_LAYOUT_FIELD(${s.name}, ${f.name})`);
    }
    out.push(`#endif // ${unit}`);
  }
  out.push('');
  return out.join('\n');
}
