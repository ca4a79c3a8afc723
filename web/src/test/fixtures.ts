/** Sample server answers for the patient and screening pages' tests. */
import type { Analysis, ClinicalRecord, Patient, PredictionResult, Screening, WaveformView } from '../api/client';

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

/** A 30-s ECG at 100 Hz (from a 500-Hz source) cut to `[start, start + span)`, with these leads. */
function ecgWindow(
  start: number,
  span: number,
  channels: (count: number) => WaveformView['channels'],
  rest: Pick<WaveformView, 'analysed_channel' | 'beats_s'>,
  overrides: Partial<WaveformView>,
): WaveformView {
  const end = Math.min(30, start + span);
  return {
    kind: 'ecg',
    sampling_rate_hz: 100,
    source_rate_hz: 500,
    duration_s: 30,
    start_s: start,
    end_s: end,
    channels: channels(Math.round((end - start) * 100)),
    ...rest,
    s1_s: [],
    s2_s: [],
    marks_note: null,
    ...overrides,
  };
}

/** The ECG window the server would send: `names` leads of 30 s at 100 Hz, beats every second. */
export function makeWaveform(request: Request, names: string[], overrides: Partial<WaveformView> = {}): WaveformView {
  const query = new URL(request.url).searchParams;
  return ecgWindow(
    Number(query.get('start_s')),
    Number(query.get('duration_s')),
    (count) => {
      const samples = Array.from({ length: count }, (_, i) => Math.sin(i / 10));
      return names.map((name) => ({ name, unit: 'mV', samples }));
    },
    { analysed_channel: Math.max(0, names.indexOf('II')), beats_s: Array.from({ length: 30 }, (_, i) => i + 0.5) },
    overrides,
  );
}

/** A stored analysis of the screening `s-1` (an ECG unless overridden). */
export function makeAnalysis(overrides: Partial<Analysis> = {}, result: Partial<PredictionResult> = {}): Analysis {
  const id = overrides.id ?? 'a-3';
  return {
    id,
    modality: 'ecg',
    patientId: 'p-1',
    patientName: 'María López',
    screeningId: 's-1',
    fileName: 'ecg.csv',
    fileSha256: 'ab'.repeat(32),
    fileSize: 1000,
    files: [{ name: 'ecg.csv', sha256: 'ab'.repeat(32), size: 1000 }],
    modelId: 'ecg-rhythm-gbdt',
    modelVersion: '1.2.0',
    createdAt: '2026-11-21T10:09:00.000Z',
    review: null,
    ...overrides,
    result: {
      analysis_id: id,
      model: 'ECG',
      label: 'af',
      prediction: 'Atrial fibrillation suspected',
      confidence: 0.9,
      risk_score: 0.82,
      recommendations: ['Arrange a 12-lead ECG within days.'],
      details: { heart_rate_bpm: 112, signal_quality: 0.93 },
      ...result,
    },
  };
}

/** A window of a multi-lead ECG of 30 s at 100 Hz, each lead a sine shifted by its index (the paper's tests). */
export function leadsWindow(
  start: number,
  span: number,
  leads: readonly string[],
  overrides: Partial<WaveformView> = {},
): WaveformView {
  return ecgWindow(
    start,
    span,
    (count) =>
      leads.map((name, lead) => ({
        name,
        unit: 'mV',
        samples: Array.from({ length: count }, (_, i) => Math.sin((i + lead) / 5)),
      })),
    { analysed_channel: leads.length > 1 ? 1 : 0, beats_s: [0.4, 1.2, 2.0] },
    overrides,
  );
}
