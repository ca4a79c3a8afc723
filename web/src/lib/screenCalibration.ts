/**
 * This screen's pixels per millimetre, measured once by the doctor in Settings (a drawn line
 * matched to a ruler or a card) so that ECG paper can be shown true size. It belongs to one screen
 * in one browser, not to the account, so it lives in localStorage.
 */
import { useSyncExternalStore } from 'react';
import { readStorage, writeStorage } from './storage';

export const SCREEN_PX_PER_MM_KEY = 'cardio.screen.pxPerMm';
/** The references offered: 100 mm on a ruler, and an ID-1 card's width (ISO/IEC 7810: 85.60 mm). */
export const CALIBRATION_REFERENCES = { ruler: 100, card: 85.6 } as const;
export type CalibrationReference = keyof typeof CALIBRATION_REFERENCES;
/** The CSS pixels per millimetre a browser assumes (96 per inch), the starting point of a calibration. */
export const NOMINAL_PX_PER_MM = 96 / 25.4;
/** The plausible range of a screen's CSS pixels per millimetre. */
export const MIN_PX_PER_MM = 1.5;
export const MAX_PX_PER_MM = 12;

/** The value a stored text holds, or null when it is missing or implausible. */
export function parsePxPerMm(text: string | null): number | null {
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= MIN_PX_PER_MM && value <= MAX_PX_PER_MM ? value : null;
}

/** Tells this tab's readers that the value changed (the storage event only reaches other tabs). */
const CHANGED = 'cardio-screen-calibration';

export function readPxPerMm(): number | null {
  return parsePxPerMm(readStorage(SCREEN_PX_PER_MM_KEY));
}

/** Stores a calibration (null forgets it). */
export function savePxPerMm(value: number | null): void {
  if (value === null) {
    try {
      window.localStorage.removeItem(SCREEN_PX_PER_MM_KEY);
    } catch {
      // Nothing stored to forget.
    }
  } else {
    writeStorage(SCREEN_PX_PER_MM_KEY, String(Math.round(value * 1000) / 1000));
  }
  window.dispatchEvent(new Event(CHANGED));
}

function subscribe(onChange: () => void) {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

/** This screen's calibration, following changes made in Settings or another tab. */
export function useScreenPxPerMm(): number | null {
  return useSyncExternalStore(subscribe, readPxPerMm, () => null);
}
