/**
 * The patient form's values and its client-side checks (spec §5), shared by intake and the patient's
 * edit form. Messages are the server's, as i18n keys, so both sides read the same.
 */
import type { Patient, PatientForm, PatientPatch } from '../api/client';
import type { ServerTextKey } from './apiErrors';
import { localToday } from './format';

export const PATIENT_FIELDS = [
  'firstName',
  'lastName',
  'dateOfBirth',
  'gender',
  'phone',
  'email',
  'address',
  'city',
  'state',
  'zipCode',
  'medicalHistory',
  'currentMedications',
  'allergies',
  'emergencyContact',
  'emergencyPhone',
] as const;

export type PatientField = (typeof PATIENT_FIELDS)[number];
export type PatientValues = Record<PatientField, string>;
export type PatientErrors = Partial<Record<PatientField, ServerTextKey>>;

export const OPTIONAL_FIELDS = [
  'email',
  'address',
  'city',
  'state',
  'zipCode',
  'medicalHistory',
  'currentMedications',
  'allergies',
  'emergencyContact',
  'emergencyPhone',
] as const satisfies readonly PatientField[];

export function emptyPatientValues(): PatientValues {
  return Object.fromEntries(PATIENT_FIELDS.map((field) => [field, ''])) as PatientValues;
}

export function patientValuesOf(patient: Patient): PatientValues {
  const values = emptyPatientValues();
  for (const field of PATIENT_FIELDS) values[field] = patient[field] ?? '';
  return values;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const PHONE_KEYS = {
  Invalid: 'errors.server.phoneInvalid',
  TooShort: 'errors.server.phoneTooShort',
  TooLong: 'errors.server.phoneTooLong',
} as const;
const EMERGENCY_PHONE_KEYS = {
  Invalid: 'errors.server.emergencyPhoneInvalid',
  TooShort: 'errors.server.emergencyPhoneTooShort',
  TooLong: 'errors.server.emergencyPhoneTooLong',
} as const;

/** What is wrong with a phone number, as the server says it: a character, or too few or too many digits. */
function phoneProblem(value: string): 'Invalid' | 'TooShort' | 'TooLong' | null {
  if (!/^[\d\s+\-.()/]+$/.test(value)) return 'Invalid';
  const digits = value.replace(/\D/g, '').length;
  if (digits < 3) return 'TooShort';
  if (digits > 20) return 'TooLong';
  return null;
}

function isRealDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Every problem of the form, one per field, in the server's words. */
export function validatePatient(values: PatientValues, today: string = localToday()): PatientErrors {
  const errors: PatientErrors = {};
  const v = (field: PatientField) => values[field].trim();
  if (!v('firstName')) errors.firstName = 'errors.server.firstNameRequired';
  if (!v('lastName')) errors.lastName = 'errors.server.lastNameRequired';
  const dob = v('dateOfBirth');
  if (!dob) errors.dateOfBirth = 'errors.server.dobRequired';
  else if (!isRealDate(dob)) errors.dateOfBirth = 'errors.server.dobInvalid';
  else if (dob > today) errors.dateOfBirth = 'errors.server.dobFuture';
  else if (dob < '1900-01-01') errors.dateOfBirth = 'errors.server.dobTooOld';
  const gender = v('gender');
  if (!gender) errors.gender = 'errors.server.genderRequired';
  else if (!['male', 'female', 'other'].includes(gender)) errors.gender = 'errors.server.genderInvalid';
  const phone = v('phone');
  if (!phone) errors.phone = 'errors.server.phoneRequired';
  else {
    const problem = phoneProblem(phone);
    if (problem) errors.phone = PHONE_KEYS[problem];
  }
  const email = v('email');
  if (email && !EMAIL.test(email)) errors.email = 'errors.server.invalidEmail';
  const emergencyPhone = v('emergencyPhone');
  const emergencyProblem = emergencyPhone ? phoneProblem(emergencyPhone) : null;
  if (emergencyProblem) errors.emergencyPhone = EMERGENCY_PHONE_KEYS[emergencyProblem];
  return errors;
}

export function firstInvalidField(errors: PatientErrors): PatientField | undefined {
  return PATIENT_FIELDS.find((field) => errors[field]);
}

/** The create body: required fields trimmed, optional ones `null` (not stored) when blank. */
export function patientFormBody(values: PatientValues): PatientForm {
  const optional = (field: (typeof OPTIONAL_FIELDS)[number]) => values[field].trim() || null;
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    dateOfBirth: values.dateOfBirth.trim(),
    gender: values.gender,
    phone: values.phone.trim(),
    email: optional('email'),
    address: optional('address'),
    city: optional('city'),
    state: optional('state'),
    zipCode: optional('zipCode'),
    medicalHistory: optional('medicalHistory'),
    currentMedications: optional('currentMedications'),
    allergies: optional('allergies'),
    emergencyContact: optional('emergencyContact'),
    emergencyPhone: optional('emergencyPhone'),
  };
}

/** The update body: every field (`""` clears an optional one); the status is left as it is. */
export function patientPatchBody(values: PatientValues): PatientPatch {
  const body = Object.fromEntries(PATIENT_FIELDS.map((field) => [field, values[field].trim()]));
  return { ...(body as Record<PatientField, string>), status: null };
}

/** A patch that changes only the status. */
export function statusPatchBody(status: PatientPatch['status']): PatientPatch {
  const body = Object.fromEntries(PATIENT_FIELDS.map((field) => [field, null]));
  return { ...(body as Record<PatientField, null>), status };
}
