// The npm scripts a source build and a release run: a source build builds the addon once (no
// script is npm's `pre` hook of a build script), and the prebuild scripts are named as the README says.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

const scripts = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('BUILD: npm scripts', () => {
  it('BUILD: no script is run by npm as the pre hook of another (npm run build builds once, without prebuilding)', () => {
    const hooks = Object.keys(scripts).filter((name) => name.startsWith('pre') && scripts[name.slice(3)] !== undefined);
    // prepack is npm's own lifecycle hook of `npm pack`, not of a script of ours.
    expect(hooks.filter((h) => h !== 'prepack')).toEqual([]);
    expect(scripts.prebuild).toBeUndefined();
  });

  it('BUILD: prebuild:all builds every target, prebuild:host the one npm pack ships, test:platforms checks them', () => {
    expect(scripts['prebuild:all']).toBe('tsx scripts/prebuild.ts --all');
    expect(scripts['prebuild:host']).toBe('tsx scripts/prebuild.ts --host');
    // The packaging test runs these two itself, then packs with scripts off.
    expect(scripts.prepack).toBe('npm run build:ts && npm run prebuild:host');
    expect(scripts['test:platforms']).toBe('tsx scripts/test-platforms.ts');
  });
});
