import fs from 'node:fs';
const file = process.argv[2];
const prof = JSON.parse(fs.readFileSync(file));
const self = new Map();
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const counts = new Map();
for (const s of prof.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
let total = 0;
for (const [id, c] of counts) {
  const n = byId.get(id);
  const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + c);
  total += c;
}
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 30);
for (const [k, c] of top) console.log((100 * c / total).toFixed(1).padStart(5), '%', k);
