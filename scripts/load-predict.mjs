#!/usr/bin/env node
// Load generator for the prediction API: signs up a doctor on a running `cardio serve`, then keeps
// CONCURRENCY requests in flight until TOTAL have completed, and prints p50/p90/p99/max latency and
// throughput. It measures a reference endpoint (GET /api/auth/me: session lookup, no model) the same
// way in the same run, so the prediction's cost is reported as a ratio against it.
//
//   node scripts/load-predict.mjs --url http://127.0.0.1:8080 --files A00001.hea,A00001.mat \
//        [--kind ecg] [--concurrency 50] [--total 2000] [--warmup 100]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const base = arg('url', 'http://127.0.0.1:8080');
const kind = arg('kind', 'ecg');
const files = (arg('files', '') || '').split(',').filter(Boolean);
const concurrency = Number(arg('concurrency', '50'));
const total = Number(arg('total', '2000'));
const warmup = Number(arg('warmup', '100'));
if (files.length === 0) {
  console.error('--files is required (a recording, or a WFDB .hea and its signal file)');
  process.exit(2);
}
const contents = files.map((f) => ({ name: basename(f), bytes: readFileSync(f) }));

async function signIn() {
  const email = `load-${Date.now()}-${Math.random().toString(16).slice(2)}@bench.test`;
  const response = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ full_name: 'Load Test', email, password: 'load-test-pass', role: 'doctor' }),
  });
  if (response.status !== 201) throw new Error(`signup: ${response.status} ${await response.text()}`);
  return response.headers.get('set-cookie').split(';')[0];
}

let sent = 0;
function predictRequest(cookie) {
  // Every upload differs (a comment line in a WFDB header, else trailing bytes are not added), so
  // the server stores a new blob each time, as with real uploads.
  sent += 1;
  const form = new FormData();
  for (const file of contents) {
    const bytes = file.name.toLowerCase().endsWith('.hea')
      ? Buffer.concat([file.bytes, Buffer.from(`# load request ${sent} ${Date.now()}\n`)])
      : file.bytes;
    form.append('file', new Blob([bytes]), file.name);
  }
  return fetch(`${base}/api/predict/${kind}/upload`, { method: 'POST', headers: { cookie }, body: form });
}

function referenceRequest(cookie) {
  return fetch(`${base}/api/auth/me`, { headers: { cookie } });
}

async function run(label, send, n) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  let firstError = null;
  const started = performance.now();
  async function worker() {
    while (next < n) {
      next += 1;
      const t0 = performance.now();
      const response = await send();
      const body = await response.text();
      latencies.push(performance.now() - t0);
      if (response.status !== 200) {
        failures += 1;
        firstError ??= `${response.status} ${body.slice(0, 200)}`;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return { label, n, failures, firstError, seconds, rps: n / seconds, p50: q(0.5), p90: q(0.9), p99: q(0.99), max: latencies[latencies.length - 1] };
}

const cookie = await signIn();
await run('warmup', () => predictRequest(cookie), warmup);
const reference = await run('GET /api/auth/me', () => referenceRequest(cookie), total);
const predict = await run(`POST /api/predict/${kind}/upload`, () => predictRequest(cookie), total);
const fmt = (v) => v.toFixed(1).padStart(7);
console.log(`concurrency ${concurrency}, ${total} requests each, files: ${files.map((f) => basename(f)).join(' + ')}`);
console.log('endpoint                          req/s     p50 ms   p90 ms   p99 ms   max ms  failures');
for (const r of [reference, predict]) {
  console.log(`${r.label.padEnd(32)} ${fmt(r.rps)}  ${fmt(r.p50)}  ${fmt(r.p90)}  ${fmt(r.p99)}  ${fmt(r.max)}  ${r.failures}`);
  if (r.firstError) console.log(`  first failure: ${r.firstError}`);
}
console.log(`ratio predict/reference: p50 ${(predict.p50 / reference.p50).toFixed(2)}x, p99 ${(predict.p99 / reference.p99).toFixed(2)}x`);
process.exit(predict.failures > 0 ? 1 : 0);
