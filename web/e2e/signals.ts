/** Synthetic test signals written at run time (no dataset file is needed or committed). */

/**
 * Beats elapsed at `t` seconds for a rate of 75 bpm varying by ±3 bpm with breathing (15 a minute):
 * real rhythms vary from beat to beat, and the models refuse signals that look nothing like a heart.
 */
export function breathingBeats(t: number): number {
  const tau = 2 * Math.PI;
  return (75 * t - (3 / (tau * 0.25)) * (Math.cos(tau * 0.25 * t) - 1)) / 60;
}

/** A seeded noise source in [-0.5, 0.5) (the same fixture on every run). */
export function seededNoise(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x80000000 - 0.5;
  };
}

/**
 * A 16-bit mono WAV: S1/S2-like bursts at about 75 bpm with the variation of breathing over the
 * low-frequency background noise of a stethoscope (synthetic, written at run time).
 */
export function heartSoundWav(seconds: number, rate: number): Buffer {
  const n = Math.round(seconds * rate);
  const data = Buffer.alloc(n * 2);
  const noise = seededNoise(1);
  let hum = 0;
  for (let i = 0; i < n; i += 1) {
    const t = i / rate;
    const phase = (breathingBeats(t) % 1) * 0.8;
    let v = 0;
    for (const [start, freq, width] of [
      [0.05, 60, 0.1],
      [0.35, 90, 0.08],
    ] as const) {
      const d = phase - start;
      if (d >= 0 && d < width) v += Math.sin(2 * Math.PI * freq * d) * Math.sin((Math.PI * d) / width);
    }
    hum = 0.97 * hum + noise();
    v += 0.08 * hum;
    data.writeInt16LE(Math.max(-32767, Math.min(32767, Math.round(v * 12000))), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A CSV with a time column: a fingertip-like pulse at about 75 bpm, 100 Hz, breathing and noise. */
export function pulseCsv(seconds: number): Buffer {
  const lines = ['time,PPG'];
  const noise = seededNoise(2);
  for (let i = 0; i < seconds * 100; i += 1) {
    const t = i / 100;
    const p = breathingBeats(t) % 1;
    const v =
      Math.exp(-((p - 0.2) ** 2) / 0.005) +
      0.3 * Math.exp(-((p - 0.55) ** 2) / 0.004) +
      0.05 * Math.sin(2 * Math.PI * 0.25 * t) +
      0.02 * noise();
    lines.push(`${t.toFixed(2)},${v.toFixed(5)}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** An ECG-like lead II trace at 250 Hz (mV): P, QRS and T at about 75 bpm, breathing and noise. */
function ecgSamples(seconds: number): number[] {
  const noise = seededNoise(3);
  const out: number[] = [];
  for (let i = 0; i < seconds * 250; i += 1) {
    const t = i / 250;
    const d = ((breathingBeats(t) % 1) - 0.375) * 0.8;
    const g = (c: number, w: number, a: number) => a * Math.exp(-((d - c) ** 2) / w);
    out.push(
      g(-0.16, 0.0008, 0.12) +
        g(-0.02, 0.00005, -0.1) +
        g(0, 0.00012, 1.2) +
        g(0.025, 0.00005, -0.25) +
        g(0.22, 0.002, 0.3) +
        0.05 * Math.sin(2 * Math.PI * 0.25 * t) +
        0.02 * noise(),
    );
  }
  return out;
}

/** A CSV ECG-like lead II trace at 250 Hz (see `ecgSamples`). */
export function ecgCsv(seconds: number): Buffer {
  const lines = ['time,II', ...ecgSamples(seconds).map((v, i) => `${(i / 250).toFixed(3)},${v.toFixed(4)}`)];
  return Buffer.from(`${lines.join('\n')}\n`);
}

/**
 * The same trace as a WFDB record `name`: a header and a format-16 signal file (little-endian
 * 16-bit samples, 200 ADC units per mV), as PhysioNet's tools write them.
 */
export function ecgWfdb(name: string, seconds: number): { header: Buffer; signal: Buffer } {
  const samples = ecgSamples(seconds);
  const signal = Buffer.alloc(samples.length * 2);
  samples.forEach((v, i) => signal.writeInt16LE(Math.round(v * 200), i * 2));
  const header = `${name} 1 250 ${samples.length}\n${name}.dat 16 200 16 0 0 0 0 II\n# synthetic lead II\n`;
  return { header: Buffer.from(header), signal };
}

/**
 * A chroma plane whose mean is `level`: whole levels, with the share of samples one level up that
 * carries the fraction (a camera's average over many pixels is continuous; whole levels alone make
 * the red level jump in steps).
 */
function continuousPlane(level: number, size: number): Buffer {
  const whole = Math.floor(level);
  const plane = Buffer.alloc(size, whole);
  plane.fill(whole + 1, 0, Math.round((level - whole) * size));
  return plane;
}

/**
 * A Y4M video (4:2:0, 30 frames/s) of a red fingertip whose brightness pulses at about `bpm`: darker
 * at each systole, as light through a fingertip is, the beat length varying by ±4 % with breathing
 * and every frame carrying a little sensor noise (a real pulse, not a pure tone). Chromium's fake
 * camera plays it in a loop, so the length is a whole number of beats.
 */
export function pulsingFingertipY4m(bpm: number, beats: number): Buffer {
  const width = 160;
  const height = 120;
  const fps = 30;
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  const parts: Buffer[] = [header];
  const noise = seededNoise(4);
  for (let beat = 0; beat < beats; beat += 1) {
    const framesPerBeat = Math.round(((fps * 60) / bpm) * (1 + 0.04 * Math.sin((2 * Math.PI * beat) / 4)));
    for (let f = 0; f < framesPerBeat; f += 1) {
      const phase = f / framesPerBeat;
      const pulse = Math.exp(-((phase - 0.2) ** 2) / 0.005) + 0.3 * Math.exp(-((phase - 0.55) ** 2) / 0.004);
      const r = 190 - 25 * pulse + 2 * noise();
      const g = 20;
      const b = 20;
      const y = 0.299 * r + 0.587 * g + 0.114 * b;
      const u = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
      const v = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
      const luma = Buffer.alloc(width * height);
      for (let k = 0; k < luma.length; k += 1) luma[k] = Math.round(y + 2 * noise());
      parts.push(Buffer.from('FRAME\n'));
      parts.push(luma);
      parts.push(continuousPlane(u, (width / 2) * (height / 2)));
      parts.push(continuousPlane(v, (width / 2) * (height / 2)));
    }
  }
  return Buffer.concat(parts);
}

/** The twelve standard leads, with the share of lead II's QRS each shows (aVR inverted). */
const TWELVE_LEADS: [string, number][] = [
  ['I', 0.6],
  ['II', 1],
  ['III', 0.4],
  ['aVR', -0.8],
  ['aVL', 0.1],
  ['aVF', 0.7],
  ['V1', -0.5],
  ['V2', 0.3],
  ['V3', 0.8],
  ['V4', 1.3],
  ['V5', 1.1],
  ['V6', 0.8],
];

/** A 12-lead CSV (time column, 500 Hz, millivolts): P, QRS and T of every lead every 0.8 s. */
export function twelveLeadCsv(seconds: number): Buffer {
  const lines = [`time,${TWELVE_LEADS.map(([name]) => name).join(',')}`];
  for (let i = 0; i < seconds * 500; i += 1) {
    const t = i / 500;
    const d = (t % 0.8) - 0.3;
    const r = Math.abs(d) < 0.025 ? 1 - Math.abs(d) / 0.025 : 0;
    const q = -0.15 * Math.exp(-((d + 0.03) ** 2) / 0.00005);
    const s = -0.25 * Math.exp(-((d - 0.03) ** 2) / 0.00005);
    const tWave = 0.3 * Math.exp(-((d - 0.25) ** 2) / 0.002);
    const pWave = 0.12 * Math.exp(-((d + 0.15) ** 2) / 0.0008);
    const values = TWELVE_LEADS.map(([, gain]) => (gain * (q + r + s) + Math.sign(gain) * (tWave + pWave)).toFixed(4));
    lines.push(`${t.toFixed(3)},${values.join(',')}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}
