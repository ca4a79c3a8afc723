import { describe, expect, it } from 'vitest';
import { decodeWav, encodeWav, playableAudio } from './wav';

describe('encodeWav', () => {
  it('writes a 16-bit mono RIFF/WAVE header and clamped samples', async () => {
    const blob = encodeWav(new Float32Array([0, 1, -1, 2, Number.NaN, 0.5]), 44100);
    const view = new DataView(await blob.arrayBuffer());
    const text = (offset: number, length: number) =>
      String.fromCharCode(...Array.from({ length }, (_, i) => view.getUint8(offset + i)));
    expect(blob.type).toBe('audio/wav');
    expect(text(0, 4)).toBe('RIFF');
    expect(text(8, 4)).toBe('WAVE');
    expect(view.getUint32(4, true)).toBe(36 + 12);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(44100);
    expect(view.getUint32(28, true)).toBe(88200);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(12);
    const samples = Array.from({ length: 6 }, (_, i) => view.getInt16(44 + i * 2, true));
    expect(samples).toEqual([0, 32767, -32767, 32767, 0, 16384]);
  });
});

describe('playableAudio', () => {
  async function header(blob: Blob) {
    const view = new DataView(await blob.arrayBuffer());
    return { rate: view.getUint32(24, true), dataBytes: view.getUint32(40, true) };
  }

  it('upsamples a 1-kHz heart-sound WAV to 8 kHz, keeping its duration and its values', async () => {
    const second = new Float32Array(1000).map((_, i) => Math.sin((2 * Math.PI * 40 * i) / 1000) * 0.5);
    const out = await playableAudio(encodeWav(second, 1000));
    expect(await header(out)).toEqual({ rate: 8000, dataBytes: 8000 * 2 });
    const decoded = decodeWav(await out.arrayBuffer());
    expect(decoded?.samples[8 * 10]).toBeCloseTo(second[10] ?? 0, 3);
  });

  it('upsamples 3 kHz by a whole factor to 9 kHz and leaves 8 kHz and non-WAV files alone', async () => {
    expect((await header(await playableAudio(encodeWav(new Float32Array(30), 3000)))).rate).toBe(9000);
    const fine = encodeWav(new Float32Array(80), 8000);
    expect(await playableAudio(fine)).toBe(fine);
    const mp3 = new Blob([new Uint8Array([0x49, 0x44, 0x33, 4, 0])], { type: 'audio/mpeg' });
    expect(await playableAudio(mp3)).toBe(mp3);
  });

  it('reads 8-bit and float WAVs and refuses a truncated header', () => {
    const wav = (code: number, bits: number, data: number[]) => {
      const body = new Uint8Array(data);
      const buffer = new ArrayBuffer(44 + body.length);
      const view = new DataView(buffer);
      [...'RIFF'].forEach((c, i) => view.setUint8(i, c.charCodeAt(0)));
      view.setUint32(4, 36 + body.length, true);
      [...'WAVEfmt '].forEach((c, i) => view.setUint8(8 + i, c.charCodeAt(0)));
      view.setUint32(16, 16, true);
      view.setUint16(20, code, true);
      view.setUint16(22, 1, true);
      view.setUint32(24, 2000, true);
      view.setUint16(34, bits, true);
      [...'data'].forEach((c, i) => view.setUint8(36 + i, c.charCodeAt(0)));
      view.setUint32(40, body.length, true);
      new Uint8Array(buffer, 44).set(body);
      return buffer;
    };
    expect(Array.from(decodeWav(wav(1, 8, [128, 255, 0]))?.samples ?? [])).toEqual([0, 127 / 128, -1]);
    const float = new Uint8Array(new Float32Array([0.25]).buffer);
    expect(Array.from(decodeWav(wav(3, 32, Array.from(float)))?.samples ?? [])).toEqual([0.25]);
    expect(decodeWav(new ArrayBuffer(10))).toBeNull();
  });
});
