import { describe, expect, it } from 'vitest';
import { clinicalFactors, clinicalFields } from './clinicalFactors';

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
      { feature: 'st_slope_flat', value: 0.2 },
      { feature: 'st_slope_down', value: 0.05 },
      { feature: 'some_future_column', value: 0.12 },
    ]);
    expect(factors.map((f) => [f.attribute, Number(f.value.toFixed(2)), f.known])).toEqual([
      ['chestPainType', 0.8, true],
      ['thalassemia', -0.65, true],
      ['age', 0.3, true],
      ['stSlope', 0.25, true],
      ['some_future_column', 0.12, false],
    ]);
  });

  it('gives nothing for anything that is not a list of contributions', () => {
    expect(clinicalFactors(undefined)).toEqual([]);
    expect(clinicalFactors([{ feature: 'age' }, 'x', null, { feature: 3, value: 1 }])).toEqual([]);
  });
});

describe('clinicalFields', () => {
  it('names the known snake_case fields in their order and drops the rest', () => {
    expect(clinicalFields(['age', 'vessels_colored_by_flourosopy', 'sex', 'st_slope', 'x', 3])).toEqual([
      'age',
      'vessels',
      'sex',
      'stSlope',
    ]);
    expect(clinicalFields('age')).toEqual([]);
  });
});
