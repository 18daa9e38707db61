// The library checks every API's doctor makes before loading anything: is the file there, and is
// it a shared object (ELF) or DLL (PE) for this process's architecture.
import * as path from 'node:path';
import { expectedElf, machineName, readElfHeader } from './elf.js';
import { expectedPeMachine, peMachineName, readPeHeader } from './pe.js';
import type { ProbeJob } from './protocol.js';
import type { Problem } from './report.js';

/**
 * The library checks: present, an ELF file (a PE DLL on Windows), of this process's class and
 * machine. Returns the problems; a fatal one means loading is pointless (dlopen would only say
 * the same, tersely).
 */
export function checkLibraryFile(
  libraryPath: string,
  manifestPath: string,
  field: string,
  nodeArch: string = process.arch,
  os: NodeJS.Platform = process.platform,
): { problems: Problem[]; fatal: boolean } {
  if (os === 'win32') return checkDllFile(libraryPath, manifestPath, field, nodeArch);
  const problems: Problem[] = [];
  const elf = readElfHeader(libraryPath);
  if (elf.kind === 'unreadable') {
    const missing = /^ENOENT/.test(elf.reason);
    problems.push({
      severity: 'error',
      stage: 'library',
      what: missing ? `the library ${libraryPath} does not exist` : `the library ${libraryPath} cannot be read`,
      why: { file: manifestPath, field, reason: elf.reason },
      fix: missing ? `install the library, or correct ${field} in ${manifestPath}` : `make ${libraryPath} readable by this user`,
    });
    return { problems, fatal: true };
  }
  if (elf.kind === 'not-elf') {
    problems.push({
      severity: 'error',
      stage: 'architecture',
      what: `${libraryPath} is not an ELF shared library`,
      why: { file: libraryPath, reason: elf.reason },
      fix: `${field} in ${manifestPath} must name the compiled shared library (.so); reinstall the component or correct the path`,
    });
    return { problems, fatal: true };
  }
  const want = expectedElf(nodeArch);
  const h = elf.header;
  if (want !== undefined && h.bits !== want.bits) {
    problems.push({
      severity: 'error',
      stage: 'architecture',
      what: `${libraryPath} is a ${h.bits}-bit library; this process is ${want.bits}-bit`,
      why: { file: libraryPath, reason: `ELF class ${h.bits === 32 ? 'ELFCLASS32' : 'ELFCLASS64'}, ${machineName(h.machine)}` },
      fix: `install the ${want.bits}-bit (${machineName(want.machine)}) build of this component, or point ${field} in ${manifestPath} at it`,
    });
    return { problems, fatal: true };
  }
  if (want !== undefined && h.machine !== want.machine) {
    problems.push({
      severity: 'error',
      stage: 'architecture',
      what: `${libraryPath} is built for ${machineName(h.machine)}; this process runs on ${machineName(want.machine)}`,
      why: { file: libraryPath, reason: `e_machine ${h.machine}, expected ${want.machine}` },
      fix: `install the ${machineName(want.machine)} build of this component, or point ${field} in ${manifestPath} at it`,
    });
    return { problems, fatal: true };
  }
  if (h.type !== 3) {
    problems.push({
      severity: 'warning',
      stage: 'architecture',
      what: `${libraryPath} is not a shared object (ELF type ${h.type})`,
      why: { file: libraryPath, reason: `e_type ${h.type}; a loadable library has ET_DYN (3)` },
      fix: `${field} in ${manifestPath} should name the component's shared library`,
    });
  }
  return { problems, fatal: false };
}

function checkDllFile(libraryPath: string, manifestPath: string, field: string, nodeArch: string): { problems: Problem[]; fatal: boolean } {
  const pe = readPeHeader(libraryPath);
  const problem = (what: string, reason: string, fix: string): { problems: Problem[]; fatal: boolean } => ({
    problems: [{ severity: 'error', stage: pe.kind === 'unreadable' ? 'library' : 'architecture', what, why: { file: pe.kind === 'unreadable' ? manifestPath : libraryPath, field, reason }, fix }],
    fatal: true,
  });
  if (pe.kind === 'unreadable') return problem(`the library ${libraryPath} cannot be read`, pe.reason, `install the library, or correct ${field} in ${manifestPath}`);
  if (pe.kind === 'not-pe') return problem(`${libraryPath} is not a Windows DLL`, pe.reason, `${field} in ${manifestPath} must name the component's DLL; reinstall the component or correct the path`);
  const want = expectedPeMachine(nodeArch);
  if (want !== undefined && pe.header.machine !== want) {
    return problem(
      `${libraryPath} is built for ${peMachineName(pe.header.machine)}; this process runs on ${peMachineName(want)}`,
      `PE machine 0x${pe.header.machine.toString(16)}, expected 0x${want.toString(16)}`,
      `install the ${peMachineName(want)} build of this component, or point ${field} in ${manifestPath} at it`,
    );
  }
  if (!pe.header.dll) return problem(`${libraryPath} is a program, not a DLL`, 'IMAGE_FILE_DLL is not set', `${field} in ${manifestPath} should name the component's DLL`);
  return { problems: [], fatal: false };
}

/** Absolute paths stay, bare names go to the system search, anything else is made absolute here (the child's cwd differs). */
export function loadablePath(libraryPath: string, kind: 'absolute' | 'relative' | 'bare'): string {
  return kind === 'bare' ? libraryPath : path.resolve(libraryPath);
}

export function withLibraryChecks<J = ProbeJob>(
  problems: Problem[],
  libraryPath: string,
  kind: 'absolute' | 'relative' | 'bare',
  manifestPath: string,
  field: string,
  job: J,
  nodeArch: string,
): { readonly job: J } | { readonly skip: string } {
  // A missing library already reported by discovery needs no second line.
  if (problems.some((p) => p.why.field === field && p.severity === 'error')) return { skip: 'the library is missing' };
  if (kind === 'bare') return { job };
  const lib = checkLibraryFile(libraryPath, manifestPath, field, nodeArch);
  problems.push(...lib.problems);
  return lib.fatal ? { skip: 'the static checks found the library unloadable' } : { job };
}
