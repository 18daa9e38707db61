#!/usr/bin/env node
// prebuildify drives node-gyp; this stands in for node-gyp and runs the cmake-js build instead.
// cmake-js writes build/Release/khronos_loader.node, which is where prebuildify looks.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const cmakeJs = require.resolve('cmake-js/bin/cmake-js');
const debug = process.argv.includes('--debug');
const args = [cmakeJs, 'build', '--out', 'build', ...(debug ? ['--debug'] : [])];
const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
