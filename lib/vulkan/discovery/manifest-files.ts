// VK-LD-5: the manifest files of a list of search entries, in order. A folder gives its *.json
// files sorted by name (so results never depend on readdir order); an entry naming a .json file
// (VK_LAYER_PATH, VK_DRIVER_FILES and friends may) gives that file. A folder or file reached twice
// (also through a symlink) is read once.
import { jsonFilesIn, type FoundFile } from '../../core/folder-listing.js';
import { readManifestBytes } from '../../core/read-manifest.js';
import type { VulkanDiscoveryContext } from './context.js';
import type { VulkanDiagnostic } from './diagnostic.js';
import type { JsonValue } from './json-value.js';
import type { VulkanSearchEntry, VulkanSearchSource } from './search-folders.js';

export type ManifestFile = FoundFile<VulkanSearchSource>;

export function manifestFilesIn(ctx: VulkanDiscoveryContext, entries: readonly VulkanSearchEntry[]): ManifestFile[] {
  const out: ManifestFile[] = [];
  const seenFolders = new Set<string>();
  const seenFiles = new Set<string>();
  const add = (f: ManifestFile): void => {
    const real = ctx.platform.fs.realpath(f.file) ?? f.file;
    if (seenFiles.has(real)) return;
    seenFiles.add(real);
    out.push(f);
  };
  for (const entry of entries) {
    const st = ctx.platform.fs.stat(entry.path);
    if (st === undefined) continue;
    if (st.kind === 'file') {
      if (entry.path.toLowerCase().endsWith('.json')) add({ file: entry.path, source: entry.source });
      else ctx.report({ severity: 'warning', file: entry.path, reason: `named by ${entry.source} but is not a .json manifest; skipped` });
      continue;
    }
    const real = ctx.platform.fs.realpath(entry.path) ?? entry.path;
    if (seenFolders.has(real)) continue;
    seenFolders.add(real);
    for (const f of jsonFilesIn(ctx, entry)) add(f);
  }
  return out;
}

/**
 * The Khronos loader's account of one search (loader_get_data_files), as debug records in the
 * layer or driver category: the folders, then the files found.
 */
export function logSearch(ctx: VulkanDiscoveryContext, what: 'implicit' | 'explicit' | 'driver', searched: readonly string[], files: readonly ManifestFile[]): void {
  const category = what === 'driver' ? 'driver' : 'layer';
  const log = (message: string): void => ctx.log('debug', message, undefined, category);
  log(what === 'driver' ? 'Searching for driver manifest files' : `Searching for ${what} layer manifest files`);
  log('   In following locations:');
  for (const p of searched) log(`      ${p}`);
  if (files.length === 0) log('   Found no files');
  else {
    log('   Found the following files:');
    for (const f of files) log(`      ${f.file}`);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** A manifest's parsed JSON, or one error diagnostic (unreadable, too large, not JSON). */
export function readJsonManifest(ctx: VulkanDiscoveryContext, file: string): { value: JsonValue } | { error: VulkanDiagnostic } {
  const bytes = readManifestBytes(ctx, file);
  if ('error' in bytes) return { error: bytes.error };
  let text = decoder.decode(bytes.data);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { value: JSON.parse(text) as JsonValue };
  } catch (err) {
    return { error: { severity: 'error', file, reason: `not valid JSON (${err instanceof Error ? err.message : String(err)})` } };
  }
}
