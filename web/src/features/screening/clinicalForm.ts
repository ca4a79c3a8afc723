/** The workflow's clinical form (spec §3, §5): seven values kept as strings while typed. */
import type { ClinicalForm, ClinicalParameters } from '../../api/client';
import type { ServerTextKey } from '../../lib/apiErrors';

export const CLINICAL_FIELDS = [
  'age',
  'chestPainType',
  'cholesterol',
  'fastingBloodSugar',
  'exerciseInducedAngina',
  'vesselsColoredByFlourosopy',
  'thalassemia',
] as const;

export type ClinicalField = (typeof CLINICAL_FIELDS)[number];
export type ClinicalValues = Record<ClinicalField, string>;
export type ClinicalErrors = Partial<Record<ClinicalField, ServerTextKey>>;

/** Spec §9: age range. */
export const AGE_MIN = 0;
export const AGE_MAX = 120;

export function emptyClinicalValues(): ClinicalValues {
  return Object.fromEntries(CLINICAL_FIELDS.map((field) => [field, ''])) as ClinicalValues;
}

export function clinicalValuesOf(parameters: ClinicalParameters): ClinicalValues {
  return {
    age: String(parameters.age),
    chestPainType: String(parameters.chest_pain_type),
    cholesterol: String(parameters.cholesterol),
    fastingBloodSugar: String(parameters.fasting_blood_sugar),
    exerciseInducedAngina: String(parameters.exercise_induced_angina),
    vesselsColoredByFlourosopy: String(parameters.vessels_colored_by_flourosopy),
    thalassemia: String(parameters.thalassemia),
  };
}

function parse(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : Number.NaN;
}

function whole(value: string, min: number, max: number, required: ServerTextKey, range: ServerTextKey) {
  const number = parse(value);
  if (number === null) return required;
  if (!Number.isInteger(number) || number < min || number > max) return range;
  return undefined;
}

function nonNegative(value: string, required: ServerTextKey, range: ServerTextKey) {
  const number = parse(value);
  if (number === null) return required;
  if (Number.isNaN(number) || number < 0) return range;
  return undefined;
}

/** Every problem, one per field, in the server's words (all seven fields are required). */
export function validateClinical(values: ClinicalValues): ClinicalErrors {
  const errors: ClinicalErrors = {
    age: whole(values.age, AGE_MIN, AGE_MAX, 'errors.server.ageRequired', 'errors.server.ageRange'),
    chestPainType: whole(values.chestPainType, 0, 3, 'errors.server.chestPainRequired', 'errors.server.chestPainRange'),
    cholesterol: nonNegative(values.cholesterol, 'errors.server.cholesterolRequired', 'errors.server.cholesterolRange'),
    fastingBloodSugar: nonNegative(
      values.fastingBloodSugar,
      'errors.server.fastingBloodSugarRequired',
      'errors.server.fastingBloodSugarRange',
    ),
    exerciseInducedAngina: whole(
      values.exerciseInducedAngina,
      0,
      1,
      'errors.server.anginaRequired',
      'errors.server.anginaRange',
    ),
    vesselsColoredByFlourosopy: whole(
      values.vesselsColoredByFlourosopy,
      0,
      3,
      'errors.server.vesselsRequired',
      'errors.server.vesselsRange',
    ),
    thalassemia: whole(values.thalassemia, 0, 2, 'errors.server.thalassemiaRequired', 'errors.server.thalassemiaRange'),
  };
  for (const field of CLINICAL_FIELDS) if (!errors[field]) delete errors[field];
  return errors;
}

/** The snake_case payload (spec §3) for a validated form. */
export function clinicalBody(values: ClinicalValues, screeningId: string): ClinicalForm {
  return {
    age: Number(values.age),
    chest_pain_type: Number(values.chestPainType),
    cholesterol: Number(values.cholesterol),
    fasting_blood_sugar: Number(values.fastingBloodSugar),
    exercise_induced_angina: Number(values.exerciseInducedAngina),
    vessels_colored_by_flourosopy: Number(values.vesselsColoredByFlourosopy),
    thalassemia: Number(values.thalassemia),
    screening_id: screeningId,
  };
}
