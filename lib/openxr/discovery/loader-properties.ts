// XR-LI-1: loader properties (XR_EXT_loader_init_properties) as the current Khronos OpenXR loader
// keeps them: a name/value store that stands in front of the environment. Every variable the loader
// reads during discovery is looked up there first, for plain and for secure reads alike (a property
// is the application's own word, so an elevated process honours it; OpenXR spec,
// "XR_EXT_loader_init_properties"). The loader's properties replace each other as a whole: the
// first XrLoaderInitInfoPropertiesEXT of a later xrInitializeLoaderKHR call replaces the earlier set.
import { invalidArgument } from '../../core/errors.js';
import type { Platform, PlatformEnv } from '../../core/platform/platform.js';

/** What loader.initializeLoader() takes: the XrLoaderInitInfo*KHR chain in JavaScript form. */
export interface LoaderInitInfo {
  /**
   * XrLoaderInitInfoPropertiesEXT: property names (environment variable names) and their values.
   * Given, they replace this loader's previous properties ({} clears them); left out, those stay.
   */
  readonly properties?: Readonly<Record<string, string>>;
}

/** The properties to store (undefined: none given), or InvalidArgumentError naming the bad one. */
export function checkLoaderInitInfo(info: unknown, where: string): ReadonlyArray<readonly [string, string]> | undefined {
  if (typeof info !== 'object' || info === null || Array.isArray(info)) throw invalidArgument(`${where}`, 'an object ({ properties? })', info);
  const { properties } = info as { properties?: unknown };
  if (properties === undefined) return undefined;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    throw invalidArgument(`${where}.properties`, 'an object of property names to string values', properties);
  }
  const entries = Object.entries(properties as Record<string, unknown>);
  for (const [name, value] of entries) {
    // The Khronos loader answers XR_ERROR_VALIDATION_FAILURE for an empty name or a missing value.
    if (name === '' || name.includes('\0')) throw invalidArgument(`${where}.properties`, 'property names that are non-empty and hold no NUL', name);
    if (typeof value !== 'string' || value.includes('\0')) throw invalidArgument(`${where}.properties.${name}`, 'a string without NUL', value);
  }
  return entries as Array<[string, string]>;
}

/** `platform` with `properties` in front of its environment (the map is read at each lookup). */
export function withLoaderProperties(platform: Platform, properties: ReadonlyMap<string, string>): Platform {
  const base = platform.env;
  const env: PlatformEnv = {
    get: (name) => (properties.has(name) ? properties.get(name) : base.get(name)),
    getSecure: (name) => (properties.has(name) ? properties.get(name) : base.getSecure(name)),
  };
  return { ...platform, env };
}
