// The per-frame locate paths (space.locate, handTracker.locate) keep one native locator bound to
// (base, out) and rebuild it only when either changes, so a call is one N-API call with one
// XrTime and allocates nothing. The caller passes the bound locator to its kind's one native
// function (native/openxr/addon/openxr_handles.h, "Bound data").
//
// What a bound locate call answers (the location flags, a hand's isActive) it writes into
// LOCATE_RESULT rather than returning a new number: one N-API call fewer per call
// (docs/performance.md, "The per-call path at the N-API minimum"). JavaScript runs on one thread
// per module instance, so the caller reads the slot right after its call, before any other locate.

/** The result slot every bound locator of this module instance writes into. */
export const LOCATE_RESULT = new Uint32Array(1);

export class LocatorBinding<Base, Bound> {
  #locator: Bound | undefined;
  #base: Base | undefined;
  #out: Float32Array | undefined;
  #length = -1;
  readonly #bind: (base: Base, out: Float32Array) => Bound;

  /** `bind` validates base and out and makes the native locator (called only when they change). */
  constructor(bind: (base: Base, out: Float32Array) => Bound) {
    this.#bind = bind;
  }

  /** The locator bound to (base, out), bound anew when either changed. */
  bound(base: Base, out: Float32Array): Bound {
    if (base !== this.#base || out !== this.#out || out.length !== this.#length) {
      this.#locator = this.#bind(base, out);
      this.#base = base;
      this.#out = out;
      this.#length = out.length;
    }
    return this.#locator as Bound;
  }

  /** Drops the bound locator (its handle was destroyed). */
  forget(): void {
    this.#locator = undefined;
    this.#base = undefined;
    this.#out = undefined;
    this.#length = -1;
  }
}
