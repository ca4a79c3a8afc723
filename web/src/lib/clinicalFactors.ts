/**
 * The clinical model's contributions (`details.contributions`: one `{feature, value}` per model
 * column, in log-odds against an average training patient) as the factors a clinician reads: the
 * columns of one form field added together (the one-hot chest-pain and thalassemia columns and their
 * interactions), negligible ones left out, largest first; and the fields a result was computed from.
 */

/** A form field of the clinical model, as the i18n catalogue names it (`clinicalParams.*`). */
export type ClinicalAttribute =
  | 'age'
  | 'chestPainType'
  | 'cholesterol'
  | 'fastingBloodSugar'
  | 'exerciseInducedAngina'
  | 'vessels'
  | 'thalassemia'
  | 'sex'
  | 'restingBloodPressure'
  | 'restingEcg'
  | 'maxHeartRate'
  | 'stDepression'
  | 'stSlope';

/** The API's snake_case field names (`details.attributes_used`) and the catalogue's. */
const ATTRIBUTE_OF_FIELD: Record<string, ClinicalAttribute> = {
  age: 'age',
  chest_pain_type: 'chestPainType',
  cholesterol: 'cholesterol',
  fasting_blood_sugar: 'fastingBloodSugar',
  exercise_induced_angina: 'exerciseInducedAngina',
  vessels_colored_by_flourosopy: 'vessels',
  thalassemia: 'thalassemia',
  sex: 'sex',
  resting_blood_pressure: 'restingBloodPressure',
  resting_ecg: 'restingEcg',
  max_heart_rate: 'maxHeartRate',
  st_depression: 'stDepression',
  st_slope: 'stSlope',
};

/** The known fields of a list of snake_case names (`details.attributes_used` / `attributes_missing`); anything else gives none. */
export function clinicalFields(fields: unknown): ClinicalAttribute[] {
  if (!Array.isArray(fields)) return [];
  return fields.flatMap((field) =>
    typeof field === 'string' && ATTRIBUTE_OF_FIELD[field] ? [ATTRIBUTE_OF_FIELD[field]] : [],
  );
}

/** The form field each model column comes from (an interaction goes with its first field). */
const ATTRIBUTE_OF: Record<string, ClinicalAttribute> = {
  age: 'age',
  chest_pain_atypical_angina: 'chestPainType',
  chest_pain_non_anginal: 'chestPainType',
  chest_pain_asymptomatic: 'chestPainType',
  asymptomatic_x_exercise_angina: 'chestPainType',
  cholesterol: 'cholesterol',
  fasting_blood_sugar_over_120: 'fastingBloodSugar',
  exercise_induced_angina: 'exerciseInducedAngina',
  vessels_colored_by_flourosopy: 'vessels',
  vessels_x_reversible_defect: 'vessels',
  thalassemia_fixed_defect: 'thalassemia',
  thalassemia_reversible_defect: 'thalassemia',
  sex_male: 'sex',
  resting_blood_pressure: 'restingBloodPressure',
  resting_ecg_st_t_abnormality: 'restingEcg',
  resting_ecg_lv_hypertrophy: 'restingEcg',
  max_heart_rate: 'maxHeartRate',
  st_depression: 'stDepression',
  st_slope_flat: 'stSlope',
  st_slope_down: 'stSlope',
};

/** Contributions smaller than this (log-odds) are not worth a line. */
export const NEGLIGIBLE = 0.05;

/** One factor: a form field (or, for a column this table does not know, the column's name) and its summed contribution. */
export interface ClinicalFactor {
  attribute: ClinicalAttribute | string;
  known: boolean;
  value: number;
}

/** The factors of `contributions` (anything else gives none), largest effect first. */
export function clinicalFactors(contributions: unknown): ClinicalFactor[] {
  if (!Array.isArray(contributions)) return [];
  const sums = new Map<string, ClinicalFactor>();
  for (const item of contributions) {
    if (typeof item !== 'object' || item === null) continue;
    const { feature, value } = item as { feature?: unknown; value?: unknown };
    if (typeof feature !== 'string' || typeof value !== 'number' || !Number.isFinite(value)) continue;
    const attribute = ATTRIBUTE_OF[feature];
    const key = attribute ?? feature;
    const factor = sums.get(key) ?? { attribute: key, known: attribute !== undefined, value: 0 };
    factor.value += value;
    sums.set(key, factor);
  }
  return [...sums.values()]
    .filter((f) => Math.abs(f.value) >= NEGLIGIBLE)
    .sort((a, b) => Math.abs(b.value) - Math.abs(a.value));
}
