#!/usr/bin/env node
// Runs the Playwright suite against the real `cardio` binary on a throwaway database:
// start `cardio serve --addr 127.0.0.1:0`, read its URL, wait for /api/health, run the tests,
// stop the server, delete the temporary folder, exit with Playwright's code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = resolve(webDir, process.env.CARDIO_BIN ?? '../target/debug/cardio');
const webDist = join(webDir, 'dist');
const STARTUP_TIMEOUT_MS = 60_000;

/** @param {string} message */
function fail(message) {
  console.error(`e2e: ${message}`);
  process.exit(1);
}

if (!existsSync(bin)) fail(`server binary not found at ${bin} (build it, or set CARDIO_BIN)`);
if (!existsSync(join(webDist, 'index.html'))) fail(`${webDist}/index.html is missing: run \`npm run build\` first`);

const tmp = await mkdtemp(join(tmpdir(), 'cardio-e2e-'));
/** @type {string[]} */
const serverLog = [];

const server = spawn(bin, ['serve', '--addr', '127.0.0.1:0'], {
  cwd: tmp,
  env: {
    ...process.env,
    DATABASE_URL: `sqlite://${join(tmp, 'e2e.db')}`,
    CARDIO_DATA_DIR: join(tmp, 'data'),
    CARDIO_WEB_DIR: webDist,
    // Every account of the suite signs up from 127.0.0.1: lift the per-address sign-up limit
    // (its behaviour is covered by the API tests).
    CARDIO_SIGNUPS_PER_HOUR: '100000',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});

/** @param {string} line */
function remember(line) {
  serverLog.push(line);
  if (serverLog.length > 200) serverLog.shift();
}
createInterface({ input: server.stderr }).on('line', remember);
const stdout = createInterface({ input: server.stdout });

let cleanedUp = false;
async function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  await rm(tmp, { recursive: true, force: true });
}

function dumpServerLog() {
  if (serverLog.length === 0) return;
  console.error('--- server log (last lines) ---');
  console.error(serverLog.slice(-60).join('\n'));
  console.error('-------------------------------');
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    void cleanup().then(() => process.exit(130));
  });
}

/** @returns {Promise<string>} the base URL printed by the server */
function waitForUrl() {
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not print its URL in time')), STARTUP_TIMEOUT_MS);
    stdout.on('line', (line) => {
      remember(line);
      const match = /cardio listening on (http:\/\/\S+)/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1].replace(/\/$/, ''));
      }
    });
    server.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited early (code ${code}, signal ${signal})`));
    });
    server.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** @param {string} baseUrl */
async function waitForHealth(baseUrl) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.status === 200) return;
    } catch {
      // Not accepting connections yet.
    }
    if (Date.now() > deadline) throw new Error(`${baseUrl}/api/health did not answer 200 in time`);
    await new Promise((wait) => setTimeout(wait, 200));
  }
}

/** @param {string} baseUrl @returns {Promise<number>} */
function runPlaywright(baseUrl) {
  return new Promise((done) => {
    const child = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
      cwd: webDir,
      stdio: 'inherit',
      env: {
        ...process.env,
        E2E_BASE_URL: baseUrl,
        // Where the server writes its outbox (e-mail links the tests follow).
        E2E_DATA_DIR: join(tmp, 'data'),
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      },
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
    child.on('error', () => done(1));
  });
}

let code = 1;
try {
  const baseUrl = await waitForUrl();
  await waitForHealth(baseUrl);
  console.log(`e2e: server ready at ${baseUrl}`);
  code = await runPlaywright(baseUrl);
  if (code !== 0) dumpServerLog();
} catch (error) {
  console.error(`e2e: ${error instanceof Error ? error.message : String(error)}`);
  dumpServerLog();
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);
