/**
 * Linear interpolation of samples taken at irregular times (e.g. camera frames) onto a uniform grid
 * of `rateHz`, from the first to the last time. Times in seconds, increasing; repeated times are
 * skipped. Fewer than two samples give an empty series.
 */
export function resampleUniform(times: number[], values: number[], rateHz: number): number[] {
  const t: number[] = [];
  const v: number[] = [];
  times.forEach((time, i) => {
    const value = values[i];
    if (value === undefined || !Number.isFinite(time) || !Number.isFinite(value)) return;
    if (t.length > 0 && time <= (t[t.length - 1] ?? time)) return;
    t.push(time);
    v.push(value);
  });
  if (t.length < 2) return [];
  const start = t[0] ?? 0;
  const end = t[t.length - 1] ?? 0;
  const n = Math.floor((end - start) * rateHz) + 1;
  const out: number[] = [];
  let j = 0;
  for (let k = 0; k < n; k += 1) {
    const at = start + k / rateHz;
    while (j < t.length - 2 && (t[j + 1] ?? Infinity) < at) j += 1;
    const t0 = t[j] ?? at;
    const t1 = t[j + 1] ?? at;
    const v0 = v[j] ?? 0;
    const v1 = v[j + 1] ?? v0;
    const w = t1 > t0 ? (at - t0) / (t1 - t0) : 0;
    out.push(v0 + Math.min(1, Math.max(0, w)) * (v1 - v0));
  }
  return out;
}

/** A uniformly sampled signal as CSV with a time column (what the server's CSV reader expects). */
export function signalCsv(values: number[], rateHz: number, column: string): string {
  const lines = [`time,${column}`];
  values.forEach((value, i) => lines.push(`${(i / rateHz).toFixed(4)},${value.toFixed(6)}`));
  return `${lines.join('\n')}\n`;
}
