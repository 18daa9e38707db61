// `khronos-loader runtimes --set-active <name>`: the user's active OpenXR runtime, as the Khronos
// loader reads it on Linux (XR-RD-2: $XDG_CONFIG_HOME/openxr/1/active_runtime.json, ~/.config when
// unset, looked at first). The manifest is copied there with a relative library_path made absolute
// (a copy in another folder would otherwise point elsewhere); the file it replaces is kept as
// active_runtime.json.previous. Both writes are whole or nothing (atomic-write.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, UnavailableError } from '../../core/errors.js';
import type { ListedRuntime } from '../../openxr/discovery/runtime-list.js';
import { keepPrevious, writeFileAtomic } from './atomic-write.js';

export interface SetActiveResult {
  readonly file: string;
  /** Where the replaced file was kept, or null when there was none. */
  readonly previous: string | null;
  readonly runtime: string;
  readonly manifestPath: string;
}

/** The file the user's active runtime lives in. */
export function userActiveRuntimeFile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const base = env.XDG_CONFIG_HOME || (env.HOME ? path.join(env.HOME, '.config') : undefined);
  return base === undefined ? undefined : path.join(base, 'openxr', '1', 'active_runtime.json');
}

export function setActiveRuntime(runtimes: readonly ListedRuntime[], name: string, env: Readonly<Record<string, string | undefined>>): SetActiveResult {
  const r = runtimes.find((x) => x.name === name);
  if (r === undefined) throw new InvalidArgumentError(`--set-active must be a runtime name that \`khronos-loader runtimes\` lists (${[...new Set(runtimes.map((x) => JSON.stringify(x.name)))].join(', ') || 'none is installed'}), got ${JSON.stringify(name)}`, '--set-active');
  if (!r.usable) throw new UnavailableError(`runtime ${JSON.stringify(name)} (${r.manifestPath}) is not usable: ${r.problems.map((p) => p.reason).join('; ') || 'its manifest cannot be read'}; the active runtime is left as it was`);
  const file = userActiveRuntimeFile(env);
  if (file === undefined) throw new UnavailableError('neither XDG_CONFIG_HOME nor HOME is set: there is no user configuration folder to write to');
  const json = JSON.parse(readFileSync(r.manifestPath, 'utf8')) as { runtime?: { library_path?: unknown } };
  const lib = json.runtime?.library_path;
  if (typeof lib === 'string' && !path.isAbsolute(lib) && lib.includes('/')) json.runtime = { ...json.runtime, library_path: path.resolve(path.dirname(r.manifestPath), lib) };
  const previous = `${file}.previous`;
  const kept = keepPrevious(file, previous, (p) => readFileSync(p, 'utf8'));
  writeFileAtomic(file, `${JSON.stringify(json, null, 2)}\n`);
  return { file, previous: kept ? previous : null, runtime: r.name, manifestPath: r.manifestPath };
}
