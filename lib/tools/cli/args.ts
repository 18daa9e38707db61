// The one argument language of every khronos-loader command (docs/usage.md, "The tools"): each
// command declares its options in a table (name, value kind, help text), and this module parses
// them, writes the command's --help from the same table and words every argument error the same
// way — one line naming the argument, what it needs and what it got, exit code 2. It imports
// nothing but node:fs and node:path, so --help and argument errors never load the native addon.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Where a command writes: stdout for its result, stderr for progress and errors. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The environment the command reads (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The exit code of a bad argument (an unknown command or option, a missing or wrong value). */
export const USAGE_EXIT_CODE = 2;

/** A value's check: undefined when it is fine, else what the option needs and, optionally, why the value is not that. */
export type ValueCheck = (value: string) => { readonly need: string; readonly note?: string } | undefined;

interface OptionBase {
  readonly name: `--${string}`;
  readonly help: string;
}

/** An option without a value (--json). */
export interface SwitchOption extends OptionBase {
  readonly kind: 'switch';
}

/**
 * An option with a value (--seconds 5, --seconds=5). The kind checks the value as the command line
 * is read: `text` any non-empty string (and `check`, when given), `positive-integer` a whole number
 * >= 1, `positive-number` a finite number > 0, `choice` one of `choices`, `output-file` a file whose
 * folder exists and can be written (checked before any work starts).
 */
export interface ValueOption extends OptionBase {
  readonly kind: 'text' | 'positive-integer' | 'positive-number' | 'choice' | 'output-file';
  /** The value's placeholder in the help, e.g. "<ms>". */
  readonly value: string;
  /** What the value must be, for errors, when the kind's own words are not precise enough. */
  readonly need?: string;
  readonly choices?: readonly string[];
  readonly check?: ValueCheck;
}

export type OptionSpec = SwitchOption | ValueOption;

/** One command: what its help says and which options it takes. */
export interface CommandSpec {
  /** The words after `khronos-loader`, e.g. "info openxr". */
  readonly name: string;
  /** The usage line after `khronos-loader`, when it is not "<name> [options]". */
  readonly usage?: string;
  /** One line, for the list of commands. */
  readonly summary: string;
  /** What the command does (paragraphs separated by blank lines; wrapped when printed). */
  readonly description: string;
  readonly options: readonly OptionSpec[];
  /** What the exit codes mean (wrapped when printed). */
  readonly exitCodes: string;
  readonly examples?: readonly string[];
}

type OptionValue<O extends OptionSpec> = O extends { readonly kind: 'switch' } ? true : O extends { readonly kind: 'positive-integer' | 'positive-number' } ? number : string;

/** The options given, by name: `true` for a switch, a number for the number kinds, else the string. */
export type ParsedOptions<S extends CommandSpec> = { readonly [O in S['options'][number] as O['name']]?: OptionValue<O> };

/** --help / -h anywhere asks for the command's help. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

const show = (value: string): string => JSON.stringify(value);

/** The reason a value is wrong, in the one shape every argument error has. */
export function badValue(option: string, need: string, got: string | undefined, note?: string): string {
  return `${option} needs ${need}, got ${got === undefined ? 'nothing' : show(got)}${note !== undefined ? ` (${note})` : ''}`;
}

function needOf(o: ValueOption): string {
  if (o.need !== undefined) return o.need;
  switch (o.kind) {
    case 'positive-integer':
      return 'a whole number >= 1';
    case 'positive-number':
      return 'a number greater than 0';
    case 'choice':
      return `one of ${(o.choices ?? []).join(', ')}`;
    case 'output-file':
      return 'a file name in a folder that exists and can be written';
    case 'text':
      return `a value (${o.value})`;
  }
}

/** Why `file` cannot be written, or undefined when its folder exists and is writable. */
export function outputFileProblem(file: string): string | undefined {
  const resolved = path.resolve(file);
  const folder = path.dirname(resolved);
  let folderStat;
  try {
    folderStat = statSync(folder);
  } catch {
    return `${folder} does not exist`;
  }
  if (!folderStat.isDirectory()) return `${folder} is not a folder`;
  try {
    if (statSync(resolved).isDirectory()) return `${resolved} is a folder`;
  } catch {
    // Not there yet: it will be created.
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return `${folder} cannot be written by this user`;
  }
  return undefined;
}

function checkValue(o: ValueOption, value: string): string | undefined {
  if (value === '') return badValue(o.name, needOf(o), value);
  switch (o.kind) {
    case 'positive-integer': {
      const n = Number(value);
      return Number.isSafeInteger(n) && n >= 1 && /^\+?\d+$/.test(value.trim()) ? undefined : badValue(o.name, needOf(o), value);
    }
    case 'positive-number': {
      const n = Number(value);
      return value.trim() !== '' && Number.isFinite(n) && n > 0 ? undefined : badValue(o.name, needOf(o), value);
    }
    case 'choice':
      return (o.choices ?? []).includes(value) ? undefined : badValue(o.name, needOf(o), value);
    case 'output-file': {
      const problem = outputFileProblem(value);
      return problem === undefined ? undefined : badValue(o.name, needOf(o), value, problem);
    }
    case 'text': {
      const problem = o.check?.(value);
      return problem === undefined ? undefined : badValue(o.name, problem.need, value, problem.note);
    }
  }
}

/** What the command takes, for an unknown argument's message. */
function optionList(spec: CommandSpec): string {
  const names = spec.options.map((o) => (o.kind === 'switch' ? o.name : `${o.name} ${o.value}`));
  return [...names, '--help'].join(', ');
}

/**
 * The options after the command's words: `--name value` and `--name=value` alike; a value may
 * start with "-" (a negative number is read, and refused as a value), not with "--". The last of
 * a repeated option wins. A string is the reason the arguments are wrong (one line).
 */
export function parseOptions<S extends CommandSpec>(spec: S, args: readonly string[]): ParsedOptions<S> | string {
  const byName = new Map<string, OptionSpec>(spec.options.map((o) => [o.name, o]));
  const out: Record<string, string | number | true> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const o = byName.get(name);
    if (o === undefined) return `unknown argument ${show(arg)}: ${spec.name} takes ${optionList(spec)}`;
    if (o.kind === 'switch') {
      if (eq > 0) return `${o.name} needs no value (it is a switch), got ${show(arg.slice(eq + 1))}`;
      out[o.name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        value = next;
        i++;
      }
    }
    if (value === undefined) return badValue(o.name, needOf(o), undefined);
    const problem = checkValue(o, value);
    if (problem !== undefined) return problem;
    out[o.name] = o.kind === 'positive-integer' || o.kind === 'positive-number' ? Number(value) : value;
  }
  return out as ParsedOptions<S>;
}

/** `text` wrapped at `width` columns, every line after the first indented by `indent`. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line === '' || line === indent ? line + word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

const WIDTH = 100;
const OPTION_COLUMN = 26;

/** One `  --name <value>   help` entry, the help wrapped under its column. */
export function entry(left: string, help: string): string {
  const head = `  ${left}`;
  const pad = ' '.repeat(OPTION_COLUMN);
  const body = wrap(help, WIDTH - OPTION_COLUMN, '');
  const bodyLines = body.split('\n').map((l) => pad + l);
  if (head.length < OPTION_COLUMN - 1) bodyLines[0] = head.padEnd(OPTION_COLUMN) + (bodyLines[0] ?? '').trimStart();
  else bodyLines.unshift(head);
  return bodyLines.join('\n');
}

function paragraphs(text: string, indent: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => indent + wrap(p, WIDTH - indent.length, indent))
    .join('\n\n');
}

/** The command's --help, from its table. */
export function formatHelp(spec: CommandSpec): string {
  const out = [`usage: khronos-loader ${spec.usage ?? `${spec.name} [options]`}`, '', paragraphs(spec.description, '  '), '', 'options:'];
  for (const o of spec.options) out.push(entry(o.kind === 'switch' ? o.name : `${o.name} ${o.value}`, o.help));
  out.push(entry('-h, --help', 'this help'), '', paragraphs(`Exit code: ${spec.exitCodes}`, ''));
  if (spec.examples?.length) out.push('', 'examples:', ...spec.examples.map((e) => `  ${e}`));
  return `${out.join('\n')}\n`;
}

/** Writes the one-line argument error to stderr; returns the usage exit code. */
export function usageError(command: string, reason: string, io: Pick<CliIo, 'stderr'>): number {
  const prefix = command === '' ? 'khronos-loader' : `khronos-loader ${command}`;
  io.stderr(`${prefix}: ${reason}; see \`${prefix} --help\`\n`);
  return USAGE_EXIT_CODE;
}

/**
 * A command's first steps, the same for every command: --help prints its help (stdout, exit 0);
 * a wrong argument prints one line (stderr, exit 2); otherwise `validate` turns the options into
 * the command's arguments (a string is again an argument error) and `run` runs it.
 */
export async function runCommand<S extends CommandSpec, A>(
  spec: S,
  args: readonly string[],
  io: CliIo,
  validate: (options: ParsedOptions<S>) => A | string,
  run: (parsed: A, io: CliIo) => Promise<number> | number,
): Promise<number> {
  if (wantsHelp(args)) {
    io.stdout(formatHelp(spec));
    return 0;
  }
  const options = parseOptions(spec, args);
  if (typeof options === 'string') return usageError(spec.name, options, io);
  const parsed = validate(options);
  if (typeof parsed === 'string') return usageError(spec.name, parsed, io);
  return run(parsed, io);
}

/** The message of an error thrown while a command runs (exit code 1). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
