import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../api/client';
import i18n from '../i18n';
import { detailLabel, detailValue, percent, predictionErrorMessage, riskLevel } from './prediction';

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
    expect(detailValue('lead II')).toBe('lead II');
    expect(detailValue(null)).toBe('—');
    expect(detailLabel('heart_rate_bpm')).toBe('heart rate bpm');
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
