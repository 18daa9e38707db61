// Monado (the open-source OpenXR runtime) as this project builds and runs it headless
// (scripts/build-monado.sh): where its manifest is, and the environment it runs with. Monado reads
// its settings from the process environment, so a program that loads it in-process sets these
// before xrCreateInstance (and a child process gets them in its environment).
import { existsSync } from 'node:fs';
import path from 'node:path';

const LAVAPIPE_ICD = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

/** KHRONOS_LOADER_MONADO_JSON, else build/monado/openxr_monado-dev.json under `root`. */
export function monadoManifestPath(root: string, env: Readonly<Record<string, string | undefined>>): string {
  const fromEnv = env.KHRONOS_LOADER_MONADO_JSON;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : path.join(root, 'build/monado/openxr_monado-dev.json');
}

/**
 * The null compositor, the simulated HMD, Vulkan through lavapipe (when installed), no display, and
 * a quieter log than Monado's default. undefined: the variable is removed.
 */
export function monadoHeadlessEnv(): Readonly<Record<string, string | undefined>> {
  return {
    XRT_COMPOSITOR_NULL: '1',
    SIMULATED_ENABLE: '1',
    VK_DRIVER_FILES: existsSync(LAVAPIPE_ICD) ? LAVAPIPE_ICD : undefined,
    DISPLAY: undefined,
    WAYLAND_DISPLAY: undefined,
    XRT_LOG: 'warn',
    PROBER_LOG: 'warn',
    XRT_COMPOSITOR_LOG: 'warn',
  };
}
