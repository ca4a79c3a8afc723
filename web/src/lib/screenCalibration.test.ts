import { describe, expect, it } from 'vitest';
import { parsePxPerMm, readPxPerMm, savePxPerMm, SCREEN_PX_PER_MM_KEY } from './screenCalibration';

describe('screen calibration', () => {
  it('reads a stored px per mm and ignores a missing or implausible one', () => {
    expect(parsePxPerMm('3.78')).toBe(3.78);
    expect(parsePxPerMm(null)).toBeNull();
    expect(parsePxPerMm('')).toBeNull();
    expect(parsePxPerMm('abc')).toBeNull();
    expect(parsePxPerMm('0.5')).toBeNull();
    expect(parsePxPerMm('40')).toBeNull();
  });

  it('keeps the value in localStorage under the screen key, to the thousandth', () => {
    savePxPerMm(3.779527);
    expect(window.localStorage.getItem(SCREEN_PX_PER_MM_KEY)).toBe('3.78');
    expect(readPxPerMm()).toBe(3.78);
    savePxPerMm(null);
    expect(readPxPerMm()).toBeNull();
  });
});
