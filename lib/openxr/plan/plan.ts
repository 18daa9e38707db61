// The plan handed to the native side: plain data saying what to load, in what order, and why.
import type { LibraryPathKind } from '../../core/library-path.js';
import type { EnabledLayerOrigin } from '../discovery/layer-policy.js';
import type { ApiLayerKind } from '../discovery/manifest.js';
import type { ExtensionCheck } from '../discovery/extensions.js';
import type { RuntimeSource } from '../discovery/runtime-discovery.js';

export interface PlannedRuntime {
  readonly manifestPath: string;
  readonly libraryPath: string;
  readonly libraryPathKind: LibraryPathKind;
  /** The symbol to look up with dlsym (xrNegotiateLoaderRuntimeInterface unless renamed in `functions`). */
  readonly negotiateFunctionName: string;
  readonly reason: string;
  /** Where the choice came from: 'application' for createLoader({ runtime }) (absent in hand-made plans). */
  readonly source?: RuntimeSource;
}

export interface PlannedApiLayer {
  readonly name: string;
  readonly kind: ApiLayerKind;
  readonly origin: EnabledLayerOrigin;
  readonly manifestPath: string;
  readonly libraryPath: string;
  readonly libraryPathKind: LibraryPathKind;
  /** xrNegotiateLoaderApiLayerInterface unless renamed in `functions`. */
  readonly negotiateFunctionName: string;
  readonly reason: string;
}

export interface InstancePlan {
  readonly runtime: PlannedRuntime;
  /** Index 0 is nearest the application; the last is nearest the runtime. */
  readonly apiLayers: readonly PlannedApiLayer[];
  readonly enabledExtensionNames: readonly string[];
  /** For each requested extension, who provides it. */
  readonly extensions: readonly ExtensionCheck[];
  /** Every decision in words, in the order it was taken (for logs and `info`). */
  readonly decisions: readonly string[];
}
