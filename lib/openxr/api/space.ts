// A Space: an XrSpace (reference or action space) of a session. space.locate(base, time, out) is
// the per-frame path: it keeps a native locator bound to (this, base, out) and rebuilds it only
// when base or out changes (LocatorBinding), so a call is one N-API call and allocates nothing.
import { OpenXrError } from '../errors.js';
import { callNative } from './handles.js';
import { LOCATE_RESULT, LocatorBinding } from './locator-binding.js';
import { loadOpenXrAddon, type NativeBound, type NativeOpenXrAddon, type NativeSpace } from '../native/addon.js';
import { rethrowNative } from '../errors.js';
import type { Session } from './session.js';
import { POSE_FLOATS, type ReferenceSpaceTypeName, type XrTime } from './types.js';
import { InvalidArgumentError, invalidArgument } from '../../core/errors.js';

let nativeOf: (space: Space) => NativeSpace;

/** @internal The native space behind a Space; InvalidArgumentError for anything else. */
export function nativeSpaceOf(space: unknown, what = 'space'): NativeSpace {
  if (!(space instanceof Space)) throw invalidArgument(what, 'a Space', space);
  return nativeOf(space);
}

export type SpaceKind = { readonly kind: 'reference'; readonly referenceSpaceType: ReferenceSpaceTypeName } | { readonly kind: 'action' };

export class Space {
  readonly session: Session;
  readonly description: SpaceKind;
  readonly #native: NativeSpace;
  readonly #locator = new LocatorBinding<Space, NativeBound<'spaceLocator'>>((base, out) => this.#bind(base, out));
  // The one native function that locates every space: the call in locate() keeps one target.
  readonly #locateNative: NativeOpenXrAddon['openxrLocateSpace'] = loadOpenXrAddon().openxrLocateSpace;

  static {
    nativeOf = (space) => space.#native;
  }

  /** @internal Use session.createReferenceSpace() or session.createActionSpace(). */
  constructor(session: Session, native: NativeSpace, description: SpaceKind) {
    this.session = session;
    this.#native = native;
    this.description = description;
  }

  /** The XrSpace handle. */
  get handle(): bigint {
    return callNative(() => this.#native.handle);
  }

  /** True once this space, its session or its instance is destroyed. */
  get isDestroyed(): boolean {
    return this.#native.isDestroyed;
  }

  /**
   * xrLocateSpace: this space's pose in `base` at `time` (an XrTime in ns, e.g. a frame's
   * predictedDisplayTime; a bigint, or a number for small times), written into `out` as [px, py, pz, qx, qy, qz, qw]. Returns the
   * XrSpaceLocationFlags (see SpaceLocationFlags). Allocates nothing once bound: keep passing the
   * same `base` and `out`.
   */
  locate(base: Space, time: XrTime | number, out: Float32Array): number {
    const locator = this.#locator.bound(base, out);
    try {
      this.#locateNative(locator, time);
      return LOCATE_RESULT[0] as number;
    } catch (error) {
      rethrowNative(error);
    }
  }

  #bind(base: Space, out: Float32Array): NativeBound<'spaceLocator'> {
    const nativeBase = nativeSpaceOf(base, 'base');
    if (!(out instanceof Float32Array)) throw invalidArgument('out', `a Float32Array of at least ${POSE_FLOATS} elements`, out);
    if (out.length < POSE_FLOATS) throw new InvalidArgumentError(`out must have at least ${POSE_FLOATS} elements (a detached buffer has none), got ${out.length}`, 'out');
    return callNative(() => this.#native.bindLocator(nativeBase, out, LOCATE_RESULT));
  }

  /** xrDestroySpace. Calls on a destroyed space throw XR_ERROR_HANDLE_INVALID; destroy() itself then does nothing. */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    callNative(() => this.#native.destroy());
    this.#locator.forget();
  }
}

/** The error a call on a destroyed handle throws. */
export function handleDestroyed(what: string): OpenXrError {
  return new OpenXrError('XR_ERROR_HANDLE_INVALID', `the ${what} has been destroyed (or a parent handle has)`);
}
