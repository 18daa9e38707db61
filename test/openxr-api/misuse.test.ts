// NODE-1: misuse throws typed errors and never crashes the process: destroyed parents under
// bound fast paths, the addon's per-frame functions handed the wrong bound data, destroy during a pending or runtime-blocked waitFrame, garbage-collected
// handles with live threads, a worker terminated mid-loop or inside its onFrame. Run in a child process so a crash
// shows as a signal, not as a dead test runner. After each case the libraries the loader holds open
// and the process's threads must be back to what they were ("released").
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

it('NODE-1: misuse of destroyed handles and threads throws, never crashes, and releases libraries and threads (child process)', () => {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(repoRoot, 'test/openxr-api/fixtures/misuse.ts')], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.signal, r.stderr).toBeNull();
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n');
  expect(lines).toEqual([
    'locate after instance destroy (bound fast path): OpenXrError XR_ERROR_HANDLE_INVALID; released',
    'locateViews after session destroy: OpenXrError XR_ERROR_HANDLE_INVALID; released',
    'destroy the session while waitFrame is pending: OpenXrError XR_ERROR_HANDLE_INVALID; released',
    'a second wait blocked in the runtime, then instance destroy: OpenXrError XR_ERROR_HANDLE_INVALID; released',
    'handles dropped without destroy, then garbage collected: no error; released',
    "the addon's per-frame functions given another kind's bound data, an object, a number: no error; released",
    'a worker terminated in the middle of its frame loop: no error; released',
    'a worker terminated inside its onFrame: no error; released',
    'survived',
  ]);
});
