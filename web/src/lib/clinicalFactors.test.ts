import { describe, expect, it } from 'vitest';
import { clinicalFactors } from './clinicalFactors';

describe('clinicalFactors', () => {
  it('adds the columns of one field, drops negligible ones and ranks by effect', () => {
    const factors = clinicalFactors([
      { feature: 'age', value: 0.3 },
      { feature: 'chest_pain_atypical_angina', value: -0.2 },
      { feature: 'chest_pain_non_anginal', value: -0.1 },
      { feature: 'chest_pain_asymptomatic', value: 0.9 },
      { feature: 'asymptomatic_x_exercise_angina', value: 0.2 },
      { feature: 'cholesterol', value: 0.01 },
      { feature: 'thalassemia_fixed_defect', value: -0.05 },
      { feature: 'thalassemia_reversible_defect', value: -0.6 },
      { feature: 'resting_blood_pressure', value: 0.12 },
    ]);
    expect(factors.map((f) => [f.attribute, Number(f.value.toFixed(2)), f.known])).toEqual([
      ['chestPainType', 0.8, true],
      ['thalassemia', -0.65, true],
      ['age', 0.3, true],
      ['resting_blood_pressure', 0.12, false],
    ]);
  });

  it('gives nothing for anything that is not a list of contributions', () => {
    expect(clinicalFactors(undefined)).toEqual([]);
    expect(clinicalFactors([{ feature: 'age' }, 'x', null, { feature: 3, value: 1 }])).toEqual([]);
  });
});
