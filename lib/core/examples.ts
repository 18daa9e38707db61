// Where the example programs and shaders the package ships are (docs/usage.md, "Examples"): the
// examples/ folder at the package root, holding the TypeScript sources and shaders/*.comp|spv; the
// programs compiled to JavaScript are in dist/examples/.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError } from './errors.js';
import { packageRoot } from './native/load.js';

function listExamples(folder: string, prefix = ''): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listExamples(path.join(folder, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

/**
 * The absolute path of a file the package ships under examples/, e.g. `examplePath('shaders/saxpy.spv')`.
 * Throws InvalidArgumentError naming the files there when it does not exist.
 */
export function examplePath(name: string): string {
  if (typeof name !== 'string' || name === '' || path.isAbsolute(name) || name.split(/[\\/]/).includes('..')) {
    throw new InvalidArgumentError(`examplePath(name): name must be a path inside examples/ such as 'shaders/saxpy.spv', got ${JSON.stringify(name)}`, 'name');
  }
  const folder = path.join(packageRoot, 'examples');
  const file = path.join(folder, name);
  if (!existsSync(file)) {
    throw new InvalidArgumentError(`examplePath('${name}'): no such file in ${folder}; it has ${listExamples(folder).sort().join(', ')}`, 'name');
  }
  return file;
}
