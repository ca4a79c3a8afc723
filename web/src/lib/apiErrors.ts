/**
 * Turns a failed patient / screening call into a readable text (spec §8).
 *
 * A 4xx answer shows the server's `detail` (known server texts in the user's language); no response at
 * all shows the network message; anything else the caller's fallback.
 */
import type { TFunction } from 'i18next';
import { ApiError, NetworkError } from '../api/client';

const KNOWN_SERVER_TEXTS = {
  'First name is required.': 'errors.server.firstNameRequired',
  'Last name is required.': 'errors.server.lastNameRequired',
  'Date of birth is required.': 'errors.server.dobRequired',
  'Date of birth must be a real date (YYYY-MM-DD).': 'errors.server.dobInvalid',
  'Date of birth cannot be in the future.': 'errors.server.dobFuture',
  'Date of birth must be in 1900 or later.': 'errors.server.dobTooOld',
  'Gender is required.': 'errors.server.genderRequired',
  'Gender must be male, female or other.': 'errors.server.genderInvalid',
  'Phone is required.': 'errors.server.phoneRequired',
  'Phone must be a phone number (digits, spaces, + - . ( )).': 'errors.server.phoneInvalid',
  'Emergency phone must be a phone number (digits, spaces, + - . ( )).': 'errors.server.emergencyPhoneInvalid',
  'Phone is too short: a phone number has at least 3 digits.': 'errors.server.phoneTooShort',
  'Phone is too long: a phone number has at most 20 digits.': 'errors.server.phoneTooLong',
  'Emergency phone is too short: a phone number has at least 3 digits.': 'errors.server.emergencyPhoneTooShort',
  'Emergency phone is too long: a phone number has at most 20 digits.': 'errors.server.emergencyPhoneTooLong',
  'Invalid email address.': 'errors.server.invalidEmail',
  'Status must be active or inactive.': 'errors.server.statusInvalid',
  'Patient not found.': 'errors.server.patientNotFound',
  'Screening not found.': 'errors.server.screeningNotFound',
  'Only healthcare professionals can access patient records.': 'errors.server.doctorsOnly',
  'Age is required.': 'errors.server.ageRequired',
  'Age must be a whole number from 0 to 120.': 'errors.server.ageRange',
  'Chest pain type is required.': 'errors.server.chestPainRequired',
  'Chest pain type must be 0, 1, 2 or 3.': 'errors.server.chestPainRange',
  'Cholesterol is required.': 'errors.server.cholesterolRequired',
  'Cholesterol must be 0 mg/dl or more.': 'errors.server.cholesterolRange',
  'Fasting blood sugar is required.': 'errors.server.fastingBloodSugarRequired',
  'Fasting blood sugar must be 0 mg/dl or more.': 'errors.server.fastingBloodSugarRange',
  'Exercise-induced angina is required.': 'errors.server.anginaRequired',
  'Exercise-induced angina must be 0 (no) or 1 (yes).': 'errors.server.anginaRange',
  'Vessels colored by fluoroscopy is required.': 'errors.server.vesselsRequired',
  'Vessels colored by fluoroscopy must be 0, 1, 2 or 3.': 'errors.server.vesselsRange',
  'Thalassemia is required.': 'errors.server.thalassemiaRequired',
  'Thalassemia must be 0, 1 or 2.': 'errors.server.thalassemiaRange',
  'Resting blood pressure must be from 60 to 260 mm Hg.': 'errors.server.restingBloodPressureRange',
  'Resting ECG must be 0 (normal), 1 (ST-T wave abnormality) or 2 (left ventricular hypertrophy).':
    'errors.server.restingEcgRange',
  'Maximum heart rate must be from 50 to 250 bpm.': 'errors.server.maxHeartRateRange',
  'ST depression must be from -5 to 10 mm.': 'errors.server.stDepressionRange',
  'ST slope must be 0 (upsloping), 1 (flat) or 2 (downsloping).': 'errors.server.stSlopeRange',
  'Current password is incorrect.': 'errors.server.currentPasswordWrong',
  'Display name is required.': 'errors.server.displayNameRequired',
  'Display name must be at most 100 characters.': 'errors.server.displayNameTooLong',
  'Password must be at least 6 characters': 'errors.server.passwordTooShort',
  'This password is one of the most commonly used and easily guessed. Please choose another.':
    'errors.server.commonPassword',
  'Too many failed attempts. Please try again later.': 'errors.server.tooManyAttempts',
  'Invalid authentication code.': 'twoFactor.invalidCode',
  'Your sign-in has expired. Please sign in again.': 'twoFactor.challengeExpired',
  'Two-factor sign-in is already on.': 'twoFactor.alreadyOn',
  'Start two-factor setup first.': 'twoFactor.notSetUp',
  'Two-factor sign-in is not on.': 'twoFactor.notOn',
  'This link is invalid or has expired.': 'account.invalidToken',
} as const;

export type ServerTextKey = (typeof KNOWN_SERVER_TEXTS)[keyof typeof KNOWN_SERVER_TEXTS];

function isKnown(text: string): text is keyof typeof KNOWN_SERVER_TEXTS {
  return Object.hasOwn(KNOWN_SERVER_TEXTS, text);
}

/** The server's text in the user's language (unknown texts are shown as sent). */
export function translateServerText(text: string, t: TFunction): string {
  return isKnown(text) ? t(KNOWN_SERVER_TEXTS[text]) : text;
}

/** The text for a failed call; `fallback` is already translated. */
export function apiErrorMessage(error: unknown, fallback: string, t: TFunction): string {
  if (error instanceof NetworkError) return t('errors.network');
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.detail) {
    return translateServerText(error.detail, t);
  }
  return fallback;
}

/** Whether the server answered 404 (not found, or another doctor's record). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
