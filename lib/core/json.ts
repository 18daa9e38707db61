// Manifest JSON: parsing with every failure as a diagnostic, and the words used to say what a
// field holds instead of what it should ("required string, found an array").
import type { Diagnostic } from './diagnostics.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isJsonObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** "missing", "null", "an array", "an object", "a string", ... */
export function jsonTypeName(v: Json | undefined): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/**
 * Removes // and /* *\/ comments outside strings, and a leading UTF-8 BOM (as jsoncpp with
 * default settings, the OpenXR loader's reader, accepts both).
 */
export function stripJsonComments(text: string): string {
  let s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!s.includes('/')) return s;
  let out = '';
  let i = 0;
  let inString = false;
  const n = s.length;
  let runStart = 0;
  while (i < n) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i += 2;
      else {
        if (c === '"') inString = false;
        i++;
      }
      continue;
    }
    if (c === '"') {
      inString = true;
      i++;
      continue;
    }
    if (c === '/' && s[i + 1] === '/') {
      out += s.slice(runStart, i);
      const end = s.indexOf('\n', i + 2);
      i = end === -1 ? n : end;
      runStart = i;
      continue;
    }
    if (c === '/' && s[i + 1] === '*') {
      out += s.slice(runStart, i);
      const end = s.indexOf('*/', i + 2);
      // An unterminated comment is left in place, so JSON.parse reports it.
      if (end === -1) {
        runStart = i;
        break;
      }
      out += ' ';
      i = end + 2;
      runStart = i;
      continue;
    }
    i++;
  }
  out += s.slice(runStart);
  s = out;
  return s;
}

export interface JsonParseOptions {
  /** Accept // and /* *\/ comments and a BOM (jsoncpp's defaults). Default false: strict JSON. */
  readonly comments?: boolean;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** The manifest's top-level object, or one error diagnostic (invalid JSON, or not an object at the top). */
export function parseJsonObject(file: string, data: Uint8Array | string, options: JsonParseOptions = {}): { root: JsonObject } | { error: Diagnostic<never> } {
  const text = typeof data === 'string' ? data : decoder.decode(data);
  let root: Json;
  try {
    root = JSON.parse(options.comments ? stripJsonComments(text) : text) as Json;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { error: { severity: 'error', file, reason: `not valid JSON (${why})` } };
  }
  if (!isJsonObject(root)) {
    return { error: { severity: 'error', file, reason: `the top level is ${jsonTypeName(root)}, not a JSON object` } };
  }
  return { root };
}

/** C's atoi(): leading digits (after optional whitespace and sign), 0 when none. */
export function atoi(s: string): number {
  const m = /^\s*([+-]?\d+)/.exec(s);
  if (!m) return 0;
  return Number.parseInt(m[1] ?? '0', 10) | 0;
}
