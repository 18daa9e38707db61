// The environment filters' glob rules live in lib/core/name-filter.ts (both APIs' loader policy
// uses them); Vulkan discovery imports them from here.
export * from '../../core/name-filter.js';
