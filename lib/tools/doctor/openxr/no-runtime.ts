// What `doctor`, `runtimes` (with or without --check) and `info openxr` say when no OpenXR runtime
// is active — none installed, or none made active — so that they agree (docs/usage.md, "When
// something will not load"): it is not a broken runtime (exit code 0), applications that use the
// active runtime cannot start, and the simulated runtime bundled with the package is there.

/** The --runtime value that names the simulated runtime bundled with the package. */
export const BUNDLED_RUNTIME_KEYWORD = 'simulated';

/** How to run without an installed runtime, in the command line's words. */
export const BUNDLED_RUNTIME_HINT =
  `the simulated runtime bundled with khronos-loader works without installing anything: khronos-loader demo --runtime ${BUNDLED_RUNTIME_KEYWORD} ` +
  `(info openxr and bench openxr take --runtime ${BUNDLED_RUNTIME_KEYWORD} too)`;

/** What installing or choosing a runtime takes. */
export const INSTALL_RUNTIME_FIX = 'install an OpenXR runtime (it makes itself active: active_runtime.json), or point XR_RUNTIME_JSON at a runtime manifest';

/** The doctor's runtime entry when no runtime is active (it has no manifest). */
export const NO_ACTIVE_RUNTIME_NAME = 'active runtime';

/** True for the doctor's entry that says no runtime is active (none installed, none made active): no manifest, not broken. */
export function isNoActiveRuntime(c: { readonly kind: string; readonly name: string; readonly manifestPath: string; readonly status: string }): boolean {
  return c.kind === 'runtime' && c.name === NO_ACTIVE_RUNTIME_NAME && c.manifestPath === '' && c.status !== 'broken';
}

/**
 * The one-line verdict when no runtime is active; `installed`: how many runtimes are installed (not
 * active), when known.
 */
export function noActiveRuntimeVerdict(installed?: number): string {
  const which =
    installed === undefined
      ? 'no OpenXR runtime is active (none is installed, or none was made active)'
      : installed === 0
        ? 'no OpenXR runtime is installed'
        : `${installed} OpenXR runtime${installed === 1 ? ' is' : 's are'} installed, but none is active`;
  const what = installed === undefined || installed === 0 ? INSTALL_RUNTIME_FIX : "make one active, or name it with --runtime '<name>'";
  return `NO ACTIVE RUNTIME: ${which}, so applications that use the active runtime cannot start (XR_ERROR_RUNTIME_UNAVAILABLE); nothing is broken (exit code 0). To fix: ${what}. Meanwhile, ${BUNDLED_RUNTIME_HINT}.`;
}
