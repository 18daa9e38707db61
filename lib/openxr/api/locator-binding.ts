// The per-frame locate paths (space.locate, handTracker.locate) keep one native locator bound to
// (base, out) and rebuild it only when either changes, so a call is one N-API call with one
// XrTime and allocates nothing. The caller passes the bound locator to its kind's one native
// function (native/openxr/addon/openxr_handles.h, "Bound data").

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
