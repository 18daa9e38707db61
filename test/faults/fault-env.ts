// The fault a test injects into the "_faults" builds of the test runtime, layer and driver
// (test/native/fault_injection/fault_injection.h): KL_FAULT_* in this process's environment,
// which the components read at every call.
export interface Fault {
  readonly in: 'runtime' | 'layer' | 'driver';
  /** A command name, or 'negotiate'. */
  readonly command: string;
  readonly kind: 'fail' | 'null' | 'count-grow' | 'count-shrink' | 'count-lie' | 'abort' | 'segv' | 'hang';
  /** Which call faults: 1 = the first (default); 0 = every call. */
  readonly nth?: number;
}

/** The variables that choose `fault`, for a child's environment. */
export function faultEnv(fault: Fault): Record<string, string> {
  return { KL_FAULT_IN: fault.in, KL_FAULT_COMMAND: fault.command, KL_FAULT_KIND: fault.kind, KL_FAULT_NTH: String(fault.nth ?? 1) };
}

/** Runs `body` with `fault` injected into this process, and clears it afterwards. */
export function withFault<T>(fault: Fault, body: () => T): T {
  const vars = faultEnv(fault);
  Object.assign(process.env, vars);
  try {
    return body();
  } finally {
    for (const k of Object.keys(vars)) delete process.env[k];
  }
}
