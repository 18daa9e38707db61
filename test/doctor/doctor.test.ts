// doctor(): every component checked statically, then loaded and negotiated in a child process.
// The broken components (test/native/doctor_broken) crash, hang, lack their negotiate symbol or
// refuse negotiation; the doctor must report each and carry on (and so must this vitest process).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doctor, formatDoctorReport, type ComponentReport, type DoctorReport } from '../../lib/tools/doctor/index.js';
import { componentLibrary, elf32Header, makeFixture, type Fixture } from './fixture.js';

const LAYER_OK = 'XR_APILAYER_KLDOCTOR_ok';
const LAYER_SEGV = 'XR_APILAYER_KLDOCTOR_segfault';
const LAYER_HANG = 'XR_APILAYER_KLDOCTOR_hang';
const LAYER_NOSYM = 'XR_APILAYER_KLDOCTOR_no_symbol';
const LAYER_MISSING = 'XR_APILAYER_KLDOCTOR_missing_file';
const LAYER_NOT_ELF = 'XR_APILAYER_KLDOCTOR_not_elf';
const LAYER_ELF32 = 'XR_APILAYER_KLDOCTOR_elf32';

const TIMEOUT_MS = 1500;

function component(r: DoctorReport, name: string): ComponentReport {
  const c = r.components.find((x) => x.name === name);
  if (!c) throw new Error(`no component ${name} in the report: ${r.components.map((x) => x.name).join(', ')}`);
  return c;
}

function run(f: Fixture, extra: { env?: Record<string, string> } = {}): Promise<DoctorReport> {
  return doctor({ env: { ...f.env, ...extra.env }, ...f.discovery, timeoutMs: TIMEOUT_MS, logWriter: () => undefined });
}

function brokenTree(): Fixture {
  const f = makeFixture({
    layers: [
      { name: LAYER_OK, libraryPath: componentLibrary('kl_doctor_layer_ok') },
      { name: LAYER_SEGV, libraryPath: componentLibrary('kl_doctor_layer_segfault') },
      { name: LAYER_HANG, libraryPath: componentLibrary('kl_doctor_layer_hang') },
      { name: LAYER_NOSYM, libraryPath: componentLibrary('kl_doctor_layer_no_symbol') },
      { name: LAYER_MISSING, libraryPath: '/nonexistent/kl-doctor/libmissing.so' },
      { name: LAYER_NOT_ELF, libraryPath: 'libs/not-elf.so' },
      { name: LAYER_ELF32, libraryPath: 'libs/elf32.so' },
    ],
  });
  // Relative library paths start from the manifest's folder (explicit/).
  f.writeFile('explicit/libs/not-elf.so', '#!/bin/sh\necho I am not a library\n');
  f.writeFile('explicit/libs/elf32.so', elf32Header());
  return f;
}

describe('doctor over broken components', () => {
  // One run serves the per-component checks below: every probe is a process start.
  const f = brokenTree();
  const report = run(f);

  it('DOCTOR: the healthy runtime negotiates and lists its own extensions', async () => {
    const r = await report;
    const rt = r.components.find((c) => c.kind === 'runtime');
    expect(rt?.status).toBe('ok');
    expect(rt?.inForce).toBe(true);
    expect(rt?.negotiated).toEqual({ interfaceVersion: 1, apiVersion: '1.0.0', extensions: [{ name: 'XR_KLDOCTOR_test_extension', extensionVersion: 7 }] });
    expect(rt?.probe.ran).toBe(true);
  });

  it('DOCTOR: a healthy explicit layer is ok, negotiated in a child process', async () => {
    const c = component(await report, LAYER_OK);
    expect(c.status).toBe('ok');
    expect(c.problems).toEqual([]);
    expect(c.negotiated).toEqual({ interfaceVersion: 1, apiVersion: '1.0.0' });
  });

  it('DOCTOR: a layer that segfaults in negotiation is reported as crashed with SIGSEGV', async () => {
    const c = component(await report, LAYER_SEGV);
    expect(c.status).toBe('broken');
    expect(c.problems).toHaveLength(1);
    expect(c.problems[0]?.stage).toBe('crash');
    expect(c.problems[0]?.what).toBe('crashed with SIGSEGV during negotiation');
    expect(c.problems[0]?.why.file).toBe(componentLibrary('kl_doctor_layer_segfault'));
    expect(c.problems[0]?.fix).toContain(f.manifestOf(LAYER_SEGV));
  });

  it('DOCTOR: a layer that hangs is killed after the timeout and reported', async () => {
    const c = component(await report, LAYER_HANG);
    expect(c.status).toBe('broken');
    expect(c.problems.map((p) => [p.stage, p.what])).toEqual([['timeout', 'did not return within 1.5 s']]);
    expect(c.probe.ran && c.probe.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
  });

  it('DOCTOR: a layer without the negotiate symbol says which symbol and where to look', async () => {
    const c = component(await report, LAYER_NOSYM);
    expect(c.status).toBe('broken');
    const p = c.problems[0];
    expect(p?.stage).toBe('symbol');
    expect(p?.why.symbol).toBe('xrNegotiateLoaderApiLayerInterface');
    expect(p?.what).toBe('the layer exports no xrNegotiateLoaderApiLayerInterface');
    expect(p?.fix).toMatch(/is this an OpenXR 1\.0 layer\? check `functions` in .*no_symbol\.json/);
  });

  it('DOCTOR: a manifest whose library_path names a missing file is reported without loading anything', async () => {
    const c = component(await report, LAYER_MISSING);
    expect(c.status).toBe('broken');
    expect(c.manifestPath).toBe(f.manifestOf(LAYER_MISSING));
    expect(c.probe).toEqual({ ran: false, reason: 'the library is missing' });
    expect(c.problems).toHaveLength(1);
    expect(c.problems[0]?.why.field).toBe('api_layer.library_path');
    expect(c.problems[0]?.fix).toBe(`install the library, or correct api_layer.library_path in ${f.manifestOf(LAYER_MISSING)}`);
  });

  it('DOCTOR: a library that is not an ELF file fails the static check', async () => {
    const c = component(await report, LAYER_NOT_ELF);
    expect(c.status).toBe('broken');
    expect(c.probe.ran).toBe(false);
    expect(c.problems[0]?.stage).toBe('architecture');
    expect(c.problems[0]?.what).toBe(`${path.join(f.root, 'explicit/libs/not-elf.so')} is not an ELF shared library`);
    expect(c.problems[0]?.why.reason).toBe('no ELF magic (the file starts with 23 21 2f 62)');
  });

  it('DOCTOR: a 32-bit ELF library in a 64-bit process fails the architecture check', async () => {
    const c = component(await report, LAYER_ELF32);
    expect(c.status).toBe('broken');
    expect(c.problems[0]?.stage).toBe('architecture');
    expect(c.problems[0]?.what).toMatch(/is a 32-bit library; this process is 64-bit$/);
    expect(c.problems[0]?.fix).toMatch(/^install the 64-bit \(x86-64\) build/);
  });

  it('DOCTOR: broken explicit layers nobody enables are reported but do not fail the verdict', async () => {
    const r = await report;
    expect(r.components.filter((c) => c.status === 'broken').map((c) => c.inForce)).toEqual([false, false, false, false, false, false]);
    expect(r.broken).toBe(false);
    expect(r.exitCode).toBe(0);
    const text = formatDoctorReport(r);
    expect(text).toContain('crashed with SIGSEGV during negotiation');
    expect(text).toContain('did not return within 1.5 s');
    expect(text).toMatch(/OK for what is in force; 6 problems elsewhere/);
  });
});

describe('doctor verdict', () => {
  it('DOCTOR: a runtime that refuses negotiation breaks the verdict, with the XrResult named', async () => {
    const f = makeFixture({ runtimeLibrary: componentLibrary('kl_doctor_runtime_error_result') });
    const r = await run(f);
    const rt = r.components.find((c) => c.kind === 'runtime');
    expect(rt?.status).toBe('broken');
    expect(rt?.problems[0]?.stage).toBe('negotiate');
    expect(rt?.problems[0]?.why.reason).toBe('xrNegotiateLoaderRuntimeInterface returned XR_ERROR_INITIALIZATION_FAILED (-6) instead of XR_SUCCESS');
    expect(r.exitCode).toBe(1);
  });

  it('DOCTOR: an implicit layer that crashes is in force (on by default) and breaks the verdict; its disable variable is the fix', async () => {
    const f = makeFixture({
      layers: [{ name: LAYER_SEGV, libraryPath: componentLibrary('kl_doctor_layer_segfault'), implicit: true, disableEnvironment: 'KLDOCTOR_DISABLE' }],
    });
    const r = await run(f);
    const c = component(r, LAYER_SEGV);
    expect(c.layerKind).toBe('implicit');
    expect(c.inForce).toBe(true);
    expect(c.status).toBe('broken');
    expect(c.problems[0]?.fix).toContain('set KLDOCTOR_DISABLE=1 to turn the layer off');
    expect(r.exitCode).toBe(1);
    // Turned off by its variable, it is no longer in force: reported, but the verdict is fine.
    const off = await run(f, { env: { KLDOCTOR_DISABLE: '1' } });
    expect(component(off, LAYER_SEGV).inForce).toBe(false);
    expect(component(off, LAYER_SEGV).status).toBe('broken');
    expect(off.exitCode).toBe(0);
  });

  it('DOCTOR: a hanging layer named in XR_ENABLE_API_LAYERS, and a name nothing provides, break the verdict', async () => {
    const f = makeFixture({ layers: [{ name: LAYER_HANG, libraryPath: componentLibrary('kl_doctor_layer_hang') }] });
    const r = await run(f, { env: { XR_ENABLE_API_LAYERS: `${LAYER_HANG}:XR_APILAYER_KLDOCTOR_nowhere` } });
    const hang = component(r, LAYER_HANG);
    expect(hang.inForce).toBe(true);
    expect(hang.inForceReason).toBe('named in XR_ENABLE_API_LAYERS');
    expect(hang.problems[0]?.stage).toBe('timeout');
    const nowhere = component(r, 'XR_APILAYER_KLDOCTOR_nowhere');
    expect(nowhere.status).toBe('broken');
    expect(nowhere.problems[0]?.what).toBe('XR_ENABLE_API_LAYERS names "XR_APILAYER_KLDOCTOR_nowhere", but no API layer manifest provides it');
    expect(r.exitCode).toBe(1);
  });

  it('DOCTOR: a malformed layer manifest and a renamed negotiate function that does not exist', async () => {
    const f = makeFixture({
      layers: [{ name: 'XR_APILAYER_KLDOCTOR_renamed', libraryPath: componentLibrary('kl_doctor_layer_ok'), functions: { xrNegotiateLoaderApiLayerInterface: 'klDoctorNoSuchNegotiate' } }],
    });
    const bad = f.writeFile('explicit/zz_bad.json', '{ "file_format_version": "1.0.0", "api_layer": { "name": ');
    const r = await run(f);
    const renamed = component(r, 'XR_APILAYER_KLDOCTOR_renamed');
    expect(renamed.problems[0]?.why.symbol).toBe('klDoctorNoSuchNegotiate');
    expect(renamed.problems[0]?.fix).toContain('the manifest renames the negotiate function to klDoctorNoSuchNegotiate');
    const manifest = r.components.find((c) => c.manifestPath === bad);
    expect(manifest?.kind).toBe('manifest');
    expect(manifest?.status).toBe('broken');
    expect(manifest?.problems[0]?.fix).toBe(`fix the JSON syntax of ${bad}, or remove the file`);
  });
});
