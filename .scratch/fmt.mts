import { formatValues } from '../src/api/writer.ts';
const cols = 233, n = 7990;
const data = Array.from({ length: cols }, (_, c) => Float64Array.from({ length: n }, (_, i) => Math.max(0, Math.round((150 + 150 * Math.sin(i / 17 + c)) * 1000 * Math.random()) / 1000)));
const enc = new TextEncoder();
function runA() { let bytes = 0; for (const v of data) bytes += enc.encode(formatValues(v, 2)).length; return bytes; }
function runB() { const arrs = data.map((v) => Array.from(v, (x) => Math.round(x * 100) / 100)); const t = performance.now(); const s = JSON.stringify(arrs); return [s.length, performance.now() - t]; }
for (let k = 0; k < 5; k++) {
  let t = performance.now(); const a = runA(); const ta = performance.now() - t;
  const [b, tb] = runB();
  console.log('format+encode', ta.toFixed(1), 'ms', a, ' stringify', (tb as number).toFixed(1), 'ms', b);
}
