/** Encodes mono Float32 PCM (-1..1) as a 16-bit PCM WAV file (RIFF/WAVE, little endian). */
export function encodeWav(samples: Float32Array, sampleRate: number): Blob {
  const bytes = new ArrayBuffer(44 + samples.length * 2);
  const view = new DataView(bytes);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i += 1) view.setUint8(offset + i, value.charCodeAt(i));
  };
  const rate = Math.round(sampleRate);
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  samples.forEach((value, i) => {
    const clamped = Math.max(-1, Math.min(1, Number.isFinite(value) ? value : 0));
    view.setInt16(44 + i * 2, Math.round(clamped * 32767), true);
  });
  return new Blob([bytes], { type: 'audio/wav' });
}

/** The lowest sample rate browsers play reliably: Chromium refuses a 1-kHz or 2-kHz WAV (media error 4). */
export const MIN_PLAYBACK_RATE = 8000;

/** The first channel of a PCM WAV (8/16/24/32-bit integer or 32-bit float) as -1..1 samples and its rate; `null` for anything else. */
export function decodeWav(buffer: ArrayBuffer): { rate: number; samples: Float32Array } | null {
  const view = new DataView(buffer);
  const text = (offset: number) =>
    offset + 4 <= view.byteLength
      ? String.fromCharCode(
          view.getUint8(offset),
          view.getUint8(offset + 1),
          view.getUint8(offset + 2),
          view.getUint8(offset + 3),
        )
      : '';
  if (text(0) !== 'RIFF' || text(8) !== 'WAVE') return null;
  let format: { code: number; channels: number; rate: number; bits: number } | null = null;
  let offset = 12;
  while (offset + 8 <= view.byteLength) {
    const id = text(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ' && size >= 16 && body + 16 <= view.byteLength) {
      format = {
        code: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        rate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data' && format) {
      const { code, channels, rate, bits } = format;
      const bytes = bits / 8;
      const integer = (code === 1 || code === 0xfffe) && [8, 16, 24, 32].includes(bits);
      const float = code === 3 && bits === 32;
      if (!(integer || float) || channels < 1 || rate <= 0) return null;
      const frame = bytes * channels;
      const end = Math.min(body + size, view.byteLength);
      const count = Math.max(0, Math.floor((end - body) / frame));
      const samples = new Float32Array(count);
      for (let i = 0; i < count; i += 1) {
        const at = body + i * frame;
        if (float) samples[i] = view.getFloat32(at, true);
        else if (bits === 8) samples[i] = (view.getUint8(at) - 128) / 128;
        else if (bits === 16) samples[i] = view.getInt16(at, true) / 32768;
        else if (bits === 24) samples[i] = ((view.getInt8(at + 2) << 16) | view.getUint16(at, true)) / 8388608;
        else samples[i] = view.getInt32(at, true) / 2147483648;
      }
      return { rate, samples };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/** `samples` at `rate` upsampled by the whole `factor`, linearly between neighbours (enough to listen to). */
export function upsampleLinear(samples: Float32Array, factor: number): Float32Array {
  if (factor <= 1 || samples.length === 0) return samples;
  const out = new Float32Array(samples.length * factor);
  for (let i = 0; i < samples.length; i += 1) {
    const a = samples[i] ?? 0;
    const b = samples[Math.min(i + 1, samples.length - 1)] ?? a;
    for (let k = 0; k < factor; k += 1) out[i * factor + k] = a + ((b - a) * k) / factor;
  }
  return out;
}

/**
 * A file the browser can play: a WAV below {@link MIN_PLAYBACK_RATE} is upsampled by a whole factor
 * to at least that rate and re-encoded (a heart-sound recorder's 1-4 kHz file plays as it sounds);
 * anything else is returned as it is.
 */
export async function playableAudio(file: Blob): Promise<Blob> {
  const decoded = decodeWav(await file.arrayBuffer());
  if (!decoded || decoded.rate >= MIN_PLAYBACK_RATE) return file;
  const factor = Math.ceil(MIN_PLAYBACK_RATE / decoded.rate);
  return encodeWav(upsampleLinear(decoded.samples, factor), decoded.rate * factor);
}
