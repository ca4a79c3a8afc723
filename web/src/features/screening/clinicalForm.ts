/**
 * The workflow's clinical form (spec §3, §5): the seven required values and six optional ones, kept as
 * strings while typed ('' = not entered). Age and sex start from the patient record.
 */
import type { ClinicalForm, ClinicalParameters, PatientSummary } from '../../api/client';
import type { ServerTextKey } from '../../lib/apiErrors';

/** The spec's seven, all required. */
export const REQUIRED_CLINICAL_FIELDS = [
  'age',
  'chestPainType',
  'cholesterol',
  'fastingBloodSugar',
  'exerciseInducedAngina',
  'vesselsColoredByFlourosopy',
  'thalassemia',
] as const;

/** "More clinical values (optional)": the other UCI attributes the clinical model uses when given. */
export const OPTIONAL_CLINICAL_FIELDS = [
  'sex',
  'restingBloodPressure',
  'restingEcg',
  'maxHeartRate',
  'stDepression',
  'stSlope',
] as const;

export const CLINICAL_FIELDS = [...REQUIRED_CLINICAL_FIELDS, ...OPTIONAL_CLINICAL_FIELDS] as const;

export type ClinicalField = (typeof CLINICAL_FIELDS)[number];
export type ClinicalValues = Record<ClinicalField, string>;
export type ClinicalErrors = Partial<Record<ClinicalField, ServerTextKey>>;

/** Spec §9: age range. */
export const AGE_MIN = 0;
export const AGE_MAX = 120;

/** The server's ranges of the optional values (`RESTING_BLOOD_PRESSURE_RANGE` ... in the model). */
export const RESTING_BP_RANGE = [60, 260] as const;
export const MAX_HEART_RATE_RANGE = [50, 250] as const;
export const ST_DEPRESSION_RANGE = [-5, 10] as const;

/** Whole years between a `YYYY-MM-DD` date of birth and `today` (null for a date that does not parse). */
export function ageOn(dateOfBirth: string, today: Date): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  let age = today.getFullYear() - year;
  const beforeBirthday = today.getMonth() + 1 < month || (today.getMonth() + 1 === month && today.getDate() < day);
  if (beforeBirthday) age -= 1;
  return age >= AGE_MIN && age <= AGE_MAX ? age : null;
}

/** A new form: empty, with the age from the date of birth and the sex from the record when there is a patient. */
export function emptyClinicalValues(patient?: PatientSummary, today = new Date()): ClinicalValues {
  const values = Object.fromEntries(CLINICAL_FIELDS.map((field) => [field, ''])) as ClinicalValues;
  if (patient) {
    const age = ageOn(patient.dateOfBirth, today);
    if (age !== null) values.age = String(age);
    if (patient.gender === 'male' || patient.gender === 'female') values.sex = patient.gender;
  }
  return values;
}

const text = (value: number | string | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

export function clinicalValuesOf(parameters: ClinicalParameters): ClinicalValues {
  return {
    age: String(parameters.age),
    chestPainType: String(parameters.chest_pain_type),
    cholesterol: String(parameters.cholesterol),
    fastingBloodSugar: String(parameters.fasting_blood_sugar),
    exerciseInducedAngina: String(parameters.exercise_induced_angina),
    vesselsColoredByFlourosopy: String(parameters.vessels_colored_by_flourosopy),
    thalassemia: String(parameters.thalassemia),
    sex: text(parameters.sex),
    restingBloodPressure: text(parameters.resting_blood_pressure),
    restingEcg: text(parameters.resting_ecg),
    maxHeartRate: text(parameters.max_heart_rate),
    stDepression: text(parameters.st_depression),
    stSlope: text(parameters.st_slope),
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

/** An optional number: nothing when empty, else within `[min, max]` (whole when `whole`). */
function optional(value: string, [min, max]: readonly [number, number], range: ServerTextKey, wholeOnly = false) {
  const number = parse(value);
  if (number === null) return undefined;
  if (Number.isNaN(number) || number < min || number > max || (wholeOnly && !Number.isInteger(number))) return range;
  return undefined;
}

/** Every problem, one per field, in the server's words (the seven are required, the rest optional). */
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
    restingBloodPressure: optional(
      values.restingBloodPressure,
      RESTING_BP_RANGE,
      'errors.server.restingBloodPressureRange',
    ),
    restingEcg: optional(values.restingEcg, [0, 2], 'errors.server.restingEcgRange', true),
    maxHeartRate: optional(values.maxHeartRate, MAX_HEART_RATE_RANGE, 'errors.server.maxHeartRateRange'),
    stDepression: optional(values.stDepression, ST_DEPRESSION_RANGE, 'errors.server.stDepressionRange'),
    stSlope: optional(values.stSlope, [0, 2], 'errors.server.stSlopeRange', true),
  };
  for (const field of CLINICAL_FIELDS) if (!errors[field]) delete errors[field];
  return errors;
}

const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

/** The snake_case payload (spec §3) for a validated form; optional values not entered are null. */
export function clinicalBody(values: ClinicalValues, screeningId: string): ClinicalForm {
  const optionalValues = {
    sex: values.sex === 'male' || values.sex === 'female' ? (values.sex as 'male' | 'female') : null,
    resting_blood_pressure: numberOrNull(values.restingBloodPressure),
    resting_ecg: numberOrNull(values.restingEcg),
    max_heart_rate: numberOrNull(values.maxHeartRate),
    st_depression: numberOrNull(values.stDepression),
    st_slope: numberOrNull(values.stSlope),
  };
  return {
    age: Number(values.age),
    chest_pain_type: Number(values.chestPainType),
    cholesterol: Number(values.cholesterol),
    fasting_blood_sugar: Number(values.fastingBloodSugar),
    exercise_induced_angina: Number(values.exerciseInducedAngina),
    vessels_colored_by_flourosopy: Number(values.vesselsColoredByFlourosopy),
    thalassemia: Number(values.thalassemia),
    ...optionalValues,
    screening_id: screeningId,
  };
}
