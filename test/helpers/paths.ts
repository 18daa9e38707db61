import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where test/native/ components are built (by test/setup/global-setup.ts). */
export const testNativeDir = path.join(repoRoot, 'build/test-native');
