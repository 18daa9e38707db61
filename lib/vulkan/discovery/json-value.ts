// What the three Vulkan manifest parsers (layer, driver, settings file) need beyond lib/core's
// JSON helpers: own-property access and string lists. They check shapes; they never throw.
import { isJsonObject as coreIsJsonObject, jsonTypeName, type Json, type JsonObject } from '../../core/json.js';

export type JsonValue = Json;
export type { JsonObject };

/** Takes any value (a parser's input is whatever JSON.parse gave, or anything a caller passes). */
export function isJsonObject(v: unknown): v is JsonObject {
  return coreIsJsonObject(v as Json | undefined);
}

export function describeJson(v: unknown): string {
  return jsonTypeName(v as Json | undefined);
}

/** An own property only (a manifest naming "__proto__" or "constructor" gets nothing inherited). */
export function member(o: JsonObject, key: string): Json | undefined {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** The strings of an array; undefined when `v` is not an array. Non-strings are dropped and counted. */
export function stringArray(v: Json | undefined): { values: string[]; dropped: number } | undefined {
  if (!Array.isArray(v)) return undefined;
  const values: string[] = [];
  let dropped = 0;
  for (const item of v) {
    if (typeof item === 'string') values.push(item);
    else dropped++;
  }
  return { values, dropped };
}
