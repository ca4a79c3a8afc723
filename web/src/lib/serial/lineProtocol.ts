/**
 * The line protocol a serial sensor speaks (an AD8232 or MAX30102 behind a microcontroller):
 *
 * ```text
 * # rate=250 kind=ecg          optional header: samples per second and what is measured
 * 512                          one value per line, or
 * 1234,512                     `timestamp_ms,value` (comma, semicolon, tab or spaces between)
 * ```
 *
 * Lines end with LF, CRLF or CR. Other `#` lines are comments. A line that is not one of these
 * (text, three fields, a number that does not parse, an over-long line) is counted as malformed
 * and skipped: a noisy cable garbles a line now and then, and the stream goes on. The parser is
 * incremental: `push` takes the chunks as the port delivers them, whatever their boundaries, and
 * keeps the unfinished last line for the next chunk.
 */

/** The kinds of signal a header may declare. */
export type SignalKind = 'ecg' | 'ppg' | 'pcg';

/** One sample: its value and, when the device sent one, its timestamp in milliseconds. */
export interface Sample {
  value: number;
  timestampMs: number | null;
}

/** A line longer than this is noise (a lost line break), not a sample. */
export const MAX_LINE_LENGTH = 128;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SEPARATOR = /\s*[,;\t ]\s*/;

function parseNumber(text: string): number | null {
  if (!NUMBER.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** What a `# key=value ...` header line says; unknown keys are ignored. */
function parseHeader(text: string): { rateHz?: number; kind?: SignalKind } {
  const header: { rateHz?: number; kind?: SignalKind } = {};
  for (const pair of text.split(/\s+/)) {
    const [key = '', raw] = pair.split('=', 2);
    if (raw === undefined) continue;
    const name = key.toLowerCase();
    if (name === 'rate' || name === 'fs' || name === 'hz') {
      const rate = parseNumber(raw);
      if (rate !== null && rate > 0 && rate <= 100_000) header.rateHz = rate;
    } else if (name === 'kind' || name === 'type') {
      const kind = raw.toLowerCase();
      if (kind === 'ecg' || kind === 'ppg' || kind === 'pcg') header.kind = kind;
    }
  }
  return header;
}

/** An incremental parser of the line protocol; see the module documentation. */
export class LineParser {
  /** Samples per second from the header (null until a header gave one). */
  rateHz: number | null = null;
  /** The signal kind from the header. */
  kind: SignalKind | null = null;
  /** Lines read as samples. */
  samples = 0;
  /** Lines skipped as malformed. */
  malformed = 0;
  private partial = '';
  /** The last chunk ended with CR: a LF starting the next chunk belongs to it. */
  private pendingCr = false;
  /** True while the rest of an over-long line is being skipped. */
  private skipping = false;

  /**
   * Parses a chunk and returns the samples of the lines it completed, in order.
   */
  push(chunk: string): Sample[] {
    const out: Sample[] = [];
    let start = 0;
    let i = 0;
    if (this.pendingCr && chunk.charCodeAt(0) === 10) {
      start = 1;
      i = 1;
    }
    this.pendingCr = false;
    for (; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (code !== 10 && code !== 13) continue;
      const line = this.partial + chunk.slice(start, i);
      this.partial = '';
      this.line(line, out);
      if (code === 13) {
        if (i + 1 < chunk.length) {
          if (chunk.charCodeAt(i + 1) === 10) i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
    }
    if (start < chunk.length) {
      this.partial += chunk.slice(start);
      if (this.partial.length > MAX_LINE_LENGTH) {
        // A line break was lost: drop the run, count it once, and resynchronise on the next break.
        this.malformed++;
        this.partial = '';
        this.skipping = true;
      }
    }
    return out;
  }

  /** Parses what is left when the stream ends (a last line without a line break). */
  finish(): Sample[] {
    const out: Sample[] = [];
    if (this.partial !== '') this.line(this.partial, out);
    this.partial = '';
    this.pendingCr = false;
    return out;
  }

  private line(raw: string, out: Sample[]) {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const text = raw.trim();
    if (text === '') return;
    if (text.length > MAX_LINE_LENGTH) {
      this.malformed++;
      return;
    }
    if (text.startsWith('#')) {
      const header = parseHeader(text.slice(1).trim());
      if (header.rateHz !== undefined) this.rateHz = header.rateHz;
      if (header.kind !== undefined) this.kind = header.kind;
      return;
    }
    const fields = text.split(SEPARATOR);
    if (fields.length === 1) {
      const value = parseNumber(fields[0] ?? '');
      if (value === null) this.malformed++;
      else {
        this.samples++;
        out.push({ value, timestampMs: null });
      }
      return;
    }
    if (fields.length === 2) {
      const timestampMs = parseNumber(fields[0] ?? '');
      const value = parseNumber(fields[1] ?? '');
      if (timestampMs === null || value === null) this.malformed++;
      else {
        this.samples++;
        out.push({ value, timestampMs });
      }
      return;
    }
    this.malformed++;
  }
}

/**
 * The sampling rate of a run of samples: the header's, else the median step of the device's
 * timestamps, else null (the caller asks for one or uses its default).
 */
export function estimateRateHz(samples: readonly Sample[], headerRate: number | null): number | null {
  if (headerRate !== null) return headerRate;
  const steps: number[] = [];
  for (let i = 1; i < samples.length && steps.length < 2000; i++) {
    const a = samples[i - 1]?.timestampMs ?? null;
    const b = samples[i]?.timestampMs ?? null;
    if (a !== null && b !== null && b > a) steps.push(b - a);
  }
  if (steps.length < 2) return null;
  steps.sort((x, y) => x - y);
  const median = steps[Math.floor(steps.length / 2)] ?? 0;
  return median > 0 ? 1000 / median : null;
}
