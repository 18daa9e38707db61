// What `bench openxr` and `bench vulkan` share on the command line: their output streams, the
// arguments both take, and --runtime's resolution to a manifest.
import { readFileSync } from 'node:fs';
import type { CliIo } from '../cli/args.js';

export type BenchCliIo = Pick<CliIo, 'stdout' | 'stderr'> & Pick<Partial<CliIo>, 'env'>;

/** What `bench openxr` and `bench vulkan` both take. */
export interface CommonBenchArgs {
  readonly passthroughCounts: readonly number[];
  readonly realLayers: readonly string[];
  readonly iterations?: number;
  readonly repeats?: number;
  readonly processes?: number;
  readonly json: boolean;
  /** The Khronos loader library, or false to leave it out. */
  readonly khronosLoader?: string | false;
}

/**
 * A --layers list: numbers (layer counts) and layer names matching `names`; the reason (one line,
 * naming --layers, what it needs and what it got) when an item is neither.
 */
export function parseLayerList(list: string, names: RegExp, nameWords: string): { counts: number[]; layers: string[] } | string {
  const counts: number[] = [];
  const layers: string[] = [];
  const items = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const need = `layer counts and ${nameWords} names, separated by commas`;
  if (items.length === 0) return `--layers needs ${need}, got ${JSON.stringify(list)}`;
  for (const item of items) {
    if (/^\d+$/.test(item)) counts.push(Number(item));
    else if (names.test(item)) layers.push(item);
    else return `--layers needs ${need}, got ${JSON.stringify(list)} (${JSON.stringify(item)} is neither a layer count nor ${nameWords === 'layer' ? 'a layer' : `an ${nameWords}`} name)`;
  }
  return { counts, layers };
}

/** The runtime's name from its manifest (runtime.name), for the report; else the manifest's file name. */
export function runtimeLabel(manifest: string): string {
  try {
    const json = JSON.parse(readFileSync(manifest, 'utf8')) as { runtime?: { name?: unknown } };
    const name = json.runtime?.name;
    if (typeof name === 'string' && name !== '') return `${name} runtime`;
  } catch {
    // Unreadable or not JSON: the loader reports that when it runs; the label falls back to the path.
  }
  return manifest;
}
