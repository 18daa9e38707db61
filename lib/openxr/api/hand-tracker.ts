// A HandTracker: an XrHandTrackerEXT (XR_EXT_hand_tracking) of a session. tracker.locate(base,
// time, out) is the per-frame path: like space.locate() it keeps a native locator bound to
// (base, out) (LocatorBinding), so a call is one N-API call with one XrTime and allocates nothing;
// the runtime writes its XrHandJointLocationEXT array straight into `out` (nothing is copied).
import { callNative } from './handles.js';
import { LOCATE_RESULT, LocatorBinding } from './locator-binding.js';
import { loadOpenXrAddon, type NativeBound, type NativeHandTracker, type NativeOpenXrAddon } from '../native/addon.js';
import { rethrowNative } from '../errors.js';
import type { Session } from './session.js';
import { nativeSpaceOf, type Space } from './space.js';
import { HAND_JOINT_COUNT, HAND_JOINT_STRIDE, type HandName, type XrTime } from './types.js';
import { InvalidArgumentError, invalidArgument } from '../../core/errors.js';

export class HandTracker {
  readonly session: Session;
  readonly hand: HandName;
  readonly #native: NativeHandTracker;
  readonly #locator = new LocatorBinding<Space, NativeBound<'handJointLocator'>>((base, out) => this.#bind(base, out));
  // The one native function that locates every tracker's joints: the call in locate() keeps one target.
  readonly #locateNative: NativeOpenXrAddon['openxrLocateHandJoints'] = loadOpenXrAddon().openxrLocateHandJoints;

  /** @internal Use session.createHandTracker(). */
  constructor(session: Session, native: NativeHandTracker, hand: HandName) {
    this.session = session;
    this.#native = native;
    this.hand = hand;
  }

  /** The XrHandTrackerEXT handle. */
  get handle(): bigint {
    return callNative(() => this.#native.handle);
  }

  /** True once this tracker, its session or its instance is destroyed. */
  get isDestroyed(): boolean {
    return this.#native.isDestroyed;
  }

  /**
   * xrLocateHandJointsEXT: the 26 joints (HAND_JOINTS order) in `base` at `time`, written by the
   * runtime straight into `out` as its XrHandJointLocationEXT array: at least HAND_JOINT_COUNT *
   * HAND_JOINT_STRIDE = 260 floats, starting at a multiple of 8 bytes (`byteOffset`), 10 floats a
   * joint: the XrSpaceLocationFlags as a uint64 (HAND_JOINT_FLAGS, read through a Uint32Array over
   * the same memory), orientation qx qy qz qw (HAND_JOINT_ORIENTATION), position px py pz
   * (HAND_JOINT_POSITION), radius in metres (HAND_JOINT_RADIUS). Returns true when the hand is
   * tracked (isActive); when it is not, no joint's flags have a valid bit. When the call throws,
   * `out` holds whatever the runtime left there. Allocates nothing once bound: keep passing the
   * same `base` and `out`.
   */
  locate(base: Space, time: XrTime | number, out: Float32Array): boolean {
    const locator = this.#locator.bound(base, out);
    try {
      this.#locateNative(locator, time);
      return LOCATE_RESULT[0] === 1;
    } catch (error) {
      rethrowNative(error);
    }
  }

  #bind(base: Space, out: Float32Array): NativeBound<'handJointLocator'> {
    const nativeBase = nativeSpaceOf(base, 'base');
    if (!(out instanceof Float32Array)) throw invalidArgument('out', 'a Float32Array', out);
    const needed = HAND_JOINT_COUNT * HAND_JOINT_STRIDE;
    if (out.length < needed) throw new InvalidArgumentError(`out must have at least ${needed} elements (${HAND_JOINT_STRIDE} per joint; a detached buffer has none), got ${out.length}`, 'out');
    // The runtime writes XrHandJointLocationEXT structures (a uint64 first) there.
    if (out.byteOffset % 8 !== 0) throw new InvalidArgumentError(`out must start at a multiple of 8 bytes (the runtime writes 64-bit flags there), got byteOffset ${out.byteOffset}`, 'out');
    return callNative(() => this.#native.bindLocator(nativeBase, out, LOCATE_RESULT));
  }

  /** xrDestroyHandTrackerEXT. Does nothing once destroyed (or its session is). */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    callNative(() => this.#native.destroy());
    this.#locator.forget();
  }
}
