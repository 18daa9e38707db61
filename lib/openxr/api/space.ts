// A Space: an XrSpace (reference or action space) of a session. space.locate(base, time, out) is
// the per-frame path: it keeps a native locator bound to (this, base, out) and rebuilds it only
// when base or out changes, so a call is one N-API call with one number and allocates nothing.
import { OpenXrError } from '../errors.js';
import { callNative } from './handles.js';
import { rethrowNative } from './native-instance.js';
import type { NativeSpace } from './native-api.js';
import type { Session } from './session.js';
import { POSE_FLOATS, type ReferenceSpaceTypeName } from './types.js';

let nativeOf: (space: Space) => NativeSpace;

/** @internal The native space behind a Space; TypeError for anything else. */
export function nativeSpaceOf(space: unknown, what = 'space'): NativeSpace {
  if (!(space instanceof Space)) throw new TypeError(`${what} must be a Space`);
  return nativeOf(space);
}

export type SpaceKind = { readonly kind: 'reference'; readonly referenceSpaceType: ReferenceSpaceTypeName } | { readonly kind: 'action' };

export class Space {
  readonly session: Session;
  readonly description: SpaceKind;
  readonly #native: NativeSpace;
  // The bound locator and what it was bound to.
  #locator: ((time: number) => number) | undefined;
  #locatorBase: Space | undefined;
  #locatorOut: Float32Array | undefined;
  #locatorLength = -1;

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
   * xrLocateSpace: this space's pose in `base` at `time` (XrTime in ns, e.g. a frame's
   * predictedDisplayTime), written into `out` as [px, py, pz, qx, qy, qz, qw]. Returns the
   * XrSpaceLocationFlags (see SpaceLocationFlags). Allocates nothing once bound: keep passing the
   * same `base` and `out`.
   */
  locate(base: Space, time: number, out: Float32Array): number {
    if (base !== this.#locatorBase || out !== this.#locatorOut || out.length !== this.#locatorLength) this.#bind(base, out);
    try {
      return (this.#locator as (time: number) => number)(time);
    } catch (error) {
      rethrowNative(error);
    }
  }

  #bind(base: Space, out: Float32Array): void {
    const nativeBase = nativeSpaceOf(base, 'base');
    if (!(out instanceof Float32Array)) throw new TypeError('out must be a Float32Array');
    if (out.length < POSE_FLOATS) throw new TypeError(`out must have at least ${POSE_FLOATS} elements (a detached buffer has none)`);
    this.#locator = callNative(() => this.#native.bindLocator(nativeBase, out));
    this.#locatorBase = base;
    this.#locatorOut = out;
    this.#locatorLength = out.length;
  }

  /** xrDestroySpace. Calls on a destroyed space throw XR_ERROR_HANDLE_INVALID; destroy() itself then does nothing. */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    callNative(() => this.#native.destroy());
    this.#forgetLocator();
  }

  #forgetLocator(): void {
    this.#locator = undefined;
    this.#locatorBase = undefined;
    this.#locatorOut = undefined;
    this.#locatorLength = -1;
  }
}

/** The error a call on a destroyed handle throws. */
export function handleDestroyed(what: string): OpenXrError {
  return new OpenXrError('XR_ERROR_HANDLE_INVALID', `the ${what} has been destroyed (or a parent handle has)`);
}
