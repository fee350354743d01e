#!/usr/bin/env node
// The npm registry reachable here serves only the Linux builds of native optional packages, so npm
// leaves the other platforms' entries out of package-lock.json and `npm ci` then refuses the lock as
// out of sync. This adds those entries (optional, with os and cpu, so npm skips them on Linux).
// Run it after any `npm install` that rewrites the lock: node scripts/lock-platforms.js
const fs = require('fs');
const path = require('path');
const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const platform = (name) => {
  const os = ['darwin', 'win32', 'linux', 'freebsd', 'android'].find((o) => name.includes(`-${o}-`)) ?? null;
  const cpu =
    ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64'].find((c) => new RegExp(`-${c}(-|$)`).test(name)) ??
    null;
  return { os, cpu };
};
let added = 0;
for (const [where, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key] || lock.packages[`${where}/node_modules/${name}`]) continue;
    const { os, cpu } = platform(name);
    if (!os || !cpu) continue;
    lock.packages[key] = { version: version.replace(/^[\^~]/, ''), cpu: [cpu], optional: true, os: [os] };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} platform entries`);
