// Search folders assembled from environment variables and compiled-in defaults. Variables are
// read through the context's secureEnv, so an elevated process ignores them (and says so once).
import type { DiscoveryContext } from './context.js';

/** One folder to search and which setting named it. */
export interface SearchFolder<S extends string = string> {
  readonly path: string;
  readonly source: S;
}

/** `base/rel` with exactly one '/' between them when `base` already ends with one. */
export function joinSearchPath(base: string, rel: string): string {
  return base.endsWith('/') ? base + rel : `${base}/${rel}`;
}

/** A path list (':' or ';' separated) split into its entries; empty entries are dropped. */
export function splitPathList(list: string, separator: string): string[] {
  return list.split(separator).filter((d) => d !== '');
}

/** Each entry of a path list, with `rel` appended when given. */
export function foldersFromList<S extends string>(list: string, separator: string, rel: string | undefined, source: S): SearchFolder<S>[] {
  return splitPathList(list, separator).map((dir) => ({ path: rel === undefined ? dir : joinSearchPath(dir, rel), source }));
}

/**
 * The folders a variable lists (read securely), or those of `fallback` when it is unset or
 * empty (XDG_CONFIG_DIRS → /etc/xdg and the like); `rel` is appended to each.
 */
export function envFolders<S extends string>(
  ctx: Pick<DiscoveryContext, 'platform' | 'secureEnv'>,
  variable: string,
  fallback: string | undefined,
  rel: string | undefined,
  source: S,
): SearchFolder<S>[] {
  const list = ctx.secureEnv(variable) || fallback;
  return list === undefined ? [] : foldersFromList(list, ctx.platform.pathSeparator, rel, source);
}

/** SYSCONFDIR, then EXTRASYSCONFDIR unless left out or the same folder. */
export function sysconfFolders<S extends string>(
  ctx: Pick<DiscoveryContext, 'platform' | 'sysconfdir' | 'extraSysconfdir'>,
  rel: string | undefined,
  sources: { sysconfdir: S; extraSysconfdir: S },
): SearchFolder<S>[] {
  const sep = ctx.platform.pathSeparator;
  const out = foldersFromList(ctx.sysconfdir, sep, rel, sources.sysconfdir);
  if (ctx.extraSysconfdir !== null && ctx.extraSysconfdir !== ctx.sysconfdir) out.push(...foldersFromList(ctx.extraSysconfdir, sep, rel, sources.extraSysconfdir));
  return out;
}
