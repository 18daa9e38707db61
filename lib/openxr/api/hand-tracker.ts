// A HandTracker: an XrHandTrackerEXT (XR_EXT_hand_tracking) of a session. tracker.locate(base,
// time, out) is the per-frame path: like space.locate() it keeps a native locator bound to
// (base, out) (LocatorBinding), so a call is one N-API call with one XrTime and allocates nothing.
import { callNative } from './handles.js';
import { LOCATE_RESULT, LocatorBinding } from './locator-binding.js';
import { loadOpenXrAddon, type NativeBound, type NativeHandTracker, type NativeOpenXrAddon } from '../native/addon.js';
import { rethrowNative } from '../errors.js';
import type { Session } from './session.js';
import { nativeSpaceOf, type Space } from './space.js';
import { HAND_JOINT_COUNT, HAND_JOINT_FLOATS, type HandName, type XrTime } from './types.js';
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
   * xrLocateHandJointsEXT: the 26 joints (HAND_JOINTS order) in `base` at `time`, written into
   * `out` (at least HAND_JOINT_COUNT * HAND_JOINT_FLOATS = 234 floats), 9 per joint: pose px py pz
   * qx qy qz qw, radius in metres, and the joint's XrSpaceLocationFlags (SpaceLocationFlags) as a
   * float. Returns true when the hand is tracked (isActive); when it is not, every joint's flags
   * and radius read 0. Allocates nothing once bound: keep passing the same `base` and `out`.
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
    const needed = HAND_JOINT_COUNT * HAND_JOINT_FLOATS;
    if (out.length < needed) throw new InvalidArgumentError(`out must have at least ${needed} elements (${HAND_JOINT_FLOATS} per joint; a detached buffer has none), got ${out.length}`, 'out');
    return callNative(() => this.#native.bindLocator(nativeBase, out, LOCATE_RESULT));
  }

  /** xrDestroyHandTrackerEXT. Does nothing once destroyed (or its session is). */
  destroy(): void {
    if (this.#native.isDestroyed) return;
    callNative(() => this.#native.destroy());
    this.#locator.forget();
  }
}
