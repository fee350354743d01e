const fs = require('fs');
const file = process.argv[2];
const p = JSON.parse(fs.readFileSync(file));
const self = new Map(); const byId = new Map(p.nodes.map((n) => [n.id, n]));
const dt = new Map(); // sample counts
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) || 0) + (p.timeDeltas[i] || 0));
let total = 0;
for (const n of p.nodes) { const t = dt.get(n.id) || 0; total += t; const cf = n.callFrame; const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-3).join('/')}:${cf.lineNumber}`; self.set(key, (self.get(key) || 0) + t); }
const byFile = new Map();
for (const n of p.nodes) { const t = dt.get(n.id) || 0; const u = n.callFrame.url; const k = u.includes('node_modules') ? u.split('node_modules/')[1].split('/').slice(0, u.includes('@') ? 2 : 1).join('/') : (u.includes('/work/') ? 'ours:' + u.split('/').slice(-3,-1).join('/') : (u || n.callFrame.functionName)); byFile.set(k, (byFile.get(k) || 0) + t); }
console.log('total ms', (total / 1000).toFixed(0));
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((100 * v / total).toFixed(1).padStart(5), k);
console.log('--- by package');
for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((100 * v / total).toFixed(1).padStart(5), k);
