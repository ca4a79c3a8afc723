/** Spec §9: the pause after intake success and after clinical data is saved. */
export const REDIRECT_DELAY_MS = 1500;
