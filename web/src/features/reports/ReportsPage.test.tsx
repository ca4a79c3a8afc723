import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ReportSummary } from '../../api/client';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';
import { periodStart } from './api';

const ZERO = { clinical: 0, ecg: 0, pcg: 0, ppg: 0 };

function summary(overrides: Partial<ReportSummary> = {}): ReportSummary {
  return {
    from: '1970-01-01T00:00:00.000Z',
    to: '2026-11-23T12:00:00.000Z',
    total_analyses: 8,
    by_modality: { clinical: 2, ecg: 4, pcg: 1, ppg: 1 },
    screenings: 3,
    screenings_completed: 2,
    patients: 5,
    abnormal: 2,
    inconclusive: 1,
    reviewed: 3,
    pending_review: 5,
    monthly: [
      { month: '2026-06', analyses: ZERO },
      { month: '2026-07', analyses: ZERO },
      { month: '2026-08', analyses: ZERO },
      { month: '2026-09', analyses: { clinical: 1, ecg: 1, pcg: 0, ppg: 0 } },
      { month: '2026-10', analyses: ZERO },
      { month: '2026-11', analyses: { clinical: 1, ecg: 3, pcg: 1, ppg: 1 } },
    ],
    ...overrides,
  };
}

describe('Reports page', () => {
  it('tells a patient account that reports are for healthcare professionals, without asking for them', async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user' })),
      'GET /api/reports/summary': () => json(403, { detail: 'Only doctor accounts can do this.' }),
      'GET /api/reports/history': () => json(403, { detail: 'Only doctor accounts can do this.' }),
    });
    renderApp('/reports');
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Patient records are for healthcare professionals')).toBeInTheDocument();
    expect(screen.getByText('Only healthcare professionals can access patient records.')).toBeInTheDocument();
    expect(screen.queryByText('Reports cannot be loaded right now.')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Export/ })).not.toBeInTheDocument();
    expect(requestsTo(fake, 'GET', '/api/reports/summary')).toHaveLength(0);
    expect(requestsTo(fake, 'GET', '/api/reports/history')).toHaveLength(0);
  });

  it('shows the figures, the distribution and the monthly volumes from the server', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/reports/summary': () => json(200, summary()),
    });
    renderApp('/reports');
    const figures = await screen.findByRole('list', { name: 'Figures of the period' });
    const items = within(figures)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      '8Analyses',
      '2 / 3Screenings completed',
      '5Patients',
      '25.0%Abnormal findings',
      '12.5%Inconclusive (re-record)',
      '5Awaiting your review',
    ]);
    expect(screen.getByText('ECG: 4 (50.0%)')).toBeInTheDocument();
    expect(screen.getByText('Clinical: 2 (25.0%)')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Analyses per month and modality' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toHaveLength(6);
    expect(rows[5]).toBe('Nov 20263111');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/analyses/export.csv');
    expect(screen.getByRole('link', { name: 'Export All' })).toHaveAttribute('href', '/api/reports/export.zip');
  });

  it('asks for the chosen period and exports the same period', async () => {
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/reports/summary': () => json(200, summary()),
    });
    renderApp('/reports');
    await screen.findByRole('list', { name: 'Figures of the period' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Last 30 days' }));
    expect(screen.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true');
    const froms = requestsTo(fake, 'GET', '/api/reports/summary').map((r) => new URL(r.url).searchParams.get('from'));
    expect(froms[0]).toBeNull();
    const from = Number(froms[1]);
    expect(Math.abs(from - (Date.now() - 30 * 24 * 3600 * 1000))).toBeLessThan(60_000);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `/api/analyses/export.csv?from=${from}`,
    );
    expect(screen.getByRole('link', { name: 'Export All' })).toHaveAttribute(
      'href',
      `/api/reports/export.zip?from=${from}`,
    );
  });

  it('shows the empty state when there is no data', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/reports/summary': () =>
        json(200, summary({ total_analyses: 0, screenings: 0, by_modality: ZERO, abnormal: 0, inconclusive: 0 })),
    });
    renderApp('/reports');
    expect(await screen.findByText('No reports yet')).toBeInTheDocument();
  });

  it('says so when the figures cannot be loaded', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/reports/summary': () => json(500, { detail: 'Internal server error.' }),
    });
    renderApp('/reports');
    expect(await screen.findByText('Reports cannot be loaded right now.')).toBeInTheDocument();
  });

  it('starts the periods at the right instants', () => {
    const now = new Date(2026, 10, 23, 15, 30);
    expect(periodStart('all', now)).toBeUndefined();
    expect(periodStart('month', now)).toBe(new Date(2026, 10, 1).getTime());
    expect(periodStart('months6', now)).toBe(new Date(2026, 5, 1).getTime());
  });
});

describe('Report history', () => {
  it('lists every generated PDF with a link to download it again, or says there is none', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/reports/summary': () => json(200, summary()),
      'GET /api/reports/history': () =>
        json(200, [
          {
            kind: 'screening',
            id: 's-1',
            patient_name: 'María López',
            generated_at: '2026-11-23T10:00:00.000Z',
            url: '/api/screenings/s-1/report.pdf',
          },
          {
            kind: 'analysis',
            id: 'a-1',
            patient_name: null,
            generated_at: '2026-11-22T10:00:00.000Z',
            url: '/api/analyses/a-1/report.pdf',
          },
        ]),
    });
    renderApp('/reports');
    const table = await screen.findByRole('table', { name: 'Every PDF report generated, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('ScreeningMaría López');
    expect(rows[1]).toHaveTextContent('Analysis—');
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      '/api/screenings/s-1/report.pdf',
    );
  });

  it('says when no report has been generated', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/reports/summary': () => json(200, summary()),
      'GET /api/reports/history': () => json(200, []),
    });
    renderApp('/reports');
    expect(
      await screen.findByText(
        'No PDF reports yet. Download one from an analysis or a screening result and it is listed here.',
      ),
    ).toBeInTheDocument();
  });
});
