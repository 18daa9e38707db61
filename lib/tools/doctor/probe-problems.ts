// What a probe's outcome means for the report, whichever API: result codes named, and the
// problems of a child process that crashed, hung or said something it should not have.
import type { ProbeOutcome } from './run-probes.js';
import type { Problem } from './report.js';

/** "returned -6" → "returned NAME (-6)", with the API's result names. */
export function nameResultCodes(reason: string, names: ReadonlyMap<number, string>): string {
  return reason.replace(/returned (-?\d+)/g, (whole, n: string) => {
    const name = names.get(Number(n));
    return name ? `returned ${name} (${n})` : whole;
  });
}

/** A library that negotiated but then crashed or exited badly (while unloading or exiting). */
export function afterwardsProblem(what: string, name: string, libraryPath: string, afterwards: string, output: string): Problem {
  return {
    severity: 'warning',
    stage: 'crash',
    what: `${what} negotiated, but ${afterwards} (while unloading or exiting)`,
    why: { file: libraryPath, reason: afterwards + outputContext(output) },
    fix: `report it to the vendor of ${name}: a library must unload cleanly`,
  };
}

/** The probe process's last lines of output, as context for a reason ('' when it printed nothing). */
export function outputContext(output: string): string {
  return output.trim() === '' ? '' : ` — its output: ${output.trim().split('\n').slice(-3).join(' | ')}`;
}

/** What the doctor needs to word a probe process's failure, whichever API the library belongs to. */
export interface ProbeSubject {
  readonly name: string;
  readonly libraryPath: string;
  /** How to keep the component out of the way until it is fixed. */
  readonly workaround: string;
}

/** The problem for a probe that ended without an answer: a crash, a hang, an exit, or a probe that could not run. */
export function processProblems(subject: ProbeSubject, outcome: Exclude<ProbeOutcome<unknown>, { kind: 'answered' }>): Problem[] {
  const lib = subject.libraryPath;
  const context = outputContext(outcome.output);
  switch (outcome.kind) {
    case 'signal':
      return [
        {
          severity: 'error',
          stage: 'crash',
          what: `crashed with ${outcome.signal} during negotiation`,
          why: { file: lib, reason: `the probe process was killed by ${outcome.signal} while loading and negotiating${context}` },
          fix: `report it to the vendor of ${subject.name}; until it is fixed, ${subject.workaround}`,
        },
      ];
    case 'timeout': {
      const s = outcome.timeoutMs / 1000;
      return [
        {
          severity: 'error',
          stage: 'timeout',
          what: `did not return within ${s} s`,
          why: { file: lib, reason: `loading and negotiating took longer than ${s} s; the probe process was killed${context}` },
          fix: `report it to the vendor of ${subject.name} (it hangs while loading or negotiating; retry with --timeout if it is only slow); until then, ${subject.workaround}`,
        },
      ];
    }
    case 'exited':
      return [
        {
          // A message means the probe itself could not run (the addon did not load): the component is unchecked, not broken.
          severity: outcome.message ? 'warning' : 'error',
          stage: 'probe',
          what: outcome.message ? `the probe could not run: ${outcome.message}` : `the process exited with code ${outcome.exitCode} while loading and negotiating, without an answer`,
          why: { file: lib, reason: `exit code ${outcome.exitCode}${context}` },
          fix: outcome.message ? 'check the khronos-loader installation (the native addon must load)' : `the library ends the process when loaded (it calls exit or abort): report it to the vendor of ${subject.name}; until then, ${subject.workaround}`,
        },
      ];
    case 'startup-timeout':
      return [
        {
          severity: 'warning',
          stage: 'probe',
          what: `the probe process did not start within ${outcome.timeoutMs / 1000} s; ${subject.name} was not checked`,
          why: { file: lib, reason: `no answer from the probe process${context}` },
          fix: 'run the doctor again on a less busy machine',
        },
      ];
    case 'spawn-failed':
      return [
        {
          severity: 'warning',
          stage: 'probe',
          what: `the probe process could not be started; ${subject.name} was not checked`,
          why: { file: lib, reason: outcome.message },
          fix: 'check that node can start child processes here',
        },
      ];
  }
}
