// The --runtime option of demo, info openxr and bench openxr: "simulated" (the runtime bundled with
// the package), a name `khronos-loader runtimes` lists, or a runtime manifest path. Resolved before
// any work starts, so an unknown name or a missing manifest is an argument error (exit 2) naming
// what there is, in the command line's words.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createHostPlatform } from '../../core/platform/host.js';
import { listRuntimes } from '../../openxr/discovery/runtime-list.js';
import { isRuntimePath } from '../../openxr/discovery/runtime-choice.js';
import { simulatedRuntime } from '../../openxr/simulated-runtime.js';
import { badValue } from './args.js';
import { BUNDLED_RUNTIME_KEYWORD } from '../doctor/openxr/no-runtime.js';
import { RUNTIME_OPTION_NEED } from './specs.js';

export type ResolvedRuntimeOption =
  | {
      /** What to hand createLoader({ runtime }): the name as given, or an absolute manifest path. */
      readonly runtime: string;
      /** The manifest it stands for. */
      readonly manifestPath: string;
      readonly bundled: boolean;
    }
  | { readonly error: string };

/** Resolves a --runtime value, or says (in one line) why it names no runtime. */
export function resolveRuntimeOption(value: string, env: Readonly<Record<string, string | undefined>>): ResolvedRuntimeOption {
  if (value === BUNDLED_RUNTIME_KEYWORD) {
    const manifestPath = simulatedRuntime();
    return { runtime: manifestPath, manifestPath, bundled: true };
  }
  const platform = createHostPlatform({ env });
  if (isRuntimePath(value, platform.os)) {
    const manifestPath = path.resolve(value);
    if (!existsSync(manifestPath)) return { error: badValue('--runtime', RUNTIME_OPTION_NEED, value, `${manifestPath} does not exist`) };
    return { runtime: manifestPath, manifestPath, bundled: false };
  }
  const listed = listRuntimes({ platform, logWriter: () => undefined }).filter((r) => !r.disabled);
  const named = listed.find((r) => r.name === value);
  if (named !== undefined) return { runtime: value, manifestPath: named.manifestPath, bundled: false };
  const installed = listed.length ? `installed: ${listed.map((r) => JSON.stringify(r.name)).join(', ')}` : 'no OpenXR runtime is installed';
  return { error: badValue('--runtime', RUNTIME_OPTION_NEED, value, installed) };
}
