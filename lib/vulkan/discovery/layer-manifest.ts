// VK-LM-1..4: the layer manifest, file format versions 1.0.0 to 1.2.x, every field, read as the
// Khronos loader reads it (loader_add_layer_properties / loader_read_layer_json). A manifest gives
// zero or more layers; every layer it cannot use and every field it ignores is a diagnostic.
import { atoiUnsigned, parseVulkanVersion, type VulkanVersion } from './api-version.js';
import type { VulkanDiagnostic } from './diagnostic.js';
import { describeJson, isJsonObject, member, stringArray, type JsonObject, type JsonValue } from './json-value.js';

export type VulkanLayerKind = 'implicit' | 'explicit';

export interface VulkanExtensionProperty {
  readonly extensionName: string;
  readonly specVersion: number;
}

export interface VulkanDeviceExtensionProperty extends VulkanExtensionProperty {
  readonly entrypoints: readonly string[];
}

/** enable_environment / disable_environment: the first member of the object. */
export interface EnvironmentCondition {
  readonly name: string;
  readonly value: string;
}

export interface VulkanLayerManifest {
  readonly file_format_version: string;
  readonly fileFormat: VulkanVersion;
  readonly name: string;
  readonly type: 'INSTANCE' | 'GLOBAL';
  /** Absent for meta layers. */
  readonly library_path?: string;
  readonly library_arch?: '32' | '64';
  readonly description: string;
  readonly api_version: string;
  readonly apiVersion: VulkanVersion;
  /** atoi of the manifest's string: VkLayerProperties.implementationVersion. */
  readonly implementation_version: number;
  /** Renamed interface functions (vkNegotiateLoaderLayerInterfaceVersion, and before 1.1.0 the GIPA/GDPA). */
  readonly functions: Readonly<Record<string, string>>;
  readonly instance_extensions: readonly VulkanExtensionProperty[];
  readonly device_extensions: readonly VulkanDeviceExtensionProperty[];
  readonly enable_environment?: EnvironmentCondition;
  readonly disable_environment?: EnvironmentCondition;
  /** Meta layers only. */
  readonly component_layers?: readonly string[];
  /** The override meta layer only. */
  readonly override_paths?: readonly string[];
  readonly blacklisted_layers?: readonly string[];
  readonly app_keys?: readonly string[];
  /** Implicit layers, manifest 1.1.2+: Vulkan function name → symbol. */
  readonly pre_instance_functions: Readonly<Record<string, string>>;
}

export interface LayerManifestParse {
  readonly layers: readonly VulkanLayerManifest[];
  readonly diagnostics: readonly VulkanDiagnostic[];
}

export const OVERRIDE_LAYER_NAME = 'VK_LAYER_LUNARG_override';

const PRE_INSTANCE_FUNCTIONS = [
  'vkEnumerateInstanceExtensionProperties',
  'vkEnumerateInstanceLayerProperties',
  'vkEnumerateInstanceVersion',
] as const;

export function atLeastFileFormat(v: VulkanVersion, major: number, minor: number, patch: number): boolean {
  if (v.major !== major) return v.major > major;
  if (v.minor !== minor) return v.minor > minor;
  return v.patch >= patch;
}

/** 1.0.0, 1.0.1, 1.1.0-1.1.2 and 1.2.0-1.2.1 are the versions the spec defines. */
function knownFileFormat(v: VulkanVersion): boolean {
  if (v.major !== 1) return false;
  if (v.minor === 0) return v.patch <= 1;
  if (v.minor === 1) return v.patch <= 2;
  return v.minor === 2 && v.patch <= 1;
}

interface LayerContext {
  readonly file: string;
  readonly kind: VulkanLayerKind;
  readonly pointerBits: 32 | 64;
  readonly fileFormat: VulkanVersion;
  readonly file_format_version: string;
  readonly diagnostics: VulkanDiagnostic[];
}

function extensionList(ctx: LayerContext, prefix: string, field: string, v: JsonValue | undefined, device: boolean): VulkanDeviceExtensionProperty[] {
  const out: VulkanDeviceExtensionProperty[] = [];
  if (v === undefined) return out;
  if (!Array.isArray(v)) {
    ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.${field}`, reason: `should be an array, found ${describeJson(v)}; ignored` });
    return out;
  }
  v.forEach((entry, i) => {
    const where = `${prefix}.${field}[${i}]`;
    if (!isJsonObject(entry)) {
      ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: where, reason: `should be an object, found ${describeJson(entry)}; ignored` });
      return;
    }
    const name = member(entry, 'name');
    const spec = member(entry, 'spec_version');
    if (typeof name !== 'string' || typeof spec !== 'string') {
      ctx.diagnostics.push({
        severity: 'warning',
        file: ctx.file,
        field: where,
        reason: `needs "name" and "spec_version" strings, found ${describeJson(name)} and ${describeJson(spec)}; ignored`,
      });
      return;
    }
    const entrypoints = device ? (stringArray(member(entry, 'entrypoints'))?.values ?? []) : [];
    out.push({ extensionName: name, specVersion: atoiUnsigned(spec), entrypoints });
  });
  return out;
}

function condition(ctx: LayerContext, prefix: string, field: string, v: JsonValue | undefined): EnvironmentCondition | undefined {
  if (v === undefined) return undefined;
  if (!isJsonObject(v)) {
    ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.${field}`, reason: `should be an object of one variable name and value, found ${describeJson(v)}; ignored` });
    return undefined;
  }
  const first = Object.entries(v)[0];
  if (first === undefined) return undefined;
  const [name, value] = first;
  if (typeof value !== 'string') {
    ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.${field}.${name}`, reason: `the value should be a string, found ${describeJson(value)}; ignored` });
    return undefined;
  }
  return { name, value };
}

function stringMap(ctx: LayerContext, prefix: string, field: string, v: JsonValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (v === undefined) return out;
  if (!isJsonObject(v)) {
    ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.${field}`, reason: `should be an object, found ${describeJson(v)}; ignored` });
    return out;
  }
  for (const [k, sym] of Object.entries(v)) {
    if (typeof sym === 'string') Object.defineProperty(out, k, { value: sym, enumerable: true, writable: false });
    else ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.${field}.${k}`, reason: `should be a string, found ${describeJson(sym)}; ignored` });
  }
  return out;
}

function names(ctx: LayerContext, prefix: string, field: string, v: JsonValue | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  const list = stringArray(v);
  if (list === undefined) {
    ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.${field}`, reason: `should be an array of strings, found ${describeJson(v)}; ignored` });
    return undefined;
  }
  if (list.dropped > 0) {
    ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.${field}`, reason: `${list.dropped} entries are not strings; ignored` });
  }
  return list.values;
}

/** One `layer` object, or undefined (with the reason as a diagnostic) when it is skipped. */
function parseLayerObject(ctx: LayerContext, prefix: string, node: JsonObject): VulkanLayerManifest | undefined {
  const skip = (field: string, reason: string, severity: 'error' | 'info' = 'error'): undefined => {
    ctx.diagnostics.push({ severity, file: ctx.file, field: `${prefix}.${field}`, reason });
    return undefined;
  };
  const requiredString = (field: string): string | undefined => {
    const v = member(node, field);
    if (typeof v === 'string') return v;
    return skip(field, `required string, found ${describeJson(v)}; layer skipped`);
  };
  const name = requiredString('name');
  if (name === undefined) return undefined;
  if (name === '') return skip('name', 'is empty; layer skipped');
  const type = requiredString('type');
  if (type === undefined) return undefined;
  if (type === 'DEVICE') return skip('type', `${name}: DEVICE layers are deprecated and skipped as if not found`, 'info');
  if (type !== 'INSTANCE' && type !== 'GLOBAL') return skip('type', `${name}: "${type}" is not INSTANCE or GLOBAL; layer skipped`);

  const libraryNode = member(node, 'library_path');
  const componentsNode = member(node, 'component_layers');
  if (libraryNode !== undefined && componentsNode !== undefined) {
    return skip('component_layers', `${name}: component_layers and library_path exclude each other (VK-LM-3); layer skipped`);
  }
  if (libraryNode === undefined && componentsNode === undefined) {
    return skip('library_path', `${name}: neither library_path nor component_layers is given; one of them must be; layer skipped`);
  }
  let library_path: string | undefined;
  let component_layers: string[] | undefined;
  if (libraryNode !== undefined) {
    if (typeof libraryNode !== 'string' || libraryNode === '') return skip('library_path', `${name}: must be a non-empty string, found ${describeJson(libraryNode)}; layer skipped`);
    library_path = libraryNode;
  } else {
    // An empty list is a meta layer all the same (the Khronos loaders list it; the override layer
    // may only blacklist or only set override_paths, LoaderLayerInterface "Override Meta-Layer").
    // Not an array: a warning names the field and the list is empty, as both Khronos loaders read it.
    component_layers = names(ctx, prefix, 'component_layers', componentsNode) ?? [];
    if (!atLeastFileFormat(ctx.fileFormat, 1, 1, 1)) {
      ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.component_layers`, reason: `component_layers needs file format 1.1.1, the file says ${ctx.file_format_version}; used anyway` });
    }
  }

  let library_arch: '32' | '64' | undefined;
  const arch = member(node, 'library_arch');
  if (arch !== undefined) {
    if (arch === '32' || arch === '64') library_arch = arch;
    else ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.library_arch`, reason: `"${String(arch)}" is not "32" or "64"; ignored` });
    if (library_arch !== undefined && Number(library_arch) !== ctx.pointerBits) {
      return skip('library_arch', `${name}: the library is ${library_arch}-bit and this process is ${ctx.pointerBits}-bit; layer skipped`, 'info');
    }
  }

  const api_version = requiredString('api_version');
  if (api_version === undefined) return undefined;
  const implementation = requiredString('implementation_version');
  if (implementation === undefined) return undefined;
  const description = requiredString('description');
  if (description === undefined) return undefined;

  const enable_environment = condition(ctx, prefix, 'enable_environment', member(node, 'enable_environment'));
  const disable_environment = condition(ctx, prefix, 'disable_environment', member(node, 'disable_environment'));
  if (ctx.kind === 'implicit' && disable_environment === undefined) {
    return skip('disable_environment', `${name}: an implicit layer must name a disable_environment variable (VK-LM-2); layer skipped`);
  }

  const isOverride = name === OVERRIDE_LAYER_NAME && component_layers !== undefined && ctx.kind === 'implicit';
  const override_paths = names(ctx, prefix, 'override_paths', member(node, 'override_paths'));
  const blacklisted_layers = names(ctx, prefix, 'blacklisted_layers', member(node, 'blacklisted_layers'));
  const app_keys = names(ctx, prefix, 'app_keys', member(node, 'app_keys'));
  if (!isOverride) {
    for (const [field, v] of [['override_paths', override_paths], ['blacklisted_layers', blacklisted_layers], ['app_keys', app_keys]] as const) {
      if (v !== undefined && !(field === 'override_paths' && component_layers !== undefined)) {
        ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.${field}`, reason: `${name}: only the implicit override meta layer (${OVERRIDE_LAYER_NAME}) may give ${field}; ignored` });
      }
    }
  }

  let pre_instance_functions: Record<string, string> = {};
  const pre = member(node, 'pre_instance_functions');
  if (pre !== undefined) {
    if (ctx.kind !== 'implicit') {
      ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.pre_instance_functions`, reason: `${name}: only implicit layers may intercept pre-instance functions; ignored` });
    } else if (!atLeastFileFormat(ctx.fileFormat, 1, 1, 2)) {
      ctx.diagnostics.push({ severity: 'warning', file: ctx.file, field: `${prefix}.pre_instance_functions`, reason: `${name}: needs file format 1.1.2, the file says ${ctx.file_format_version}; ignored` });
    } else {
      const all = stringMap(ctx, prefix, 'pre_instance_functions', pre);
      pre_instance_functions = {};
      for (const fn of PRE_INSTANCE_FUNCTIONS) {
        const sym = all[fn];
        if (sym !== undefined) pre_instance_functions[fn] = sym;
      }
    }
  }

  return {
    file_format_version: ctx.file_format_version,
    fileFormat: ctx.fileFormat,
    name,
    type,
    ...(library_path !== undefined ? { library_path } : {}),
    ...(library_arch !== undefined ? { library_arch } : {}),
    api_version,
    apiVersion: parseVulkanVersion(api_version),
    implementation_version: atoiUnsigned(implementation),
    description,
    functions: stringMap(ctx, prefix, 'functions', member(node, 'functions')),
    instance_extensions: extensionList(ctx, prefix, 'instance_extensions', member(node, 'instance_extensions'), false).map((e) => ({
      extensionName: e.extensionName,
      specVersion: e.specVersion,
    })),
    device_extensions: extensionList(ctx, prefix, 'device_extensions', member(node, 'device_extensions'), true),
    ...(enable_environment !== undefined && ctx.kind === 'implicit' ? { enable_environment } : {}),
    ...(disable_environment !== undefined && ctx.kind === 'implicit' ? { disable_environment } : {}),
    ...(component_layers !== undefined ? { component_layers } : {}),
    ...(override_paths !== undefined && component_layers !== undefined ? { override_paths } : {}),
    ...(isOverride && blacklisted_layers !== undefined ? { blacklisted_layers } : {}),
    ...(isOverride && app_keys !== undefined ? { app_keys } : {}),
    pre_instance_functions,
  };
}

/**
 * Parses a layer manifest's JSON value. `kind` is how it was found (an implicit folder or not);
 * `pointerBits` decides `library_arch`.
 */
export function parseLayerManifest(file: string, root: unknown, kind: VulkanLayerKind, pointerBits: 32 | 64): LayerManifestParse {
  const diagnostics: VulkanDiagnostic[] = [];
  if (!isJsonObject(root)) {
    diagnostics.push({ severity: 'error', file, reason: `the top level is ${describeJson(root)}, not a JSON object` });
    return { layers: [], diagnostics };
  }
  const ffv = member(root, 'file_format_version');
  if (typeof ffv !== 'string') {
    diagnostics.push({ severity: 'error', file, field: 'file_format_version', reason: `required string, found ${describeJson(ffv)}; file skipped` });
    return { layers: [], diagnostics };
  }
  const fileFormat = parseVulkanVersion(ffv);
  if (!knownFileFormat(fileFormat)) {
    diagnostics.push({ severity: 'info', file, field: 'file_format_version', reason: `unknown layer manifest version ${ffv}; read as the newest known (1.2.1)` });
  }
  const ctx: LayerContext = { file, kind, pointerBits, fileFormat, file_format_version: ffv, diagnostics };
  const layers: VulkanLayerManifest[] = [];
  const list = member(root, 'layers');
  if (list !== undefined) {
    if (!atLeastFileFormat(fileFormat, 1, 0, 1)) {
      diagnostics.push({ severity: 'warning', file, field: 'layers', reason: `"layers" needs file format 1.0.1, the file says ${ffv}; read anyway` });
    }
    if (!Array.isArray(list)) {
      diagnostics.push({ severity: 'error', file, field: 'layers', reason: `should be an array, found ${describeJson(list)}; file skipped` });
      return { layers, diagnostics };
    }
    if (list.length === 0) {
      diagnostics.push({ severity: 'error', file, field: 'layers', reason: 'the array is empty: the file defines no layer' });
      return { layers, diagnostics };
    }
    list.forEach((node, i) => {
      if (!isJsonObject(node)) {
        diagnostics.push({ severity: 'error', file, field: `layers[${i}]`, reason: `should be an object, found ${describeJson(node)}; skipped` });
        return;
      }
      const layer = parseLayerObject(ctx, `layers[${i}]`, node);
      if (layer) layers.push(layer);
    });
    return { layers, diagnostics };
  }
  const single = member(root, 'layer');
  if (!isJsonObject(single)) {
    diagnostics.push({ severity: 'error', file, field: 'layer', reason: `required object (or a "layers" array), found ${describeJson(single)}; file skipped` });
    return { layers, diagnostics };
  }
  const layer = parseLayerObject(ctx, 'layer', single);
  if (layer) layers.push(layer);
  return { layers, diagnostics };
}
