import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/client';
import i18n from '../i18n';
import {
  combinedBadge,
  detailLabel,
  detailValue,
  findingOf,
  percent,
  predictionErrorMessage,
  resultBadge,
  riskLevel,
} from './prediction';

describe('prediction formatting (spec §2, §9)', () => {
  it.each([
    [0.71, 'high'],
    [0.7, 'moderate'],
    [0.41, 'moderate'],
    [0.4, 'low'],
    [0, 'low'],
  ] as const)('risk %s is %s', (risk, level) => {
    expect(riskLevel(risk)).toBe(level);
  });

  it('shows values times 100 with one decimal and details with two', () => {
    expect(percent(0.8734)).toBe('87.3%');
    expect(percent(1)).toBe('100.0%');
    expect(detailValue(72.456)).toBe('72.46');
    expect(detailValue(0.5)).toBe('0.50');
    expect(detailValue(16)).toBe('16');
    expect(detailValue(0)).toBe('0');
    expect(detailValue('lead II')).toBe('lead II');
    expect(detailValue(null)).toBe('—');
    expect(detailLabel('heart_rate_bpm')).toBe('heart rate bpm');
  });
});

describe('result styling: never a success colour for what is not a normal finding', () => {
  it.each([
    ['normal', 'normal'],
    ['no_disease', 'normal'],
    ['abnormal', 'abnormal'],
    ['af', 'abnormal'],
    ['other', 'abnormal'],
    ['irregular', 'abnormal'],
    ['disease', 'abnormal'],
    ['unsure', 'inconclusive'],
    ['noisy', 'inconclusive'],
  ] as const)('label %s is a %s finding', (label, finding) => {
    expect(findingOf(label)).toBe(finding);
  });

  it.each([
    ['normal', 0.2, 'low', 'success'],
    ['normal', 0.5, 'moderate', 'warning'],
    ['abnormal', 0.35, 'low', 'warning'],
    ['af', 0.9, 'high', 'danger'],
    ['unsure', 0.1, 'inconclusive', 'neutral'],
    ['noisy', 0.9, 'inconclusive', 'neutral'],
  ] as const)('%s with risk %s: %s in %s', (label, risk, level, tone) => {
    expect(resultBadge(label, risk)).toEqual({ level, tone });
  });

  it.each([
    [0.2, 1, 'low', 'neutral'],
    [0.2, 2, 'low', 'success'],
    [0.2, 4, 'low', 'success'],
    [0.55, 1, 'moderate', 'warning'],
    [0.9, 1, 'high', 'danger'],
  ] as const)('a combined risk of %s based on %s modalities is %s in %s', (risk, basedOn, level, tone) => {
    expect(combinedBadge({ risk_score: risk, based_on: basedOn })).toEqual({ level, tone });
  });
});

describe('prediction errors (spec §8)', () => {
  const t = i18n.t.bind(i18n);
  it.each([
    [new ApiError(422, 'Recording too short: 3.2 s.'), 'ecg', 'Validation Error: Recording too short: 3.2 s.'],
    [new ApiError(422, undefined), 'ecg', 'Validation Error: Invalid input data'],
    [new ApiError(503, 'whatever'), 'pcg', 'Model not loaded. Please check backend server.'],
    [new ApiError(500, 'Internal server error.'), 'ppg', 'Internal server error.'],
    [new ApiError(500, undefined), 'ppg', 'Server error occurred'],
    [new ApiError(413, 'File too large: the limit is 50 MB.'), 'ecg', 'File too large: the limit is 50 MB.'],
    [new ApiError(404, undefined), 'clinical', 'Clinical prediction failed'],
    [new ApiError(415, undefined), 'ecg', 'ECG prediction failed'],
    [
      new NetworkError(new TypeError('fetch failed')),
      'pcg',
      'Cannot connect to backend server. Please ensure it is running.',
    ],
    [new Error('boom'), 'ppg', 'PPG prediction failed'],
  ] as const)('%s on %s reads "%s"', (error, kind, text) => {
    expect(predictionErrorMessage(error, kind, t)).toBe(text);
  });
});
