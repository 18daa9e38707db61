// Every rule ID that a test, the loader's code or a script names is defined in docs/requirements.md,
// so an ID in a test title leads somewhere in the repository.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

/** A rule ID as the tests write it: XR-RD-2, VK-CH-6, NODE-3, or the Vulkan loader's LLP_LOADER_7. */
const RULE_ID = /\b(?:(?:XR|VK)-[A-Z]{2}-\d+|NODE-\d+|LLP_LOADER_\d+)\b/g;

function filesUnder(dir: string, ext: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'generated' && e.name !== 'node_modules') out.push(...filesUnder(p, ext));
    } else if (ext.some((x) => e.name.endsWith(x))) out.push(p);
  }
  return out;
}

/** The IDs the table rows of docs/requirements.md define (`| ID | meaning | source |`). */
export function definedRuleIds(doc: string): Set<string> {
  const ids = new Set<string>();
  for (const line of doc.split('\n')) {
    const cell = /^\|\s*([A-Z][A-Z0-9_-]*\d)\s*\|/.exec(line);
    if (cell) ids.add(cell[1] as string);
  }
  return ids;
}

/** Each ID named in `files`, with the first file that names it. */
export function namedRuleIds(files: readonly string[]): Map<string, string> {
  const named = new Map<string, string>();
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(RULE_ID)) {
      if (!named.has(m[0])) named.set(m[0], path.relative(repoRoot, file));
    }
  }
  return named;
}

describe('docs/requirements.md', () => {
  const defined = definedRuleIds(readFileSync(path.join(repoRoot, 'docs', 'requirements.md'), 'utf8'));

  it('ARCH: defines every rule ID that a test, lib/, native/ or scripts/ names', () => {
    const files = [
      ...filesUnder(path.join(repoRoot, 'test'), ['.ts', '.cc', '.h', '.c']),
      ...filesUnder(path.join(repoRoot, 'lib'), ['.ts']),
      ...filesUnder(path.join(repoRoot, 'native'), ['.cc', '.h']),
      ...filesUnder(path.join(repoRoot, 'scripts'), ['.ts', '.sh']),
    ];
    const named = namedRuleIds(files);
    expect(named.size).toBeGreaterThan(50);
    const undefinedIds = [...named].filter(([id]) => !defined.has(id)).map(([id, file]) => `${id} (named in ${file})`);
    expect(undefinedIds).toEqual([]);
  });

  it('ARCH: reads a table row as a definition and prose as none', () => {
    expect([...definedRuleIds('| XR-RD-1 | a rule | a source |\nXR-RD-2 is mentioned here\n| ID | rule |')]).toEqual(['XR-RD-1']);
  });
});
