// koffi (an FFI for Node) calling xrLocateSpace on another loader library from JavaScript: the
// way a Node program reaches OpenXR without an addon. Loaded with a dynamic import, so the
// package works without it; when it is absent the row says so.
import type { Summary } from './stats.js';
import { timeJsLoop } from './measure-js.js';
import type { MeasurePlan } from './measure-native.js';
import { InternalError } from '../../core/errors.js';

/** The part of koffi's API used here. */
interface KoffiLibrary {
  func(prototype: string): (...args: unknown[]) => unknown;
}
interface KoffiModule {
  load(path: string): KoffiLibrary;
}

/** sizeof(XrSpaceLocation) on 64-bit: type, next, locationFlags, XrPosef (7 floats), padding. */
const SPACE_LOCATION_BYTES = 56;
const XR_TYPE_SPACE_LOCATION = 42;

/** koffi, or why it cannot be used ("koffi not installed"). */
export async function loadKoffi(): Promise<KoffiModule | { readonly unavailable: string }> {
  const specifier = 'koffi';
  try {
    const loaded = (await import(specifier)) as { default?: KoffiModule } & Partial<KoffiModule>;
    const koffi = loaded.default ?? (loaded as KoffiModule);
    if (typeof koffi.load !== 'function') return { unavailable: 'koffi has no load() function' };
    return koffi;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return { unavailable: 'koffi not installed' };
    return { unavailable: `koffi failed to load: ${(error as Error).message}` };
  }
}

/**
 * ns per xrLocateSpace(space, baseSpace, time + i, location) through koffi on `libraryPath`'s
 * exported function, with a raw Buffer as the XrSpaceLocation out-parameter (the fast form;
 * a marshalled struct costs far more). The handles come from a scenario made on that library.
 */
export function measureKoffiLocateSpace(
  koffi: KoffiModule,
  libraryPath: string,
  handles: { readonly space: bigint; readonly baseSpace: bigint },
  time: number,
  plan: MeasurePlan,
): Summary {
  const library = koffi.load(libraryPath);
  const locate = library.func('int32_t xrLocateSpace(uint64_t space, uint64_t baseSpace, int64_t time, void *location)');
  const location = Buffer.alloc(SPACE_LOCATION_BYTES);
  location.writeInt32LE(XR_TYPE_SPACE_LOCATION, 0);
  const result = locate(handles.space, handles.baseSpace, time, location);
  if (typeof result !== 'number' || result < 0) throw new InternalError(`xrLocateSpace through koffi returned ${String(result)}`);
  const { space, baseSpace } = handles;
  return timeJsLoop(plan, (i) => locate(space, baseSpace, time + i, location));
}
