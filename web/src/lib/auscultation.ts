/**
 * The auscultation sites of the heart-sound protocol (the server's table: AV, PV, TV, MV), where each
 * sits on the chest diagram, and the murmur words shared by the step and the results.
 */

/** The four valve areas, in the order they are listened to. */
export const SITES = ['AV', 'PV', 'TV', 'MV'] as const;

export type Site = (typeof SITES)[number];

export function isSite(value: unknown): value is Site {
  return typeof value === 'string' && (SITES as readonly string[]).includes(value);
}

/**
 * Where each area is on the diagram (a 200 × 220 chest seen from the front, the patient's right on
 * the left): the second right and left intercostal spaces beside the sternum, the fourth left at the
 * lower sternal border, and the fifth at the mid-clavicular line (the apex).
 */
export const SITE_POSITIONS: Record<Site, { x: number; y: number }> = {
  AV: { x: 84, y: 70 },
  PV: { x: 116, y: 70 },
  TV: { x: 110, y: 128 },
  MV: { x: 142, y: 146 },
};

/** The murmur verdicts the model gives. */
export const MURMUR_VERDICTS = ['present', 'absent', 'unknown'] as const;
export type MurmurVerdict = (typeof MURMUR_VERDICTS)[number];

export function murmurVerdict(value: unknown): MurmurVerdict {
  return (MURMUR_VERDICTS as readonly unknown[]).includes(value) ? (value as MurmurVerdict) : 'unknown';
}

/** The timings the model gives, as i18n keys. */
export const MURMUR_TIMINGS = ['early-systolic', 'mid-systolic', 'holosystolic'] as const;
export type MurmurTiming = (typeof MURMUR_TIMINGS)[number];

export function isMurmurTiming(value: unknown): value is MurmurTiming {
  return (MURMUR_TIMINGS as readonly unknown[]).includes(value);
}

/** A heart-sound result's own murmur reading (`details.murmur`), or `null` when it has none. */
export function recordingMurmur(
  details: unknown,
): { verdict: MurmurVerdict; probability: number | null; timing: string | null; grade: string | null } | null {
  if (typeof details !== 'object' || details === null) return null;
  const m = (details as Record<string, unknown>).murmur;
  if (typeof m !== 'object' || m === null) return null;
  const r = m as Record<string, unknown>;
  return {
    verdict: murmurVerdict(r.verdict),
    probability: typeof r.probability === 'number' ? r.probability : null,
    timing: typeof r.timing === 'string' ? r.timing : null,
    grade: typeof r.grade === 'string' ? r.grade : null,
  };
}

/** The part of systole (from S1 to S2, as a fraction) each timing names. */
const TIMING_PARTS: Record<MurmurTiming, [number, number]> = {
  'early-systolic': [0, 0.5],
  'mid-systolic': [0.25, 0.75],
  holosystolic: [0, 1],
};

/**
 * Where a systolic murmur of `timing` lies in the recording, seconds: in each systole (an S1 and the
 * first S2 after it, before the next S1), the part the timing names. Empty without a timing.
 */
export function murmurSpans(
  s1: readonly number[],
  s2: readonly number[],
  timing: string | null | undefined,
): [number, number][] {
  if (!isMurmurTiming(timing)) return [];
  const [from, to] = TIMING_PARTS[timing];
  const spans: [number, number][] = [];
  let j = 0;
  for (let i = 0; i < s1.length; i += 1) {
    const start = s1[i] as number;
    const next = s1[i + 1] ?? Number.POSITIVE_INFINITY;
    while (j < s2.length && (s2[j] as number) <= start) j += 1;
    const end = s2[j];
    if (end === undefined || end >= next) continue;
    const length = end - start;
    spans.push([start + from * length, start + to * length]);
  }
  return spans;
}
