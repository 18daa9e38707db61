// OpenXR 1.1's xrLocateSpaces on the simulated runtime, driven directly (the Debian Khronos
// loader is 1.0 and would never hand it out).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeArtifactDir } from '../../lib/core/native/load.js';
import { testNativeDir } from '../helpers/paths.js';
import { XrResult } from '../../lib/generated/openxr.js';

const probe = path.join(testNativeDir, 'simxr_direct/simxr_direct');
const runtime = path.join(nativeArtifactDir(), 'libkhronos_simxr.so');

describe('simulated runtime: OpenXR 1.1 commands', () => {
  it('SIMXR: xrLocateSpaces is offered to 1.1 instances only, agrees with xrLocateSpace, and validates its input', () => {
    expect(existsSync(probe)).toBe(true);
    const r = JSON.parse(execFileSync(probe, [runtime], { encoding: 'utf8' })) as Record<string, number>;
    expect(r.negotiate).toBe(XrResult.XR_SUCCESS);
    expect(r.createInstance10).toBe(XrResult.XR_SUCCESS);
    expect(r.procLocateSpaces10).toBe(XrResult.XR_ERROR_FUNCTION_UNSUPPORTED);
    expect(r.createInstance11).toBe(XrResult.XR_SUCCESS);
    expect(r.procLocateSpaces11).toBe(XrResult.XR_SUCCESS);
    expect(r.createSession).toBe(XrResult.XR_SUCCESS);
    expect(r.locateSpaces).toBe(XrResult.XR_SUCCESS);
    expect(r.matchesLocateSpace).toBe(1);
    expect(r.locationFlags0).toBe(0xf);
    expect(r.velocityFlags0).toBe(0x3);
    expect(r.countMismatch).toBe(XrResult.XR_ERROR_VALIDATION_FAILURE);
    expect(r.badSpace).toBe(XrResult.XR_ERROR_HANDLE_INVALID);
    expect(r.badTime).toBe(XrResult.XR_ERROR_TIME_INVALID);
    expect(r.destroyInstance).toBe(XrResult.XR_SUCCESS);
  });
});
