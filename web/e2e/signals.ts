/** Synthetic test signals written at run time (no dataset file is needed or committed). */

/** A 16-bit mono WAV: S1/S2-like bursts every 0.8 s (synthetic, written at run time). */
export function heartSoundWav(seconds: number, rate: number): Buffer {
  const n = Math.round(seconds * rate);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i += 1) {
    const t = i / rate;
    const phase = t % 0.8;
    let v = 0;
    for (const [start, freq] of [
      [0.05, 60],
      [0.35, 90],
    ] as const) {
      const d = phase - start;
      if (d >= 0 && d < 0.06) v += Math.sin(2 * Math.PI * freq * d) * Math.sin((Math.PI * d) / 0.06);
    }
    data.writeInt16LE(Math.round(v * 12000 + (Math.random() - 0.5) * 200), i * 2);
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

/** A CSV with a time column: a fingertip-like pulse at 75 bpm, 100 Hz. */
export function pulseCsv(seconds: number): Buffer {
  const lines = ['time,PPG'];
  for (let i = 0; i < seconds * 100; i += 1) {
    const t = i / 100;
    const p = (t % 0.8) / 0.8;
    const v = Math.exp(-((p - 0.2) ** 2) / 0.005) + 0.3 * Math.exp(-((p - 0.55) ** 2) / 0.004);
    lines.push(`${t.toFixed(2)},${v.toFixed(5)}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** A CSV ECG-like lead II trace: narrow R waves every 0.8 s at 250 Hz. */
export function ecgCsv(seconds: number): Buffer {
  const lines = ['time,II'];
  for (let i = 0; i < seconds * 250; i += 1) {
    const t = i / 250;
    const d = (t % 0.8) - 0.3;
    const r = Math.abs(d) < 0.02 ? 1.2 * (1 - Math.abs(d) / 0.02) : 0;
    const tWave = 0.25 * Math.exp(-((d - 0.25) ** 2) / 0.002);
    const pWave = 0.1 * Math.exp(-((d + 0.15) ** 2) / 0.0008);
    lines.push(`${t.toFixed(3)},${(r + tWave + pWave).toFixed(4)}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/**
 * A Y4M video (4:2:0, 30 frames/s) of a red fingertip whose brightness pulses at `bpm`: darker at
 * each systole, as light through a fingertip is. Chromium's fake camera plays it in a loop, so the
 * length is a whole number of beats.
 */
export function pulsingFingertipY4m(bpm: number, beats: number): Buffer {
  const width = 160;
  const height = 120;
  const fps = 30;
  const framesPerBeat = (fps * 60) / bpm;
  const frames = Math.round(framesPerBeat * beats);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  const parts: Buffer[] = [header];
  for (let f = 0; f < frames; f += 1) {
    const phase = (f % framesPerBeat) / framesPerBeat;
    const pulse = Math.exp(-((phase - 0.2) ** 2) / 0.005) + 0.3 * Math.exp(-((phase - 0.55) ** 2) / 0.004);
    const r = 190 - 25 * pulse;
    const g = 20;
    const b = 20;
    const y = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    const u = Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
    const v = Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    parts.push(Buffer.from('FRAME\n'));
    parts.push(Buffer.alloc(width * height, y));
    parts.push(Buffer.alloc((width / 2) * (height / 2), u));
    parts.push(Buffer.alloc((width / 2) * (height / 2), v));
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
