// Listing manifest folders: every *.json in each folder, sorted by name so the result never
// depends on readdir order; a folder listed twice (also through a symlink) is read once.
import type { DiscoveryContext } from './context.js';
import { pathOps } from './platform/platform.js';
import type { SearchFolder } from './search-path.js';

/** A manifest file found in a search folder. */
export interface FoundFile<S extends string = string> {
  readonly file: string;
  readonly source: S;
}

/** Byte-order name comparison (what strcmp-sorting C loaders and `ls` in the C locale do). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The *.json files in one folder, sorted. A missing folder is silently empty; a path that is
 * not a directory or cannot be listed is a warning diagnostic.
 */
export function jsonFilesIn<S extends string>(ctx: Pick<DiscoveryContext, 'platform' | 'report'>, folder: SearchFolder<S>): FoundFile<S>[] {
  const { fs } = ctx.platform;
  const p = pathOps(ctx.platform);
  const st = fs.stat(folder.path);
  if (st === undefined) return [];
  if (st.kind !== 'directory') {
    ctx.report({ severity: 'warning', file: folder.path, reason: `is a search folder (${folder.source}) but not a directory; skipped` });
    return [];
  }
  const list = fs.readdir(folder.path);
  if ('error' in list) {
    ctx.report({ severity: 'warning', file: folder.path, reason: `cannot list the folder: ${list.error}` });
    return [];
  }
  const names = list.entries.filter((n) => n.endsWith('.json')).sort(compareNames);
  return names.map((n) => ({ file: folder.path.endsWith(p.sep) ? folder.path + n : folder.path + p.sep + n, source: folder.source }));
}

/**
 * The *.json files of every folder in order; `searched` lists every folder given (also those
 * skipped as the same real folder as one before).
 */
export function jsonFilesInFolders<S extends string>(
  ctx: Pick<DiscoveryContext, 'platform' | 'report'>,
  folders: readonly SearchFolder<S>[],
): { files: FoundFile<S>[]; searched: string[] } {
  const files: FoundFile<S>[] = [];
  const searched: string[] = [];
  const seen = new Set<string>();
  for (const f of folders) {
    const real = ctx.platform.fs.realpath(f.path) ?? f.path;
    searched.push(f.path);
    if (seen.has(real)) continue;
    seen.add(real);
    files.push(...jsonFilesIn(ctx, f));
  }
  return { files, searched };
}
