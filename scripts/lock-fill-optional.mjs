#!/usr/bin/env node
// Usage: node scripts/lock-fill-optional.mjs package-lock.json  (idempotent; .ci/run calls it before `npm ci`)
//
// Adds lock entries for platform-specific optional dependencies that the registry mirror does not serve,
// marked with their os/cpu so npm skips them on other platforms instead of failing `npm ci`'s sync check.
import fs from 'node:fs';
const file = process.argv[2];
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const OS = [
  'darwin',
  'win32',
  'linux',
  'freebsd',
  'android',
  'openbsd',
  'netbsd',
  'sunos',
  'aix',
  'openharmony',
];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32', 'mips64el'];
let added = 0;
for (const [key, pkg] of Object.entries(lock.packages)) {
  for (const [dep, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = key ? `${key}/node_modules/${dep}` : `node_modules/${dep}`;
    if (lock.packages[`node_modules/${dep}`] || lock.packages[base]) continue;
    const name = dep.split('/').pop();
    const os = OS.find((o) => name.includes(o === 'win32' ? 'win32' : o));
    const cpu = CPU.find((c) => new RegExp(`(^|-)${c}($|-)`).test(name));
    const entry = { version: spec.replace(/^[\^~=]/, ''), optional: true };
    if (pkg.dev) entry.dev = true;
    if (os) entry.os = [os];
    if (cpu) entry.cpu = [cpu];
    lock.packages[`node_modules/${dep}`] = entry;
    added++;
  }
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} entries`);
