// Fixture helpers shared by the OpenXR unit and system tests: temp trees with manifests.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export function makeTempRoot(prefix = 'kl-openxr-'): { root: string; cleanup: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Writes `content` at `root` + `p` (p absolute in the fixture's view), creating folders. */
export function put(root: string, p: string, content: string | Uint8Array): string {
  const host = path.join(root, p);
  mkdirSync(path.dirname(host), { recursive: true });
  writeFileSync(host, content);
  return host;
}

export function link(root: string, p: string, target: string): void {
  const host = path.join(root, p);
  mkdirSync(path.dirname(host), { recursive: true });
  symlinkSync(target, host);
}

export interface LayerSpec {
  name: string;
  library_path?: string;
  api_version?: string;
  implementation_version?: string;
  description?: string | null;
  instance_extensions?: Array<{ name: string; extension_version: string | number }>;
  functions?: Record<string, string>;
  enable_environment?: string;
  disable_environment?: string;
}

export function layerManifest(spec: LayerSpec): string {
  const layer: Record<string, unknown> = {
    name: spec.name,
    library_path: spec.library_path ?? `/lib/${spec.name}.so`,
    api_version: spec.api_version ?? '1.0',
    implementation_version: spec.implementation_version ?? '1',
  };
  if (spec.description !== null) layer['description'] = spec.description ?? `${spec.name} description`;
  if (spec.instance_extensions) layer['instance_extensions'] = spec.instance_extensions;
  if (spec.functions) layer['functions'] = spec.functions;
  if (spec.enable_environment !== undefined) layer['enable_environment'] = spec.enable_environment;
  if (spec.disable_environment !== undefined) layer['disable_environment'] = spec.disable_environment;
  return JSON.stringify({ file_format_version: '1.0.0', api_layer: layer }, null, 2);
}

export function runtimeManifest(library_path: string, functions?: Record<string, string>): string {
  return JSON.stringify({ file_format_version: '1.0.0', runtime: { library_path, ...(functions ? { functions } : {}) } }, null, 2);
}
