// VK-LD-3 (and VK-DR-1 on Windows): manifests named in the registry, as an adapter over the
// injected RegistryView. First the PnP device keys of display adapters and software components
// (VulkanDriverName / VulkanExplicitLayers / VulkanImplicitLayers, "...Wow" for a 32-bit process on
// a 64-bit OS; REG_SZ or REG_MULTI_SZ), then HKLM and (not elevated) HKCU
// SOFTWARE\Khronos\Vulkan\{Drivers|ExplicitLayers|ImplicitLayers}, where each value's name is a
// manifest path and DWORD 0 means "use it" (WOW6432Node for a 32-bit process on a 64-bit OS).
import type { RegistryHive } from '../../core/platform/platform.js';
import type { VulkanDiscoveryContext } from './context.js';
import type { VulkanManifestKind, VulkanSearchEntry } from './search-folders.js';

const KHRONOS_KEY: Readonly<Record<VulkanManifestKind, string>> = {
  icd: 'Drivers',
  explicit_layer: 'ExplicitLayers',
  implicit_layer: 'ImplicitLayers',
};

const PNP_VALUE: Readonly<Record<VulkanManifestKind, string>> = {
  icd: 'VulkanDriverName',
  explicit_layer: 'VulkanExplicitLayers',
  implicit_layer: 'VulkanImplicitLayers',
};

/** Display adapters, then software components (the device setup classes the Khronos loader asks). */
export const PNP_DEVICE_CLASSES = [
  'SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}',
  'SYSTEM\\CurrentControlSet\\Control\\Class\\{5c4c3332-344d-483c-8739-259e934c9cc8}',
] as const;

function wow(ctx: VulkanDiscoveryContext): boolean {
  return ctx.platform.pointerBits === 32 && ctx.platform.registry?.os64Bit === true;
}

function pnpEntries(ctx: VulkanDiscoveryContext, kind: VulkanManifestKind): VulkanSearchEntry[] {
  const registry = ctx.platform.registry;
  if (!registry?.subkeys) return [];
  const valueName = PNP_VALUE[kind] + (wow(ctx) ? 'Wow' : '');
  const out: VulkanSearchEntry[] = [];
  for (const classKey of PNP_DEVICE_CLASSES) {
    for (const device of registry.subkeys('HKLM', classKey) ?? []) {
      const key = `${classKey}\\${device}`;
      for (const v of registry.values('HKLM', key) ?? []) {
        if (v.name.toLowerCase() !== valueName.toLowerCase()) continue;
        if (v.type === 'REG_SZ' && typeof v.data === 'string') out.push({ path: v.data, source: 'registry' });
        else if (v.type === 'REG_MULTI_SZ' && Array.isArray(v.data)) for (const p of v.data as readonly string[]) out.push({ path: p, source: 'registry' });
        else ctx.report({ severity: 'warning', file: `HKEY_LOCAL_MACHINE\\${key}`, field: v.name, reason: `is ${v.type}, not REG_SZ or REG_MULTI_SZ; ignored` });
      }
    }
  }
  return out;
}

export function windowsLayerEntries(ctx: VulkanDiscoveryContext, kind: VulkanManifestKind): VulkanSearchEntry[] {
  const registry = ctx.platform.registry;
  if (!registry) return [];
  const out = pnpEntries(ctx, kind);
  // An elevated process does not act on what a normal user can write (HKCU); drivers come from HKLM only.
  const hives: RegistryHive[] = kind === 'icd' || ctx.platform.elevated ? ['HKLM'] : ['HKLM', 'HKCU'];
  for (const hive of hives) {
    // Windows redirects a 32-bit process's HKLM\SOFTWARE to WOW6432Node; HKCU\SOFTWARE is shared.
    const key = `SOFTWARE\\${hive === 'HKLM' && wow(ctx) ? 'WOW6432Node\\' : ''}Khronos\\Vulkan\\${KHRONOS_KEY[kind]}`;
    for (const v of registry.values(hive, key) ?? []) {
      const where = `${hive === 'HKLM' ? 'HKEY_LOCAL_MACHINE' : 'HKEY_CURRENT_USER'}\\${key}`;
      if (v.type !== 'REG_DWORD' || typeof v.data !== 'number') {
        ctx.report({ severity: 'warning', file: where, field: v.name, reason: `is ${v.type}, not a DWORD; ignored` });
        continue;
      }
      if (v.data !== 0) {
        ctx.log('info', `Skipping ${v.name}: its value under ${where} is ${v.data}, not 0`, undefined, kind === 'icd' ? 'driver' : 'layer');
        continue;
      }
      out.push({ path: v.name, source: 'registry' });
    }
  }
  return out;
}
