// `npm install khronos-loader` (when install scripts run): fails at once, with one message, on a
// platform the package has no prebuilt binary for, instead of a stack trace at first use. A
// source checkout (it has lib/, the published package does not) builds from source and is left alone.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

if (!existsSync(path.join(__dirname, 'lib'))) {
  import('./dist/core/native/binary.js').then((binary) => {
    const target = binary.currentNativeTarget();
    if (!binary.hasPrebuild(target, binary.availablePrebuilds(__dirname))) {
      process.stderr.write(`${binary.missingPrebuildMessage(target, binary.availablePrebuilds(__dirname), __dirname)}\n`);
      process.exitCode = 1;
    }
  });
}
