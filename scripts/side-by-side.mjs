// Runs shell commands at the same time and fails when any of them fails, e.g.
//   node scripts/side-by-side.mjs "npm run lint" "npm run format:check && npm run typecheck"
// npm test's checks are each a single thread, so on the two-core CI machine two of them side by side
// take about the time of the longer one. Each command's output is printed whole once it ends, not
// interleaved with the other's.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/side-by-side.mjs <command>...');
  process.exit(2);
}

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      process.stdout.write(Buffer.concat(output));
      if (code !== 0) console.error(`side-by-side: "${command}" failed (${signal ?? `exit code ${code}`})`);
      resolve(code === 0);
    });
  });
}

const passed = await Promise.all(commands.map(run));
process.exit(passed.every(Boolean) ? 0 : 1);
