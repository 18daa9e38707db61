import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where test/native/ components are built (by test/setup/global-setup.ts; by npm run test:sanitize in KL_TEST_NATIVE_DIR). */
export const testNativeDir = process.env.KL_TEST_NATIVE_DIR ? path.resolve(process.env.KL_TEST_NATIVE_DIR) : path.join(repoRoot, 'build/test-native');
