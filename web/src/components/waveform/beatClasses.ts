/**
 * The class of each beat of a long ECG as the server sends it (`beat_classes`: one character per
 * beat of `beats_s`, `n` normal, `s` supraventricular ectopic, `v` ventricular ectopic), and which
 * of them fall in a stretch of the paper. Kept apart from the canvas so it can be tested exactly.
 */

export type BeatClass = 'n' | 's' | 'v';

/** A beat in view with its class (`null` where the server sent no classes). */
export interface ClassedMark {
  t: number;
  beatClass: BeatClass | null;
}

/**
 * The beats of `beats` in `[from, to)` with their classes from `classes`; a class string that does
 * not match the beats (another length) or an unknown character gives `null`, drawn as before.
 */
export function classedMarks(
  beats: readonly number[],
  classes: string | null | undefined,
  from: number,
  to: number,
): ClassedMark[] {
  const usable = typeof classes === 'string' && classes.length === beats.length ? classes : null;
  const marks: ClassedMark[] = [];
  beats.forEach((t, i) => {
    if (t < from || t >= to) return;
    const code = usable?.[i];
    marks.push({ t, beatClass: code === 'n' || code === 's' || code === 'v' ? code : null });
  });
  return marks;
}

/** The letter written above an ectopic beat (not colour alone); none for a normal or unclassed one. */
export function classLetter(beatClass: BeatClass | null): string | null {
  if (beatClass === 's') return 'S';
  if (beatClass === 'v') return 'V';
  return null;
}
