#!/usr/bin/env node
// The khronos-loader command line. Thin: it formats what the library returns. Every command's
// options, help and argument errors come from its table in specs.ts (args.ts reads them); each
// command's own modules — and with them the native addon — are imported only when it runs, so
// --help, --version and a wrong argument answer at once.
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { entry, errorMessage, formatHelp, usageError, wantsHelp, wrap, type CliIo } from './args.js';
import { BENCH_OPENXR, BENCH_OPENXR_FRAME, BENCH_OPENXR_SCENE, BENCH_VULKAN, DEMO, DOCTOR_OPENXR, DOCTOR_VULKAN, INFO_OPENXR, INFO_VULKAN, LAYERS_OPENXR, LAYERS_VULKAN, RUNTIMES, TOP_LEVEL, type CommandGroup } from './specs.js';
import type { CommandSpec } from './args.js';
import { InternalError } from '../../core/errors.js';

export type { CliIo } from './args.js';

/** The package's version, from its package.json (lib/tools/cli/ and dist/tools/cli/ are three levels below it). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

function isGroup(c: CommandSpec | CommandGroup): c is CommandGroup {
  return 'commands' in c;
}

/** The words after `khronos-loader` that name a top-level command or group. */
const TOP_NAMES = TOP_LEVEL.map((c) => c.name);

export function topLevelHelp(): string {
  const lines = ['usage: khronos-loader <command> [options]', '       khronos-loader <command> --help', '', 'commands:'];
  for (const c of TOP_LEVEL) {
    if (isGroup(c)) for (const s of c.commands) lines.push(entry(s.usage?.replace(/ \[options\]$/, '') ?? s.name, s.summary));
    else lines.push(entry(c.name, c.summary));
  }
  lines.push(entry('help <command>', "a command's help (as <command> --help)"));
  lines.push('', 'options:', entry('-h, --help', 'this help'), entry('-V, --version', "khronos-loader's version"));
  lines.push('', wrap('Exit codes: 0 success; 1 the command failed or found something broken (its --help says what); 2 a wrong argument (one line on stderr names it).', 100, ''));
  return `${lines.join('\n')}\n`;
}

/** The words a group's sub-commands start with ("openxr", "vulkan"), once each. */
function targetsOf(g: CommandGroup): string[] {
  return [...new Set(g.commands.map((c) => c.name.split(' ')[1] ?? ''))];
}

/** A group's --help: its sub-commands, each with its own --help. */
function groupHelp(g: CommandGroup): string {
  const lines = [`usage: khronos-loader ${g.name} <${targetsOf(g).join('|')}> [options]`, '', `  ${g.summary}`, '', 'commands:'];
  for (const c of g.commands) lines.push(entry(c.usage?.replace(/ \[options\]$/, '') ?? c.name, c.summary));
  lines.push('', `\`khronos-loader ${g.name} <command> --help\` for a command's options.`);
  return `${lines.join('\n')}\n`;
}

/** The sub-command of `group` that `word` names, when it does. */
function subCommand(group: CommandGroup, word: string | undefined): CommandSpec | undefined {
  return group.commands.find((c) => c.name === `${group.name} ${word}`);
}

/** Runs one command (by its table) with the arguments after its words. */
async function run(spec: CommandSpec, args: readonly string[], io: CliIo): Promise<number> {
  switch (spec) {
    case INFO_OPENXR:
      return (await import('./info-cli.js')).runInfoCli(INFO_OPENXR, args, io);
    case INFO_VULKAN:
      return (await import('./info-cli.js')).runInfoCli(INFO_VULKAN, args, io);
    case RUNTIMES:
      return (await import('./runtimes.js')).runRuntimesCli(args, io);
    case LAYERS_VULKAN:
      return (await import('./layers-cli.js')).runLayersCli(args, io);
    case LAYERS_OPENXR:
      return (await import('./layers-openxr-cli.js')).runLayersOpenXrCli(args, io);
    case DEMO:
      return (await import('./demo-cli.js')).runDemoCli(args, io);
    case DOCTOR_OPENXR:
    case DOCTOR_VULKAN:
      return (await import('./doctor.js')).runDoctorCli(spec === DOCTOR_VULKAN ? ['vulkan', ...args] : args, io);
    case BENCH_OPENXR:
    case BENCH_OPENXR_FRAME:
    case BENCH_OPENXR_SCENE:
      return (await import('../bench/cli.js')).runBenchCli(['openxr', ...args], io);
    case BENCH_VULKAN:
      return (await import('../bench/cli.js')).runBenchCli(['vulkan', ...args], io);
  }
  throw new InternalError(`no runner for ${spec.name}`);
}

/** `help <command words>`: that command's (or group's) help. */
function help(words: readonly string[], io: CliIo): number {
  if (words.length === 0) {
    io.stdout(topLevelHelp());
    return 0;
  }
  const top = TOP_LEVEL.find((c) => c.name === words[0]);
  if (top === undefined) return usageError('help', `needs a command (${TOP_NAMES.join(', ')}), got ${JSON.stringify(words[0])}`, io);
  if (!isGroup(top)) {
    io.stdout(formatHelp(top));
    return 0;
  }
  if (words.length === 1) {
    io.stdout(groupHelp(top));
    return 0;
  }
  const sub = subCommand(top, words[1]);
  if (sub === undefined) return usageError('help', `needs a command of ${top.name}, ${targetsOf(top).map((w) => JSON.stringify(w)).join(' or ')}, got ${JSON.stringify(words[1])}`, io);
  io.stdout(formatHelp(sub === BENCH_OPENXR && words.includes('frame') ? BENCH_OPENXR_FRAME : sub === BENCH_OPENXR && words.includes('scene') ? BENCH_OPENXR_SCENE : sub));
  return 0;
}

/** A group's arguments: its sub-command, or its default, or the reason neither is there. */
async function runGroup(group: CommandGroup, args: readonly string[], io: CliIo): Promise<number> {
  const [word, ...rest] = args;
  const sub = subCommand(group, word);
  if (sub !== undefined) return run(sub, rest, io);
  const targets = targetsOf(group).map((w) => JSON.stringify(w));
  if (word === undefined || word.startsWith('-')) {
    if (group.default !== undefined) return run(group.default, args, io);
    if (word !== undefined && wantsHelp(args)) {
      io.stdout(groupHelp(group));
      return 0;
    }
  }
  return usageError(group.name, `needs a target, ${targets.join(' or ')}, got ${word === undefined ? 'nothing' : JSON.stringify(word)}`, io);
}

/** Runs the CLI; resolves to the exit code (0 success, 1 failure or something broken, 2 a wrong argument). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h') {
    io.stdout(topLevelHelp());
    return 0;
  }
  if (command === '--version' || command === '-V') {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  if (command === 'help') return help(rest, io);
  if (command === undefined) return usageError('', `needs a command (${TOP_NAMES.join(', ')}), got nothing`, io);
  const top = TOP_LEVEL.find((c) => c.name === command);
  if (top === undefined) {
    return usageError('', `unknown ${command.startsWith('-') ? 'option' : 'command'} ${JSON.stringify(command)}: khronos-loader takes ${[...TOP_NAMES, 'help', '--help', '--version'].join(', ')}`, io);
  }
  return isGroup(top) ? runGroup(top, rest, io) : run(top, rest, io);
}

function isMain(): boolean {
  const entryPath = process.argv[1];
  if (!entryPath) return false;
  try {
    return realpathSync(entryPath) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** A platform without a prebuilt binary (KL_NO_PREBUILD) gets the message alone, not a stack trace. */
function exitCodeForError(error: unknown, stderr: (text: string) => void): number {
  if (error instanceof Error && (error as { code?: unknown }).code === 'KL_NO_PREBUILD') {
    stderr(`${errorMessage(error)}\n`);
    return 1;
  }
  throw error;
}

if (isMain()) {
  const stderr = (t: string): void => void process.stderr.write(t);
  runCli(process.argv.slice(2), { stdout: (t) => process.stdout.write(t), stderr })
    .catch((error: unknown) => exitCodeForError(error, stderr))
    .then((code) => {
      process.exitCode = code;
    });
}
