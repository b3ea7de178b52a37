// Runs the npm scripts named on the command line at the same time (`npm test` runs the type
// check and the lint this way: each is one single-threaded process, so on two cores together
// they take the time of the longer one). Each script's output is printed whole when it ends, so
// that two scripts' messages never interleave. Exits 0 when all succeed, else with the first
// failure's exit code after every script has ended.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/parallel.mjs SCRIPT...');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const runs = scripts.map(
  (script) =>
    new Promise((resolve) => {
      const child = spawn(npm, ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      const chunks = [];
      child.stdout.on('data', (c) => chunks.push(c));
      child.stderr.on('data', (c) => chunks.push(c));
      child.on('error', (error) => resolve({ script, code: 1, output: `${error.message}\n` }));
      child.on('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }));
    }),
);

let failed = 0;
for (const { script, code, output } of await Promise.all(runs)) {
  if (output.trim() !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  if (code !== 0) {
    console.error(`npm run ${script}: exit ${code}`);
    if (failed === 0) failed = code;
  }
}
process.exit(failed);
