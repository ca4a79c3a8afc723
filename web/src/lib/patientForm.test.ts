import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import es from '../i18n/es.json';
import fr from '../i18n/fr.json';
import { emptyPatientValues, validatePatient, type PatientValues } from './patientForm';

function values(overrides: Partial<PatientValues>): PatientValues {
  return {
    ...emptyPatientValues(),
    firstName: 'Ana',
    lastName: 'Ruiz',
    dateOfBirth: '1980-04-02',
    gender: 'female',
    phone: '+34 600 000 000',
    ...overrides,
  };
}

function text(catalogue: object, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

describe('validatePatient: phone numbers', () => {
  it('says a phone is too short rather than describing its characters', () => {
    for (const phone of ['1', '12', '+1 2']) {
      expect(validatePatient(values({ phone }), '2026-11-26').phone).toBe('errors.server.phoneTooShort');
    }
    expect(validatePatient(values({ phone: '112' }), '2026-11-26').phone).toBeUndefined();
  });

  it('keeps the characters message for letters and says when there are too many digits', () => {
    expect(validatePatient(values({ phone: 'call me' }), '2026-11-26').phone).toBe('errors.server.phoneInvalid');
    expect(validatePatient(values({ phone: '1'.repeat(21) }), '2026-11-26').phone).toBe('errors.server.phoneTooLong');
    expect(validatePatient(values({ emergencyPhone: '12' }), '2026-11-26').emergencyPhone).toBe(
      'errors.server.emergencyPhoneTooShort',
    );
  });

  it('has every phone message in English, Spanish and French, the English one the server text', () => {
    expect(text(en, 'errors.server.phoneTooShort')).toBe('Phone is too short: a phone number has at least 3 digits.');
    for (const key of ['phoneTooShort', 'phoneTooLong', 'emergencyPhoneTooShort', 'emergencyPhoneTooLong']) {
      for (const catalogue of [en, es, fr]) {
        expect(typeof text(catalogue, `errors.server.${key}`), key).toBe('string');
      }
    }
  });
});
