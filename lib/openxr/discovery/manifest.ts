// Runtime and API layer manifests: parse and validate, field names as the spec spells them.
// A manifest either yields a typed object (perhaps with warnings about optional fields it had to
// ignore) or exactly one error diagnostic saying which field is wrong and why.
import { atoi, isJsonObject, jsonTypeName, parseJsonObject, type Json, type JsonObject } from '../../core/json.js';
import { parseVersion } from '../../core/version.js';
import type { Diagnostic } from './diagnostics.js';

export interface ExtensionProperty {
  readonly name: string;
  readonly extensionVersion: number;
}

export interface RuntimeManifest {
  readonly file_format_version: string;
  /** The optional user-facing name tools show (added to the 1.0.0 format before OpenXR 1.0.18). */
  readonly name?: string;
  readonly library_path: string;
  /** Renamed interface functions, e.g. { xrNegotiateLoaderRuntimeInterface: 'MyNegotiate' }. */
  readonly functions: Readonly<Record<string, string>>;
  readonly instance_extensions: readonly ExtensionProperty[];
}

export type ApiLayerKind = 'implicit' | 'explicit';

export interface ApiLayerManifest {
  readonly file_format_version: string;
  readonly name: string;
  readonly library_path: string;
  /** "major.minor" as written. */
  readonly api_version: string;
  readonly apiVersionMajor: number;
  readonly apiVersionMinor: number;
  /** The parsed number (the loader reports it as layerVersion). */
  readonly implementation_version: number;
  readonly description: string;
  readonly functions: Readonly<Record<string, string>>;
  readonly instance_extensions: readonly ExtensionProperty[];
  readonly enable_environment?: string;
  readonly disable_environment?: string;
}

export type ParseResult<T> =
  | { readonly ok: true; readonly manifest: T; readonly warnings: readonly Diagnostic[] }
  | { readonly ok: false; readonly error: Diagnostic };

/** The OpenXR major version this loader implements. */
export const OPENXR_MAJOR_VERSION = 1;

function checkFileFormatVersion(file: string, root: JsonObject): Diagnostic | string {
  const v = root['file_format_version'];
  if (typeof v !== 'string') {
    return { severity: 'error', file, field: 'file_format_version', reason: `required string, found ${jsonTypeName(v)}` };
  }
  const parsed = parseVersion(v);
  if (!parsed.ok) return { severity: 'error', file, field: 'file_format_version', reason: parsed.reason };
  // The spec (and the Khronos loader) define only 1.0.0.
  const { major, minor, patch } = parsed.version;
  if (major !== 1 || minor !== 0 || patch !== 0) {
    return { severity: 'error', file, field: 'file_format_version', reason: `version ${v} is not supported (only 1.0.0 is defined)` };
  }
  return v;
}

/** The top-level object; jsoncpp (the Khronos OpenXR loader's reader) accepts comments and a BOM. */
function parseJsonRoot(file: string, data: Uint8Array | string): { root: JsonObject } | { error: Diagnostic } {
  return parseJsonObject(file, data, { comments: true });
}

/** `functions`: an object of string → string; non-string values are ignored with a warning (as the Khronos loader does). */
function parseFunctions(file: string, prefix: string, v: Json | undefined, warnings: Diagnostic[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (v === undefined || v === null) return out;
  if (!isJsonObject(v)) {
    warnings.push({ severity: 'warning', file, field: `${prefix}.functions`, reason: `should be an object, found ${jsonTypeName(v)}; ignored` });
    return out;
  }
  for (const [k, name] of Object.entries(v)) {
    if (typeof name !== 'string') {
      warnings.push({ severity: 'warning', file, field: `${prefix}.functions.${k}`, reason: `should be a string, found ${jsonTypeName(name)}; ignored` });
      continue;
    }
    out[k] = name;
  }
  return out;
}

/** `instance_extensions`: [{ name, extension_version }], extension_version a string or an unsigned integer. */
function parseExtensions(file: string, prefix: string, v: Json | undefined, warnings: Diagnostic[]): ExtensionProperty[] {
  const out: ExtensionProperty[] = [];
  if (v === undefined || v === null) return out;
  if (!Array.isArray(v)) {
    warnings.push({ severity: 'warning', file, field: `${prefix}.instance_extensions`, reason: `should be an array, found ${jsonTypeName(v)}; ignored` });
    return out;
  }
  v.forEach((ext, i) => {
    const field = `${prefix}.instance_extensions[${i}]`;
    if (!isJsonObject(ext)) {
      warnings.push({ severity: 'warning', file, field, reason: `should be an object, found ${jsonTypeName(ext)}; ignored` });
      return;
    }
    const name = ext['name'];
    const version = ext['extension_version'];
    if (typeof name !== 'string') {
      warnings.push({ severity: 'warning', file, field: `${field}.name`, reason: `required string, found ${jsonTypeName(name)}; entry ignored` });
      return;
    }
    let extensionVersion: number;
    if (typeof version === 'string') extensionVersion = atoi(version) >>> 0;
    else if (typeof version === 'number' && Number.isInteger(version) && version >= 0 && version <= 0xffffffff) extensionVersion = version;
    else {
      warnings.push({
        severity: 'warning',
        file,
        field: `${field}.extension_version`,
        reason: `required string (or unsigned integer), found ${jsonTypeName(version)}; entry ignored`,
      });
      return;
    }
    out.push({ name, extensionVersion });
  });
  return out;
}

export function parseRuntimeManifest(file: string, data: Uint8Array | string): ParseResult<RuntimeManifest> {
  const parsed = parseJsonRoot(file, data);
  if ('error' in parsed) return { ok: false, error: parsed.error };
  const { root } = parsed;
  const ffv = checkFileFormatVersion(file, root);
  if (typeof ffv !== 'string') return { ok: false, error: ffv };
  const rt = root['runtime'];
  if (!isJsonObject(rt)) {
    return { ok: false, error: { severity: 'error', file, field: 'runtime', reason: `required object, found ${jsonTypeName(rt)}` } };
  }
  const lib = rt['library_path'];
  if (typeof lib !== 'string') {
    return { ok: false, error: { severity: 'error', file, field: 'runtime.library_path', reason: `required string, found ${jsonTypeName(lib)}` } };
  }
  if (lib.length === 0) {
    return { ok: false, error: { severity: 'error', file, field: 'runtime.library_path', reason: 'is empty' } };
  }
  const warnings: Diagnostic[] = [];
  const rawName = rt['name'];
  let name: string | undefined;
  if (typeof rawName === 'string' && rawName.trim() !== '') name = rawName;
  else if (rawName !== undefined && rawName !== null) {
    // The loader never reads it, so a bad one only costs the tools their label.
    warnings.push({ severity: 'warning', file, field: 'runtime.name', reason: `should be a non-empty string, found ${typeof rawName === 'string' ? 'a blank string' : jsonTypeName(rawName)}; the file name is used instead` });
  }
  const functions = parseFunctions(file, 'runtime', rt['functions'], warnings);
  const instance_extensions = parseExtensions(file, 'runtime', rt['instance_extensions'], warnings);
  return {
    ok: true,
    manifest: { file_format_version: ffv, ...(name !== undefined ? { name } : {}), library_path: lib, functions, instance_extensions },
    warnings,
  };
}

export function parseApiLayerManifest(file: string, data: Uint8Array | string, kind: ApiLayerKind): ParseResult<ApiLayerManifest> {
  const parsed = parseJsonRoot(file, data);
  if ('error' in parsed) return { ok: false, error: parsed.error };
  const { root } = parsed;
  const ffv = checkFileFormatVersion(file, root);
  if (typeof ffv !== 'string') return { ok: false, error: ffv };
  const layer = root['api_layer'];
  if (!isJsonObject(layer)) {
    return { ok: false, error: { severity: 'error', file, field: 'api_layer', reason: `required object, found ${jsonTypeName(layer)}` } };
  }
  const fail = (field: string, reason: string): ParseResult<ApiLayerManifest> => ({
    ok: false,
    error: { severity: 'error', file, field: `api_layer.${field}`, reason },
  });
  const str = (field: string): string | ParseResult<ApiLayerManifest> => {
    const v = layer[field];
    return typeof v === 'string' ? v : fail(field, `required string, found ${jsonTypeName(v)}`);
  };

  const name = str('name');
  if (typeof name !== 'string') return name;
  if (name.length === 0) return fail('name', 'is empty');
  const library_path = str('library_path');
  if (typeof library_path !== 'string') return library_path;
  if (library_path.length === 0) return fail('library_path', 'is empty');
  const api_version = str('api_version');
  if (typeof api_version !== 'string') return api_version;
  // As the Khronos loader reads it ("%u.%u"): major.minor, patch ignored; 0.0 and a major above ours are invalid.
  const av = /^\s*(\d+)\.(\d+)/.exec(api_version);
  const major = av ? Number(av[1]) : NaN;
  const minor = av ? Number(av[2]) : NaN;
  if (!av || (major === 0 && minor === 0) || major > OPENXR_MAJOR_VERSION || minor > 0x3ff) {
    return fail('api_version', `"${api_version}" is not a valid OpenXR ${OPENXR_MAJOR_VERSION}.x major.minor version`);
  }
  const impl = str('implementation_version');
  if (typeof impl !== 'string') return impl;
  const description = str('description');
  if (typeof description !== 'string') return description;

  let disable_environment: string | undefined;
  let enable_environment: string | undefined;
  const warnings: Diagnostic[] = [];
  const dis = layer['disable_environment'];
  const en = layer['enable_environment'];
  if (kind === 'implicit') {
    if (typeof dis !== 'string') {
      return fail('disable_environment', `required for an implicit layer (a string naming an environment variable), found ${jsonTypeName(dis)}`);
    }
    if (dis.length === 0) return fail('disable_environment', 'is empty: an implicit layer must be possible to disable');
    disable_environment = dis;
    if (typeof en === 'string' && en.length > 0) enable_environment = en;
    else if (en !== undefined && en !== null) {
      warnings.push({ severity: 'warning', file, field: 'api_layer.enable_environment', reason: `should be a non-empty string, found ${jsonTypeName(en)}; ignored` });
    }
  }

  // strtol: leading digits count; anything after them is warned about but not fatal (as the Khronos loader).
  const im = /^\s*([+-]?\d+)/.exec(impl);
  const implementation_version = im ? Number.parseInt(im[1] ?? '0', 10) >>> 0 : 0;
  if (!im || im[0].length !== impl.length) {
    warnings.push({
      severity: 'warning',
      file,
      field: 'api_layer.implementation_version',
      reason: `"${impl}" is not a whole number; using ${implementation_version}`,
    });
  }
  const functions = parseFunctions(file, 'api_layer', layer['functions'], warnings);
  const instance_extensions = parseExtensions(file, 'api_layer', layer['instance_extensions'], warnings);
  return {
    ok: true,
    manifest: {
      file_format_version: ffv,
      name,
      library_path,
      api_version,
      apiVersionMajor: major,
      apiVersionMinor: minor,
      implementation_version,
      description,
      functions,
      instance_extensions,
      ...(enable_environment !== undefined ? { enable_environment } : {}),
      ...(disable_environment !== undefined ? { disable_environment } : {}),
    },
    warnings,
  };
}

/** XR_MAKE_VERSION(major, minor, patch) as a number (exact: it stays below 2^53). */
export function xrMakeVersion(major: number, minor: number, patch: number): number {
  return major * 2 ** 48 + minor * 2 ** 32 + patch;
}
