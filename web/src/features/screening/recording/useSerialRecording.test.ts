import { describe, expect, it } from 'vitest';
import { serialRecordingFile } from './useSerialRecording';

describe('serialRecordingFile', () => {
  it('writes ECG and PPG as CSV with a time column at the device rate', async () => {
    const file = serialRecordingFile('ecg', [1, 2, 3, 4], 250);
    expect(file.name).toBe('ecg-serial.csv');
    expect(file.type).toBe('text/csv');
    const lines = (await file.text()).trim().split('\n');
    expect(lines[0]).toBe('time,ECG');
    expect(lines[1]).toBe('0.0000,1.000000');
    expect(lines[4]).toBe('0.0120,4.000000');
    expect(serialRecordingFile('ppg', [1], 100).name).toBe('ppg-serial.csv');
  });

  it('writes PCG as a 16-bit WAV centred and scaled to full range', async () => {
    const file = serialRecordingFile('pcg', [512, 1023, 512, 1], 4000);
    expect(file.name).toBe('pcg-serial.wav');
    const bytes = new DataView(await file.arrayBuffer());
    expect(bytes.getUint32(24, true)).toBe(4000);
    const samples = [0, 1, 2, 3].map((i) => bytes.getInt16(44 + 2 * i, true));
    expect(Math.abs(samples[0]!)).toBeLessThan(100);
    expect(samples[1]).toBeGreaterThan(30000);
    expect(samples[3]).toBeLessThan(-30000);
  });
});
