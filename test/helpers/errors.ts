import { expect } from 'vitest';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { VulkanError } from '../../lib/vulkan/errors.js';

/** The error of class `type` that `f` throws; fails the test when it throws nothing or something else. */
export function errorFrom<E extends Error>(type: abstract new (...args: never[]) => E, f: () => unknown): E {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error(`expected a ${type.name}`);
}

/** The OpenXrError that `f` throws; fails the test when it throws nothing or something else. */
export const openXrErrorFrom = (f: () => unknown): OpenXrError => errorFrom(OpenXrError, f);

/** The VulkanError that `f` throws; fails the test when it throws nothing or something else. */
export const vulkanErrorFrom = (f: () => unknown): VulkanError => errorFrom(VulkanError, f);
