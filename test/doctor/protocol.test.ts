// The child's answer is found among whatever else a library prints to stdout.
import { describe, expect, it } from 'vitest';
import { parseProbeOutput } from '../../lib/tools/doctor/protocol.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { probeChildCommand } from '../../lib/tools/doctor/run-probes.js';
import { repoRoot } from '../helpers/paths.js';

describe('probe protocol', () => {
  it('DOCTOR: answer lines are picked out of library noise, even glued to an unterminated print', () => {
    const answer = { klProbe: 'answer', result: { ok: true, stage: 'negotiate', reason: 'negotiated' }, log: [] };
    const out = `layer says hello\n{"klProbe":"start"}\nno newline here${JSON.stringify(answer)}\n{"klProbe":"answer", broken\n`;
    const parsed = parseProbeOutput(out);
    expect(parsed.lines).toEqual([{ klProbe: 'start' }, answer]);
    expect(parsed.noise).toEqual(['layer says hello', 'no newline here']);
    expect(parsed.malformed).toEqual(['{"klProbe":"answer", broken']);
  });

  it('DOCTOR: the child runs through tsx from the sources and with plain node from the compiled package', () => {
    const fromTs = probeChildCommand(pathToFileURL(path.join(repoRoot, 'lib/tools/doctor/run-probes.ts')).href);
    expect(fromTs.command).toBe(process.execPath);
    expect(fromTs.args[0]).toBe('--import');
    expect(fromTs.args[1]).toMatch(/^file:\/\/.*\/node_modules\/tsx\/dist\/loader\.mjs$/);
    expect(fromTs.args[2]).toBe(path.join(repoRoot, 'lib/tools/doctor/probe-child.ts'));
    expect(probeChildCommand('file:///pkg/dist/tools/doctor/run-probes.js')).toEqual({ command: process.execPath, args: ['/pkg/dist/tools/doctor/probe-child.js'] });
  });
});
