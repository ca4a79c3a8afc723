import { describe, expect, it } from 'vitest';
import { hasTitle } from './doctorName';

describe('hasTitle', () => {
  it('finds the titles a doctor writes before their name', () => {
    for (const name of [
      'Dr. Ana M. Reyes',
      'dr Ana',
      'Dra. Ruiz',
      'Doctora López',
      'Docteur Martin',
      'Prof. Dr. Weber',
    ]) {
      expect(hasTitle(name), name).toBe(true);
    }
  });

  it('does not take a name that starts like a title for one', () => {
    for (const name of ['Ana Ruiz', 'Drew Barry', 'Draco Moreno', 'Priya Patel', 'Doctorow Cory']) {
      expect(hasTitle(name), name).toBe(false);
    }
  });
});
