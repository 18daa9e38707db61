// The per-frame locate paths (space.locate, handTracker.locate) keep one native locator bound to
// (base, out) and rebuild it only when either changes, so a call is one N-API call with one
// XrTime and allocates nothing.
import { rethrowNative } from './native-instance.js';
import type { XrTime } from './types.js';

export type BoundLocate = (time: XrTime | number) => number;

export class LocatorBinding<Base> {
  #locator: BoundLocate | undefined;
  #base: Base | undefined;
  #out: Float32Array | undefined;
  #length = -1;
  readonly #bind: (base: Base, out: Float32Array) => BoundLocate;

  /** `bind` validates base and out and makes the native locator (called only when they change). */
  constructor(bind: (base: Base, out: Float32Array) => BoundLocate) {
    this.#bind = bind;
  }

  locate(base: Base, time: XrTime | number, out: Float32Array): number {
    if (base !== this.#base || out !== this.#out || out.length !== this.#length) {
      this.#locator = this.#bind(base, out);
      this.#base = base;
      this.#out = out;
      this.#length = out.length;
    }
    try {
      return (this.#locator as BoundLocate)(time);
    } catch (error) {
      rethrowNative(error);
    }
  }

  /** Drops the bound locator (its handle was destroyed). */
  forget(): void {
    this.#locator = undefined;
    this.#base = undefined;
    this.#out = undefined;
    this.#length = -1;
  }
}
