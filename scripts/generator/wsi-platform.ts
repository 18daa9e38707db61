// Emits vulkan_wsi_platform.h: what the loader needs of the window-system (platform) surface
// extensions it implements, which the platform rule keeps out of vulkan_types.h because they name
// X11, XCB, Wayland or Win32 types. From the registry: each extension's create-info structure
// (members in registry order), its VkStructureType value, its commands' signatures (PFN types) and
// which extension each command belongs to, as an X-macro table the loader builds its dispatch
// from. The one thing the registry cannot give is the platform types themselves: they stay opaque
// (the loader never reads through them), spelled by PLATFORM_TYPES below so that the structures
// have the layout of the platform headers' (Vulkan spec, "Window System Integration (WSI)").
import { bannerText, type ApiConfig } from './apis.js';
import type { Command, Declaration, Extension, RawEnum, Registry, RegistryType } from './registry.js';

/** The platform surface extensions this loader implements (docs/conformance.md, "Surfaces"). */
export const LOADER_WSI_PLATFORM_EXTENSIONS = ['VK_KHR_xlib_surface', 'VK_KHR_xcb_surface', 'VK_KHR_wayland_surface', 'VK_KHR_win32_surface'] as const;

/**
 * The platform types of those extensions: the spelling used in the generated header and the C
 * declaration that introduces it. Display, xcb_connection_t, wl_display and wl_surface keep their
 * own (incomplete struct) names so the types agree with the platform headers where both are seen;
 * the integer and handle types get names of their own with the platform header's width (Xlib's
 * XID is an unsigned long, XCB's ids are 32-bit, HINSTANCE and HWND are pointers).
 */
const PLATFORM_TYPES: Readonly<Record<string, { readonly spelling: string; readonly declaration: string }>> = {
  Display: { spelling: 'Display', declaration: 'typedef struct _XDisplay Display;' },
  Window: { spelling: 'KlXlibWindow', declaration: 'typedef unsigned long KlXlibWindow;' },
  VisualID: { spelling: 'KlXlibVisualId', declaration: 'typedef unsigned long KlXlibVisualId;' },
  xcb_connection_t: { spelling: 'xcb_connection_t', declaration: 'typedef struct xcb_connection_t xcb_connection_t;' },
  xcb_window_t: { spelling: 'KlXcbWindow', declaration: 'typedef uint32_t KlXcbWindow;' },
  xcb_visualid_t: { spelling: 'KlXcbVisualId', declaration: 'typedef uint32_t KlXcbVisualId;' },
  // The registry writes these with `struct` (`struct wl_display*`).
  wl_display: { spelling: 'wl_display', declaration: 'struct wl_display;' },
  wl_surface: { spelling: 'wl_surface', declaration: 'struct wl_surface;' },
  HINSTANCE: { spelling: 'KlWin32Instance', declaration: 'typedef void* KlWin32Instance;' },
  HWND: { spelling: 'KlWin32Window', declaration: 'typedef void* KlWin32Window;' },
};

/** The loader's name for a registry structure of these extensions: VkXlibSurfaceCreateInfoKHR -> KlXlibSurfaceCreateInfoKHR. */
const ownName = (name: string): string => `Kl${name.slice(2)}`;
/** The member of the loader's tables for a command: vkCreateXlibSurfaceKHR -> CreateXlibSurfaceKHR. */
const memberName = (command: string): string => command.slice(2);
/** The PFN type of a command: vkCreateXlibSurfaceKHR -> PFN_klCreateXlibSurfaceKHR. */
const pfnName = (command: string): string => `PFN_kl${command.slice(2)}`;

/** KlXlibSurfaceCreateInfoKHR's sType value: KL_VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR. */
const structureTypeMacro = (struct: string): string =>
  `KL_VK_STRUCTURE_TYPE_${struct
    .slice(2)
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()}`;

interface PlatformExtension {
  readonly extension: Extension;
  readonly specVersion: string;
  readonly structs: readonly RegistryType[];
  readonly flags: readonly RegistryType[];
  /** Each structure's VkStructureType value (its sType member's `values`). */
  readonly structureTypes: ReadonlyMap<string, number>;
  readonly commands: readonly Command[];
}

/** The value of an enum an extension adds to VkStructureType (Vulkan spec, "Assigning Extension Token Values"). */
function extensionEnumValue(e: RawEnum, ext: Extension): number {
  if (e.value !== undefined) return Number(e.value);
  if (e.offset === undefined) throw new Error(`${ext.name}: ${e.name} has neither a value nor an offset`);
  const value = 1_000_000_000 + ((e.extnumber ?? ext.number) - 1) * 1000 + e.offset;
  return e.negative ? -value : value;
}

function collect(registry: Registry, name: string): PlatformExtension {
  const extension = registry.extensions.find((e) => e.name === name);
  if (extension === undefined) throw new Error(`the registry has no ${name}`);
  const structs: RegistryType[] = [];
  const flags: RegistryType[] = [];
  const values = new Map<string, number>();
  const commands: Command[] = [];
  let specVersion = '';
  for (const block of extension.requires) {
    for (const t of block.types) {
      const type = registry.types.get(t);
      if (type === undefined) throw new Error(`${name}: unknown type ${t}`);
      if (type.category === 'struct') structs.push(type);
      else if (type.category === 'bitmask') flags.push(type);
      else throw new Error(`${name}: ${t} is a ${type.category}, which vulkan_wsi_platform.h does not emit`);
    }
    for (const e of block.enums) {
      if (e.name.endsWith('_SPEC_VERSION')) specVersion = e.value ?? '';
      if (e.extends === 'VkStructureType') values.set(e.name, extensionEnumValue(e, extension));
    }
    for (const c of block.commands) {
      const command = registry.commands.get(c);
      if (command === undefined || command.alias !== undefined) throw new Error(`${name}: ${c} is no command with a signature of its own`);
      commands.push(command);
    }
  }
  const structureTypes = new Map<string, number>();
  for (const s of structs) {
    const sType = s.members[0]?.name === 'sType' ? s.members[0].values : undefined;
    const value = sType === undefined ? undefined : values.get(sType);
    if (value === undefined) throw new Error(`${name}: ${s.name} has no sType value the extension defines`);
    structureTypes.set(s.name, value);
  }
  return { extension, specVersion, structs, flags, structureTypes, commands };
}

/** A declaration with the platform types, the extensions' own structures and their flags respelled. */
function respell(d: Declaration, own: ReadonlyMap<string, string>, registry: Registry, where: string): string {
  const known = own.get(d.typeName) ?? PLATFORM_TYPES[d.typeName]?.spelling;
  if (known === undefined) {
    const type = registry.types.get(d.typeName);
    // Everything else must be a type vulkan_types.h has: a Vulkan type the platform rule keeps (no platform requirement).
    if (type === undefined && !/^(u?int\d+_t|void|char|float|size_t)$/.test(d.typeName)) throw new Error(`${where}: unknown type ${d.typeName}`);
    if (type?.requires !== undefined && type.requires !== 'vk_platform') throw new Error(`${where}: ${d.typeName} needs ${type.requires}, which PLATFORM_TYPES does not spell`);
    return d.text;
  }
  return d.text.replace(new RegExp(`\\b${d.typeName}\\b`), known);
}

export function emitWsiPlatformHeader(cfg: ApiConfig, registry: Registry): string {
  const platforms = LOADER_WSI_PLATFORM_EXTENSIONS.map((name) => collect(registry, name));
  const own = new Map<string, string>();
  for (const p of platforms) {
    for (const s of p.structs) own.set(s.name, ownName(s.name));
    for (const f of p.flags) own.set(f.name, 'VkFlags');
  }
  const usedPlatformTypes = new Set<string>();
  const note = (d: Declaration): void => {
    if (PLATFORM_TYPES[d.typeName] !== undefined) usedPlatformTypes.add(d.typeName);
  };
  for (const p of platforms) {
    for (const s of p.structs) s.members.forEach(note);
    for (const c of p.commands) c.params.forEach(note);
  }

  const out: string[] = [];
  out.push(`// ${bannerText(cfg, registry)}`);
  out.push('// The window-system surface extensions the loader implements, which vulkan_types.h leaves out');
  out.push('// (they name platform types): their create-info structures, VkStructureType values, command');
  out.push('// signatures and the table of their commands. The platform types stay opaque (the loader never');
  out.push('// reads through them), spelled with the platform headers\' widths.');
  out.push('#pragma once', '', '#include "vulkan_types.h"', '');
  out.push('#ifdef __cplusplus', 'extern "C" {', '#endif', '');
  for (const [name, t] of Object.entries(PLATFORM_TYPES)) if (usedPlatformTypes.has(name)) out.push(`${t.declaration}  // ${name}, opaque`);
  out.push('');
  for (const p of platforms) {
    out.push(`/* ${p.extension.name} (extension ${p.extension.number}, spec version ${p.specVersion}) */`);
    for (const s of p.structs) {
      out.push(`typedef struct ${ownName(s.name)} {`);
      for (const m of s.members) out.push(`    ${respell(m, own, registry, `${s.name}.${m.name}`)};`);
      out.push(`} ${ownName(s.name)};`);
    }
    for (const c of p.commands) {
      const params = c.params.map((d) => respell(d, own, registry, `${c.name}(${d.name})`)).join(', ');
      out.push(`typedef ${c.returnType} (VKAPI_PTR *${pfnName(c.name)})(${params});`);
    }
    out.push('');
  }
  out.push('#ifdef __cplusplus', '}  // extern "C"', '#endif', '');
  out.push('/* The VkStructureType values of the create-info structures above. */');
  for (const p of platforms) {
    for (const [struct, value] of p.structureTypes) out.push(`#define ${structureTypeMacro(struct)} ((VkStructureType)${value})`);
  }
  out.push('');
  const rows = platforms.flatMap((p) => p.commands.map((c) => ({ command: c.name, extension: p.extension.name })));
  out.push(`/** The ${rows.length} commands of those extensions: X(command name, table member, PFN type, extension name). */`);
  out.push('#define KL_VK_WSI_PLATFORM_COMMANDS(X) \\');
  rows.forEach((r, i) => out.push(`    X("${r.command}", ${memberName(r.command)}, ${pfnName(r.command)}, "${r.extension}")${i < rows.length - 1 ? ' \\' : ''}`));
  out.push('');
  return out.join('\n');
}
