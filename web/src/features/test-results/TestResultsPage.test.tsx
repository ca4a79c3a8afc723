import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../api/client';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

function analysis(overrides: Partial<Analysis> & { label: string; prediction: string; hr?: number }): Analysis {
  const { label, prediction, hr, ...rest } = overrides;
  return {
    id: `a-${label}`,
    modality: 'ecg',
    patientId: 'p-1',
    patientName: 'María López',
    screeningId: null,
    fileName: 'rec.csv',
    fileSha256: 'ab'.repeat(32),
    fileSize: 1000,
    files: [{ name: 'rec.csv', sha256: 'ab'.repeat(32), size: 1000 }],
    modelId: 'ecg-rhythm-gbdt',
    modelVersion: '1.0.0',
    createdAt: '2026-11-20T10:30:00.000Z',
    result: {
      analysis_id: `a-${label}`,
      model: 'ECG',
      label,
      prediction,
      confidence: 0.9,
      risk_score: 0.8,
      recommendations: ['See a clinician.'],
      details: hr === undefined ? {} : { heart_rate_bpm: hr },
    },
    ...rest,
  };
}

const ANALYSES: Analysis[] = [
  analysis({ label: 'af', prediction: 'Atrial fibrillation suspected', hr: 112.4 }),
  analysis({ label: 'unsure', prediction: 'Unsure: quality too poor', modality: 'pcg', patientName: null, patientId: null }),
  analysis({
    label: 'normal',
    prediction: 'Regular pulse rhythm',
    modality: 'ppg',
    hr: 71.6,
    review: {
      id: 'r-1',
      reviewerId: 'u-1',
      reviewerName: 'Ada Lovelace',
      agreement: 'agree',
      comment: '',
      createdAt: '2026-11-21T09:00:00.000Z',
    },
  }),
  analysis({ label: 'disease', prediction: 'Coronary artery disease likely', modality: 'clinical' }),
];

describe('Test Results page', () => {
  it('lists the stored signal analyses with the spec badges, heart rate and findings', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses': () => json(200, ANALYSES),
    });
    renderApp('/test-results');
    const list = (await screen.findByRole('heading', { name: 'ECG Analysis' })).closest('ul') as HTMLElement;
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    const [ecg, pcg, ppg] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(ecg).getByRole('heading', { name: 'ECG Analysis' })).toBeInTheDocument();
    expect(ecg).toHaveTextContent('María López');
    expect(within(ecg).getByText('Abnormal')).toHaveClass('badge--danger');
    expect(ecg).toHaveTextContent('Heart rate112 bpm');
    expect(ecg).toHaveTextContent('FindingsAtrial fibrillation suspected');
    expect(within(pcg).getByText('Review Required')).toHaveClass('badge--warning');
    expect(pcg).toHaveTextContent('No patient linked');
    expect(pcg).toHaveTextContent('Heart rateNot measured');
    expect(within(ppg).getByText('Normal')).toHaveClass('badge--success');
    // The doctor's sign-off: pending until reviewed.
    expect(ecg).toHaveTextContent('Doctor reviewNot yet reviewed');
    expect(ppg).toHaveTextContent("Doctor reviewReviewed: agreed with the model's finding");

    // Download Report fetches the analysis's PDF (spec: both buttons on every card).
    for (const [card, id] of [
      [ecg, 'a-af'],
      [ppg, 'a-normal'],
    ] as const) {
      const report = within(card).getByRole('link', { name: 'Download Report' });
      expect(report).toHaveAttribute('href', `/api/analyses/${id}/report.pdf`);
      expect(report).toHaveAttribute('download', `cardio-analysis-${id}.pdf`);
    }
    // View Details opens the analysis page (waveform and full result).
    await userEvent.setup().click(within(ecg).getByRole('link', { name: 'View Details' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/analyses/a-af');
  });

  it('asks the server for one type when a filter is chosen, and shows the spec empty state', async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses': (request) =>
        json(200, new URL(request.url).searchParams.get('type') === 'pcg' ? [] : ANALYSES),
    });
    renderApp('/test-results');
    await screen.findByRole('heading', { name: 'ECG Analysis' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'PCG' }));
    expect(await screen.findByText('No test results found')).toBeInTheDocument();
    expect(screen.getByText('Test results will appear here once they are processed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'PCG' })).toHaveAttribute('aria-pressed', 'true');
    const types = requestsTo(fake, 'GET', '/api/analyses').map((r) => new URL(r.url).searchParams.get('type'));
    expect(types).toEqual([null, 'pcg']);
  });

  it('says so when the results cannot be loaded', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses': () => json(500, { detail: 'Internal server error.' }),
    });
    renderApp('/test-results');
    expect(await screen.findByText('Test results cannot be loaded right now.')).toBeInTheDocument();
  });

  it("shows a patient account the results its doctors shared, not 'No test results found'", async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user', emailVerified: true })),
      'GET /api/shared/invitations': () => json(200, []),
      'GET /api/shared/results': () =>
        json(200, [
          {
            id: 'a-9',
            modality: 'ppg',
            createdAt: '2026-11-20T10:00:00Z',
            finding: 'normal',
            prediction: 'Regular pulse rhythm',
            heartRateBpm: 64,
            reviewed: true,
            doctorAgreed: true,
            reviewedAt: '2026-11-21T09:00:00Z',
            doctorName: 'Ana Ruiz',
            reportUrl: '/api/shared/analyses/a-9/report.pdf',
          },
        ]),
    });
    renderApp('/test-results');
    const list = await screen.findByRole('list', { name: 'Shared results' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByText('Heart rate 64 bpm')).toBeInTheDocument();
    expect(screen.queryByText('No test results found')).not.toBeInTheDocument();
    expect(requestsTo(fake, 'GET', '/api/analyses')).toHaveLength(0);
  });
});
