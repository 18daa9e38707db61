// VK-DR-1, VK-DR-2: finding drivers. Manifests in vulkan/icd.d of the layer folders (VK-LD-1),
// VK_DRIVER_FILES (or the older VK_ICD_FILENAMES) instead of them, VK_ADD_DRIVER_FILES before
// them, none of the three when elevated; the settings file's additional drivers prepended (or
// alone); then VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE over the manifest file names
// (disable first, select wins, as LoaderInterfaceArchitecture.md says). Android has no manifests:
// its driver is the HAL library /vendor/lib[64]/hw/vulkan.<platform>.so.
import { resolveLibraryPath, type LibraryPathKind } from '../../core/library-path.js';
import { pathOps } from '../../core/platform/platform.js';
import type { VulkanDiscoveryContext } from './context.js';
import { parseDriverManifest, type VulkanDriverManifest } from './driver-manifest.js';
import { logSearch, manifestFilesIn, readJsonManifest, type ManifestFile } from './manifest-files.js';
import { nameMatchesFilter, parseNameFilter } from './name-filter.js';
import { searchPlan, type VulkanSearchSource } from './search-folders.js';
import type { VulkanLoaderSettings } from './settings-file.js';
import { windowsLayerEntries } from './windows-registry.js';
import { packVulkanVersion } from './api-version.js';
import { driverPolicyDecision, type VulkanDriverPolicy } from './loader-policy.js';

export interface DiscoveredVulkanDriver {
  readonly manifestPath: string;
  readonly source: VulkanSearchSource;
  /** Undefined for the Android HAL driver (no manifest). */
  readonly manifest?: VulkanDriverManifest;
  readonly libraryPath: string;
  readonly libraryPathKind: LibraryPathKind;
  readonly libraryExists?: boolean;
  /** VK_MAKE_API_VERSION of ICD.api_version. */
  readonly apiVersion: number;
  readonly isPortabilityDriver: boolean;
  /** Whether the filters leave it in (a portability driver still needs the application's consent). */
  readonly selected: boolean;
  readonly reason: string;
}

export interface DriverDiscoveryResult {
  readonly drivers: readonly DiscoveredVulkanDriver[];
  readonly searched: readonly string[];
}

// VK-DR-2
/** The HAL library names Android's loader tries, in order. */
export function androidHalDriverPaths(ctx: VulkanDiscoveryContext): string[] {
  const android = ctx.platform.android;
  if (!android) return [];
  const dirs = ctx.platform.pointerBits === 64 ? ['/vendor/lib64/hw', '/system/lib64/hw'] : ['/vendor/lib/hw', '/system/lib/hw'];
  const out: string[] = [];
  for (const prop of ['ro.hardware.vulkan', 'ro.product.platform', 'ro.board.platform']) {
    const v = android.property(prop);
    if (!v) continue;
    for (const d of dirs) out.push(`${d}/vulkan.${v}.so`);
  }
  return out;
}

function androidDriver(ctx: VulkanDiscoveryContext): DriverDiscoveryResult {
  const candidates = androidHalDriverPaths(ctx);
  const found = candidates.find((p) => ctx.platform.fs.stat(p)?.kind === 'file');
  if (!found) {
    ctx.report({ severity: 'error', file: 'Android Vulkan HAL', reason: `no driver library found (looked for ${candidates.join(', ') || 'nothing: no ro.hardware.vulkan / ro.product.platform / ro.board.platform property'})`, code: 'VK_ERROR_INCOMPATIBLE_DRIVER' });
    return { drivers: [], searched: candidates };
  }
  return {
    drivers: [
      {
        manifestPath: found,
        source: 'android-hal',
        libraryPath: found,
        libraryPathKind: 'absolute',
        libraryExists: true,
        apiVersion: packVulkanVersion(1, 0, 0),
        isPortabilityDriver: false,
        selected: true,
        reason: 'the Android HAL driver library (VK-DR-2)',
      },
    ],
    searched: candidates,
  };
}

function manifestEntries(ctx: VulkanDiscoveryContext, settings: VulkanLoaderSettings | undefined): { files: ManifestFile[]; searched: string[] } {
  // The settings file's device_configurations (even an empty list) turn VK_DRIVER_FILES,
  // VK_ICD_FILENAMES and VK_ADD_DRIVER_FILES off, as they turn the driver filters off (1.4.359).
  const plan = searchPlan(ctx, 'icd', undefined, settings?.deviceConfigurations !== undefined);
  const entries = [...plan.entries, ...(ctx.platform.os === 'windows' && !plan.replacedBy ? windowsLayerEntries(ctx, 'icd') : [])];
  if (plan.replacedBy) ctx.log('info', `Using ${plan.replacedBy} instead of the standard driver folders`, undefined, 'driver');
  let files = manifestFilesIn(ctx, entries);
  if (settings && settings.additionalDrivers.length > 0) {
    if (settings.additionalDriversUseExclusively) files = [];
    // Each one is prepended, so the last listed comes first (as the Khronos loader does).
    for (const p of settings.additionalDrivers) files.unshift({ file: p, source: 'settings-file' });
  }
  const searched = entries.map((e) => e.path);
  logSearch(ctx, 'driver', searched, files);
  return { files, searched };
}

export function discoverVulkanDrivers(ctx: VulkanDiscoveryContext, settings?: VulkanLoaderSettings, policy?: VulkanDriverPolicy): DriverDiscoveryResult {
  if (ctx.platform.os === 'android') return androidDriver(ctx);
  const { files, searched } = manifestEntries(ctx, settings);
  // VK-DC-1: the settings file's device_configurations (even an empty list) take the driver filter
  // variables' place (1.4.359: loader_settings_should_use_driver_environment_variables).
  const useFilters = settings?.deviceConfigurations === undefined;
  const select = parseNameFilter(useFilters ? ctx.secureEnv('VK_LOADER_DRIVERS_SELECT') : undefined);
  const disable = parseNameFilter(useFilters ? ctx.secureEnv('VK_LOADER_DRIVERS_DISABLE') : undefined);
  const p = pathOps(ctx.platform);
  const drivers: DiscoveredVulkanDriver[] = [];
  for (const ref of files) {
    const json = readJsonManifest(ctx, ref.file);
    if ('error' in json) {
      ctx.report(json.error);
      continue;
    }
    const parsed = parseDriverManifest(ref.file, json.value, ctx.platform.pointerBits);
    for (const d of parsed.diagnostics) ctx.report(d);
    if (!parsed.ok) continue;
    const m = parsed.manifest;
    const lib = resolveLibraryPath(ctx.platform, p.dirname(ref.file), m.library_path);
    const fileName = p.basename(ref.file);
    let selected = true;
    let reason = `found via ${ref.source}`;
    const selectedByName = select.globs.length > 0 && nameMatchesFilter(fileName, select);
    if (disable.globs.length > 0 && nameMatchesFilter(fileName, disable) && !selectedByName) {
      selected = false;
      reason = `disabled by VK_LOADER_DRIVERS_DISABLE`;
      ctx.log('warn', `Driver "${fileName}" ignored because it was disabled by env var 'VK_LOADER_DRIVERS_DISABLE'`, undefined, 'driver');
    } else if (select.globs.length > 0 && !selectedByName) {
      selected = false;
      reason = `not selected by VK_LOADER_DRIVERS_SELECT`;
      ctx.log('warn', `Driver "${fileName}" ignored because not selected by env var 'VK_LOADER_DRIVERS_SELECT'`, undefined, 'driver');
    } else if (selectedByName) reason += ', selected by VK_LOADER_DRIVERS_SELECT';
    // VK-PO-5: the policy in code decides last.
    const decided = policy ? driverPolicyDecision(policy, fileName, selected) : undefined;
    if (decided) {
      reason = selected === decided.selected || decided.selected ? `found via ${ref.source}, ${decided.rule}` : decided.rule;
      selected = decided.selected;
      ctx.log('info', `Driver "${fileName}" ${decided.rule}`, undefined, 'driver');
    }
    if (lib.exists === false) ctx.report({ severity: 'warning', file: ref.file, field: 'ICD.library_path', reason: `the library ${lib.path} does not exist; loading the driver will fail` });
    drivers.push({
      manifestPath: ref.file,
      source: ref.source,
      manifest: m,
      libraryPath: lib.path,
      libraryPathKind: lib.kind,
      ...(lib.exists !== undefined ? { libraryExists: lib.exists } : {}),
      apiVersion: m.apiVersion.packed,
      isPortabilityDriver: m.is_portability_driver,
      selected,
      reason: m.is_portability_driver && selected ? `${reason}; a portability driver: used only when the application enables VK_KHR_portability_enumeration` : reason,
    });
  }
  return { drivers, searched };
}
