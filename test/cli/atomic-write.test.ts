// CLI writes are atomic: a reader polling the file while it is rewritten again and again never
// sees a part of one (writeFileAtomic: temporary file, fsync, rename).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepPrevious, writeFileAtomic } from '../../lib/tools/cli/atomic-write.js';
import { until } from '../helpers/until.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A child that reads `file` as fast as it can until `stop` exists; reports reads and the ones that were not whole JSON. */
const READER = `
const fs = require('node:fs');
const [file, stop, ready] = process.argv.slice(1);
let reads = 0, partial = 0;
fs.writeFileSync(ready, '');
while (!fs.existsSync(stop)) {
  let text;
  try { text = fs.readFileSync(file, 'utf8'); } catch { continue; }
  reads++;
  try { JSON.parse(text); } catch { partial++; }
}
process.stdout.write(JSON.stringify({ reads, partial }));
`;

describe('atomic writes', () => {
  it('CLI: a file rewritten 150 times while another process reads it is never seen half written; the previous one is kept', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'kl-atomic-'));
    const file = path.join(dir, 'sub', 'vk_loader_settings.json');
    const stop = path.join(dir, 'stop');
    const ready = path.join(dir, 'ready');
    writeFileAtomic(file, JSON.stringify({ n: -1 }));
    const child = spawn(process.execPath, ['-e', READER, file, stop, ready], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await until('the reader to start', () => existsSync(ready), 20_000);
    // Large enough that a plain write takes several reads' time.
    const pad = 'x'.repeat(1 << 20);
    for (let n = 0; n < 150; n++) writeFileAtomic(file, JSON.stringify({ n, pad }));
    writeFileSync(stop, '');
    expect(await exited).toBe(0);
    const seen = JSON.parse(out) as { reads: number; partial: number };
    expect(seen.reads).toBeGreaterThan(0);
    expect(seen.partial).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { n: number }).n).toBe(149);
    expect(keepPrevious(file, `${file}.previous`, (p) => readFileSync(p, 'utf8'))).toBe(true);
    expect((JSON.parse(readFileSync(`${file}.previous`, 'utf8')) as { n: number }).n).toBe(149);
    expect(keepPrevious(path.join(dir, 'none.json'), path.join(dir, 'none.previous'), (p) => readFileSync(p, 'utf8'))).toBe(false);
  });
});
