export * from './platform.js';
export { createLinuxPlatform, type LinuxPlatformOptions } from './linux.js';
export { createFixturePlatform, registryFromMap, type FixturePlatformOptions } from './fixture.js';
export { createWindowsPlatform, type WindowsPlatformOptions } from './windows.js';
export { createAndroidPlatform, type AndroidPlatformOptions } from './android.js';
export { nodeFileSystem, rootedPosixMapping, rootedWindowsMapping, type PathMapping } from './node-fs.js';
