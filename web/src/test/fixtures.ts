/** Sample server answers for the patient and screening pages' tests. */
import type { ClinicalRecord, Patient, Screening } from '../api/client';

export function makePatient(overrides: Partial<Patient> = {}): Patient {
  return {
    id: 'p-1',
    firstName: 'María',
    lastName: 'López',
    dateOfBirth: '1980-04-02',
    gender: 'female',
    phone: '+34 600 000 000',
    doctorId: 'u-1',
    status: 'active',
    createdAt: '2026-11-20T10:00:00Z',
    updatedAt: '2026-11-20T10:00:00Z',
    lastVisit: '2026-11-21T10:00:00Z',
    ...overrides,
  };
}

export function makeClinicalRecord(overrides: Partial<ClinicalRecord> = {}): ClinicalRecord {
  return {
    id: 'c-1',
    patientId: 'p-1',
    screeningId: 's-1',
    parameters: {
      age: 46,
      chest_pain_type: 1,
      cholesterol: 210,
      fasting_blood_sugar: 95,
      exercise_induced_angina: 0,
      vessels_colored_by_flourosopy: 2,
      thalassemia: 2,
    },
    createdAt: '2026-11-21T10:05:00Z',
    ...overrides,
  };
}

export function makeScreening(overrides: Partial<Screening> = {}): Screening {
  return {
    id: 's-1',
    patient: { id: 'p-1', firstName: 'María', lastName: 'López', dateOfBirth: '1980-04-02', gender: 'female' },
    status: 'draft',
    clinical: null,
    createdAt: '2026-11-21T10:00:00Z',
    updatedAt: '2026-11-21T10:00:00Z',
    ...overrides,
  };
}
