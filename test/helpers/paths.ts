import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where test/native/ components are built (by test/setup/global-setup.ts; KL_TEST_NATIVE_DIR: another build's, e.g. another CPU's for emulated runs or npm run test:sanitize's). */
export const testNativeDir = process.env.KL_TEST_NATIVE_DIR ? path.resolve(process.env.KL_TEST_NATIVE_DIR) : path.join(repoRoot, 'build/test-native');
