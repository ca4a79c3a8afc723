import { describe, expect, it } from 'vitest';
import { estimateRateHz, LineParser, MAX_LINE_LENGTH } from './lineProtocol';

const values = (samples: { value: number }[]) => samples.map((s) => s.value);

describe('LineParser', () => {
  it('reads one value per line and timestamp,value pairs', () => {
    const parser = new LineParser();
    const out = parser.push('512\n1000,513\n1004;514\n1008\t-2.5e1\n');
    expect(out).toEqual([
      { value: 512, timestampMs: null },
      { value: 513, timestampMs: 1000 },
      { value: 514, timestampMs: 1004 },
      { value: -25, timestampMs: 1008 },
    ]);
    expect(parser.samples).toBe(4);
    expect(parser.malformed).toBe(0);
  });

  it('joins a line split across reads', () => {
    const parser = new LineParser();
    expect(parser.push('12')).toEqual([]);
    expect(values(parser.push('3\n45'))).toEqual([123]);
    expect(values(parser.push('6\n'))).toEqual([456]);
    expect(parser.malformed).toBe(0);
  });

  it('treats a CRLF split between two reads as one line break', () => {
    const parser = new LineParser();
    expect(values(parser.push('1\r'))).toEqual([1]);
    expect(values(parser.push('\n2\r\n3\r'))).toEqual([2, 3]);
    expect(values(parser.push('4\r\n'))).toEqual([4]);
    expect(parser.samples).toBe(4);
    expect(parser.malformed).toBe(0);
  });

  it('accepts bare CR line endings', () => {
    const parser = new LineParser();
    expect(values(parser.push('1\r2\r3\r'))).toEqual([1, 2, 3]);
  });

  it('counts malformed lines and goes on', () => {
    const parser = new LineParser();
    const out = parser.push('1\nhello\n2,3,4\n12abc\n,\n\n4\nNaN\n5\n');
    expect(values(out)).toEqual([1, 4, 5]);
    expect(parser.malformed).toBe(5);
    expect(parser.samples).toBe(3);
  });

  it('drops an over-long line once and resynchronises on the next break', () => {
    const parser = new LineParser();
    const junk = '9'.repeat(MAX_LINE_LENGTH + 10);
    expect(parser.push(junk.slice(0, 100))).toEqual([]);
    expect(parser.push(junk.slice(100))).toEqual([]);
    expect(values(parser.push('77\n8\n'))).toEqual([8]);
    expect(parser.malformed).toBe(1);
  });

  it('reads the rate and kind header and ignores comments', () => {
    const parser = new LineParser();
    const out = parser.push('# rate=250 kind=ecg\n# firmware 1.2\n10\n');
    expect(parser.rateHz).toBe(250);
    expect(parser.kind).toBe('ecg');
    expect(values(out)).toEqual([10]);
    expect(parser.malformed).toBe(0);
  });

  it('ignores a header with an impossible rate or an unknown kind', () => {
    const parser = new LineParser();
    parser.push('# rate=-5 kind=eeg\n');
    expect(parser.rateHz).toBeNull();
    expect(parser.kind).toBeNull();
  });

  it('parses the last line without a break on finish', () => {
    const parser = new LineParser();
    parser.push('1\n2');
    expect(values(parser.finish())).toEqual([2]);
  });

  it('keeps up with 100k lines in random chunks', () => {
    const lines: string[] = ['# rate=1000 kind=ecg'];
    for (let i = 0; i < 100_000; i++) lines.push(i % 1000 === 999 ? 'garbage' : `${i},${Math.sin(i / 10).toFixed(4)}`);
    const text = lines.join('\r\n') + '\r\n';
    const parser = new LineParser();
    let count = 0;
    let seed = 42;
    const started = performance.now();
    for (let at = 0; at < text.length;) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const size = 1 + (seed % 200);
      count += parser.push(text.slice(at, at + size)).length;
      at += size;
    }
    const elapsed = performance.now() - started;
    expect(count).toBe(99_900);
    expect(parser.malformed).toBe(100);
    expect(parser.rateHz).toBe(1000);
    // Well under a second even on a slow CI machine: 100k lines are 100 s of a 1 kHz stream.
    expect(elapsed).toBeLessThan(1500);
  });
});

describe('estimateRateHz', () => {
  it('prefers the header and otherwise uses the median timestamp step', () => {
    const samples = [0, 4, 8, 12, 17, 20].map((t) => ({ value: 0, timestampMs: t }));
    expect(estimateRateHz(samples, 500)).toBe(500);
    expect(estimateRateHz(samples, null)).toBe(250);
    expect(estimateRateHz([{ value: 1, timestampMs: null }], null)).toBeNull();
  });
});
