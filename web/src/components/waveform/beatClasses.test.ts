import { describe, expect, it } from 'vitest';
import { classLetter, classedMarks } from './beatClasses';

describe('classedMarks', () => {
  it('gives the beats in view with their class, one character per beat', () => {
    const beats = [0.5, 1.3, 2.1, 2.9, 3.7];

    expect(classedMarks(beats, 'nsnvn', 1, 3)).toEqual([
      { t: 1.3, beatClass: 's' },
      { t: 2.1, beatClass: 'n' },
      { t: 2.9, beatClass: 'v' },
    ]);
    expect(classLetter('s')).toBe('S');
    expect(classLetter('v')).toBe('V');
    expect(classLetter('n')).toBeNull();
  });

  it('leaves the beats unclassed without classes or with classes that do not match them', () => {
    const beats = [0.5, 1.3];

    expect(classedMarks(beats, null, 0, 2)).toEqual([
      { t: 0.5, beatClass: null },
      { t: 1.3, beatClass: null },
    ]);
    expect(classedMarks(beats, 'n', 0, 2).every((m) => m.beatClass === null)).toBe(true);
    expect(classedMarks(beats, 'nx', 0, 2)[1]).toEqual({ t: 1.3, beatClass: null });
  });
});
