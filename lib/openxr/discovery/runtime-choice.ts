// createLoader({ runtime }): the application names the runtime for one loader, by manifest path or
// by a name listRuntimes() gives. Resolved once, when the loader is created; nothing in the
// environment changes, so other loaders in the process keep their own runtime.
import { OpenXrError } from '../errors.js';
import type { DiscoveryContext } from './context.js';
import type { ApplicationRuntimeChoice } from './runtime-discovery.js';
import { listRuntimesWith } from './runtime-list.js';
import { InvalidArgumentError, describeValue } from '../../core/errors.js';

/** A path has a directory separator or ends in .json; anything else is a runtime's name. */
export function isRuntimePath(runtime: string, os: DiscoveryContext['platform']['os']): boolean {
  return runtime.includes('/') || (os === 'windows' && runtime.includes('\\')) || runtime.toLowerCase().endsWith('.json');
}

/** Throws InvalidArgumentError for a non-string or empty value, OpenXrError(XR_ERROR_RUNTIME_UNAVAILABLE) for an unknown name. */
export function resolveRuntimeChoice(ctx: DiscoveryContext, runtime: unknown): ApplicationRuntimeChoice {
  if (typeof runtime !== 'string' || runtime === '') {
    throw new InvalidArgumentError(`createLoader({ runtime }): runtime must be a runtime manifest path or a name from listRuntimes(), got ${describeValue(runtime)}`, 'runtime');
  }
  if (isRuntimePath(runtime, ctx.platform.os)) return { manifestPath: runtime, requested: runtime, by: 'path' };
  const { runtimes } = listRuntimesWith(ctx);
  const named = runtimes.find((r) => r.name === runtime && !r.disabled);
  if (named === undefined) {
    const known = runtimes.filter((r) => !r.disabled).map((r) => `"${r.name}" (${r.manifestPath})`);
    throw new OpenXrError(
      'XR_ERROR_RUNTIME_UNAVAILABLE',
      `createLoader({ runtime: "${runtime}" }): no runtime of that name; listRuntimes() finds ${known.length ? known.join(', ') : 'none'} (or pass a manifest path)`,
    );
  }
  ctx.log('info', `createLoader - the runtime named "${runtime}" is ${named.manifestPath}`);
  return { manifestPath: named.manifestPath, requested: runtime, by: 'name' };
}
