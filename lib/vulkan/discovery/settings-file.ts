// VK-LF (beyond the spec): the loader settings file vk_loader_settings.json, as LoaderSettingsFile.md
// and the current Khronos loader (settings.c) read it. One settings object applies: the first whose
// app_keys name this executable, else the first without app_keys. It can order layers and turn them
// on or off, add drivers (or use only those), and choose what the loader logs to stderr.
import type { VulkanDeviceConfiguration } from '../plan/plan.js';
import type { VulkanDiagnostic } from './diagnostic.js';
import { describeJson, isJsonObject, member, stringArray, type JsonObject, type JsonValue as Json } from './json-value.js';

export type SettingsLayerControl = 'on' | 'off' | 'auto';

export type SettingsLayerEntry =
  | {
      readonly control: SettingsLayerControl;
      readonly name: string;
      /** The layer's manifest file. */
      readonly path: string;
      readonly treatAsImplicitManifest: boolean;
    }
  /** Where the layers the file does not name go in the order. */
  | { readonly control: 'unordered_layer_location' };

export interface VulkanLoaderSettings {
  readonly file: string;
  /** Which settings object applies: the matching app key, or 'global'. */
  readonly appliesTo: string;
  /** stderr_log filters (VK_LOADER_DEBUG words); undefined when the file does not set them. */
  readonly stderrLog?: readonly string[];
  /** The layer configuration; undefined when the file has none (then layers are found as usual). */
  readonly layers?: readonly SettingsLayerEntry[];
  readonly additionalDrivers: readonly string[];
  readonly additionalDriversUseExclusively: boolean;
  /**
   * device_configurations: the well-formed entries in the file's order (malformed ones are
   * skipped). Undefined when the file has none; an empty list still turns the device selection on
   * (then vkEnumeratePhysicalDevices finds no device).
   */
  readonly deviceConfigurations?: readonly SettingsDeviceConfiguration[];
}

/** One device_configurations entry, with its numbers as the Khronos loader stores them (the plan carries it as is). */
export type SettingsDeviceConfiguration = VulkanDeviceConfiguration;

export type SettingsFileParse =
  | { readonly ok: true; readonly settings: VulkanLoaderSettings; readonly diagnostics: readonly VulkanDiagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly VulkanDiagnostic[] };

export const SETTINGS_FILE_NAME = 'vk_loader_settings.json';

function controlOf(text: string): SettingsLayerControl | 'unordered_layer_location' {
  // The Khronos loader treats an unknown word as "auto".
  if (text === 'on' || text === 'off' || text === 'unordered_layer_location') return text;
  return 'auto';
}

function parseLayers(file: string, settings: JsonObject, diagnostics: VulkanDiagnostic[]): SettingsLayerEntry[] | undefined {
  const node = member(settings, 'layers');
  if (node === undefined) return undefined;
  if (!Array.isArray(node)) {
    diagnostics.push({ severity: 'warning', file, field: 'layers', reason: `should be an array, found ${describeJson(node)}; the layer configuration is ignored` });
    return undefined;
  }
  const out: SettingsLayerEntry[] = [];
  for (const [i, entry] of node.entries()) {
    // One bad entry drops the whole layer configuration, as in the Khronos loader.
    const bad = (reason: string): undefined => {
      diagnostics.push({ severity: 'warning', file, field: `layers[${i}]`, reason: `${reason}; the layer configuration is ignored` });
      return undefined;
    };
    if (!isJsonObject(entry)) return bad(`should be an object, found ${describeJson(entry)}`);
    const control = member(entry, 'control');
    if (typeof control !== 'string') return bad(`"control" must be a string, found ${describeJson(control)}`);
    const c = controlOf(control);
    if (c === 'unordered_layer_location') {
      out.push({ control: c });
      continue;
    }
    const name = member(entry, 'name');
    const path = member(entry, 'path');
    if (typeof name !== 'string' || typeof path !== 'string') return bad(`"name" and "path" must be strings, found ${describeJson(name)} and ${describeJson(path)}`);
    out.push({ control: c, name, path, treatAsImplicitManifest: member(entry, 'treat_as_implicit_manifest') === true });
  }
  return out;
}

function parseDrivers(file: string, settings: JsonObject, diagnostics: VulkanDiagnostic[]): string[] {
  const node = member(settings, 'additional_drivers');
  if (node === undefined) return [];
  if (!Array.isArray(node)) {
    diagnostics.push({ severity: 'warning', file, field: 'additional_drivers', reason: `should be an array, found ${describeJson(node)}; ignored` });
    return [];
  }
  const out: string[] = [];
  for (const [i, d] of node.entries()) {
    const path = isJsonObject(d) ? member(d, 'path') : undefined;
    if (typeof path !== 'string') {
      diagnostics.push({ severity: 'warning', file, field: `additional_drivers[${i}]`, reason: 'must be an object with a "path" string; the additional drivers are ignored' });
      return [];
    }
    out.push(path);
  }
  return out;
}

/** cJSON's valueint: the number saturated to a C int, then truncated. */
function cJsonInt(n: number): number {
  if (n >= 2147483647) return 2147483647;
  if (n <= -2147483648) return -2147483648;
  return Math.trunc(n);
}

/** 16 numbers 0..255 (as valueint reads them); undefined when anything else. */
function uuidOf(v: Json | undefined): number[] | undefined {
  if (!Array.isArray(v) || v.length !== 16) return undefined;
  const out: number[] = [];
  for (const item of v) {
    if (typeof item !== 'number') return undefined;
    const b = cJsonInt(item);
    if (b < 0 || b > 255) return undefined;
    out.push(b);
  }
  return out;
}

/**
 * A name as the Khronos loader copies it into its 256-byte field (its cJSON printer): control
 * characters but \b \f \n \r \t become "uXXXX", and a name whose printed form does not fit is
 * left empty.
 */
function loaderNameOf(v: Json | undefined): string {
  if (typeof v !== 'string') return '';
  const cut = v.includes('\0') ? v.slice(0, v.indexOf('\0')) : v;
  let extra = 0;
  let printed = '';
  for (const ch of cut) {
    const c = ch.codePointAt(0) ?? 0;
    if ('"\\\b\f\n\r\t'.includes(ch)) {
      extra += 1;
      printed += ch;
    } else if (c < 32) {
      extra += 5;
      printed += `u${c.toString(16).padStart(4, '0')}`;
    } else printed += ch;
  }
  return new TextEncoder().encode(cut).length + extra + 2 <= 256 ? printed : '';
}

/**
 * device_configurations as 1.4.359 reads them (settings.c, parse_device_configurations): the
 * value's members in order (an array's elements; a non-container has none). A member that is not
 * an object drops them all (the selection stays off); an object without 16-number deviceUUID and
 * driverUUID and a numeric driverVersion is skipped, the others kept.
 */
function parseDeviceConfigurations(file: string, settings: JsonObject, diagnostics: VulkanDiagnostic[]): SettingsDeviceConfiguration[] | undefined {
  const node = member(settings, 'device_configurations');
  if (node === undefined) return undefined;
  const members: Json[] = Array.isArray(node) ? node : isJsonObject(node) ? Object.values(node) : [];
  if (!Array.isArray(node)) {
    diagnostics.push({ severity: 'warning', file, field: 'device_configurations', reason: `should be an array, found ${describeJson(node)}; read as ${members.length} entries, as the Khronos loader reads it` });
  }
  const out: SettingsDeviceConfiguration[] = [];
  for (const [index, entry] of members.entries()) {
    const field = `device_configurations[${index}]`;
    if (!isJsonObject(entry)) {
      diagnostics.push({ severity: 'warning', file, field, reason: `should be an object, found ${describeJson(entry)}; the device configurations are ignored` });
      return undefined;
    }
    const deviceUUID = uuidOf(member(entry, 'deviceUUID'));
    const driverUUID = uuidOf(member(entry, 'driverUUID'));
    const version = member(entry, 'driverVersion');
    const missing = [deviceUUID ? undefined : 'deviceUUID (16 integers 0..255)', driverUUID ? undefined : 'driverUUID (16 integers 0..255)', typeof version === 'number' ? undefined : 'driverVersion (a number)'].filter(
      (m): m is string => m !== undefined,
    );
    if (!deviceUUID || !driverUUID || typeof version !== 'number') {
      diagnostics.push({ severity: 'warning', file, field, reason: `needs ${missing.join(', ')}; this entry is skipped` });
      continue;
    }
    out.push({
      index,
      deviceUUID,
      driverUUID,
      driverVersion: cJsonInt(version) >>> 0,
      deviceName: loaderNameOf(member(entry, 'deviceName')),
      driverName: loaderNameOf(member(entry, 'driverName')),
    });
  }
  return out;
}

/** `executablePath` decides which settings object applies (app_keys are executable paths). */
export function parseSettingsFile(file: string, root: unknown, executablePath: string): SettingsFileParse {
  const diagnostics: VulkanDiagnostic[] = [];
  const fail = (field: string | undefined, reason: string): SettingsFileParse => {
    diagnostics.push({ severity: 'warning', file, ...(field ? { field } : {}), reason: `${reason}; no loader settings are active` });
    return { ok: false, diagnostics };
  };
  if (!isJsonObject(root)) return fail(undefined, `the top level is ${describeJson(root)}, not a JSON object`);
  if (typeof member(root, 'file_format_version') !== 'string') return fail('file_format_version', 'required string is missing');
  const array = member(root, 'settings_array');
  const single = member(root, 'settings');
  let candidates: unknown[];
  if (array !== undefined) candidates = Array.isArray(array) ? array : [];
  else if (single !== undefined) candidates = [single];
  else return fail(undefined, 'neither "settings" nor "settings_array" is present');

  let global: JsonObject | undefined;
  let chosen: { settings: JsonObject; appliesTo: string } | undefined;
  for (const [i, s] of candidates.entries()) {
    if (!isJsonObject(s)) {
      diagnostics.push({ severity: 'warning', file, field: `settings_array[${i}]`, reason: `should be an object, found ${describeJson(s)}; the rest are not read` });
      break;
    }
    const keys = member(s, 'app_keys');
    if (keys === undefined) {
      global ??= s;
      continue;
    }
    if ((stringArray(keys)?.values ?? []).includes(executablePath)) {
      chosen = { settings: s, appliesTo: executablePath };
      break;
    }
  }
  chosen ??= global ? { settings: global, appliesTo: 'global' } : undefined;
  if (!chosen) return fail(undefined, `no settings object is global and none names this executable (${executablePath}) in app_keys`);

  const { settings } = chosen;
  const stderr = member(settings, 'stderr_log');
  const stderrLog = stderr === undefined ? undefined : (stringArray(stderr)?.values ?? []);
  const layers = parseLayers(file, settings, diagnostics);
  const additionalDrivers = parseDrivers(file, settings, diagnostics);
  const deviceConfigurations = parseDeviceConfigurations(file, settings, diagnostics);
  const active = (stderrLog !== undefined && stderrLog.length > 0) || layers !== undefined || additionalDrivers.length > 0 || deviceConfigurations !== undefined;
  if (!active) return fail(undefined, 'the file contains no valid settings');
  return {
    ok: true,
    settings: {
      file,
      appliesTo: chosen.appliesTo,
      ...(stderrLog !== undefined ? { stderrLog } : {}),
      ...(layers !== undefined ? { layers } : {}),
      additionalDrivers,
      additionalDriversUseExclusively: member(settings, 'additional_drivers_use_exclusively') === true,
      ...(deviceConfigurations !== undefined ? { deviceConfigurations } : {}),
    },
    diagnostics,
  };
}
