import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MurmurResult, PredictionResult } from '../../api/client';
import { makeAnalysis, makeScreening } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

const PRESENT = { verdict: 'present', probability: 0.71, timing: 'holosystolic', grade: 'II/VI' };

const AT_AV = makeAnalysis(
  { id: 'a-av', modality: 'pcg', site: 'AV', fileName: 'av.wav' },
  { model: 'PCG', label: 'abnormal', prediction: 'Abnormal heart sounds suspected', details: { murmur: PRESENT } },
);

const MURMUR: MurmurResult = {
  verdict: 'present',
  probability: 0.71,
  timing: 'holosystolic',
  grade: 'II/VI',
  heard_at: ['AV'],
  sites: [{ site: 'AV', analysis_id: 'a-av', ...PRESENT }],
};

const MV_RESULT: PredictionResult = {
  analysis_id: 'a-mv',
  model: 'PCG',
  label: 'normal',
  prediction: 'Normal heart sounds',
  confidence: 0.8,
  risk_score: 0.2,
  recommendations: [],
  details: { murmur: { verdict: 'absent', probability: 0.9, timing: null, grade: null } },
};

describe('the heart-sound step at the auscultation sites', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows each site with its own verdict, records at the chosen site, and the murmur over the sites', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () => json(200, makeScreening({ murmur: MURMUR })),
      'GET /api/analyses': () => json(200, [AT_AV]),
      'POST /api/predict/pcg/upload': () => json(200, MV_RESULT),
    });
    renderApp('/sensor-pcg?screening=s-1');

    const av = await screen.findByRole('button', { name: /^AV Aortic area/ });
    expect(av).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByTestId('site-status-AV')).toHaveTextContent('Murmur present — holosystolic, grade II/VI');
    expect(screen.getByTestId('site-status-MV')).toHaveTextContent('Not recorded');
    // The AV recording is the step's result; one site is enough to continue.
    expect(screen.getByText('Analysed: Abnormal heart sounds suspected')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue to PPG' })).toBeInTheDocument();

    const summary = screen.getByRole('region', { name: 'Heart murmur' });
    expect(within(summary).getByTestId('murmur-verdict')).toHaveTextContent(
      'Murmur present — heard at AV; holosystolic, grade II/VI',
    );
    expect(summary).toHaveTextContent('Read over 1 of 4 auscultation sites.');

    // Another site: nothing recorded there yet; what is recorded or uploaded now is for MV.
    const user = userEvent.setup({ applyAccept: false });
    await user.click(screen.getByRole('button', { name: /^MV Mitral area/ }));
    expect(screen.getByRole('button', { name: /^MV Mitral area/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Ready');
    expect(screen.getByText('Recording site: MV — Mitral area, the apex (5th intercostal space)')).toBeInTheDocument();
    // Continue stays open: AV is recorded.
    expect(screen.getByRole('link', { name: 'Continue to PPG' })).toBeInTheDocument();

    const input = screen.getByText('Browse Files').parentElement?.querySelector('input') as HTMLInputElement;
    await user.upload(input, new File(['RIFF'], 'mv.wav', { type: 'audio/wav' }));
    expect(await screen.findByText('Analysed: Normal heart sounds')).toBeInTheDocument();
    expect(requestsTo(fake, 'POST', '/api/predict/pcg/upload')).toHaveLength(1);
    expect(append).toHaveBeenCalledWith('site', 'MV');
    expect(append).toHaveBeenCalledWith('screening_id', 's-1');
  });

  it('a site recorded too briefly for the normal/abnormal decision shows its murmur verdict, a noisy one none', async () => {
    const short = makeAnalysis(
      { id: 'a-tv', modality: 'pcg', site: 'TV', fileName: 'tv.wav' },
      {
        model: 'PCG',
        label: 'unsure',
        prediction: 'Unsure: this recording cannot be judged',
        details: { murmur: { verdict: 'absent', probability: 0.82, timing: null, grade: null } },
      },
    );
    const noisy = makeAnalysis(
      { id: 'a-pv', modality: 'pcg', site: 'PV', fileName: 'pv.wav' },
      {
        model: 'PCG',
        label: 'unsure',
        prediction: 'Unsure: this recording cannot be judged',
        details: { murmur: { verdict: 'unknown', probability: null, timing: null, grade: null } },
      },
    );
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () => json(200, makeScreening()),
      'GET /api/analyses': () => json(200, [short, noisy]),
    });
    renderApp('/sensor-pcg?screening=s-1');
    await vi.waitFor(() => expect(screen.getByTestId('site-status-TV')).toHaveTextContent('No murmur heard'));
    expect(screen.getByTestId('site-status-PV')).toHaveTextContent('Could not be judged');
  });

  it('the sites are reached with the keyboard', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () => json(200, makeScreening()),
      'GET /api/analyses': () => json(200, []),
    });
    renderApp('/sensor-pcg?screening=s-1');
    const pv = await screen.findByRole('button', { name: /^PV Pulmonary area/ });
    pv.focus();
    const user = userEvent.setup();
    await user.keyboard('{Enter}');
    expect(pv).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: /^AV Aortic area/ })).toHaveAttribute('aria-pressed', 'false');
    // Nothing recorded at any site: Continue waits for one.
    expect(screen.getByRole('button', { name: 'Continue to PPG' })).toBeDisabled();
  });

  it("attaches a stethoscope's pushed recording at the site chosen on the step", async () => {
    const pushed = makeAnalysis(
      { id: 'a-push', modality: 'pcg', screeningId: null, fileName: 'steth.wav' },
      { model: 'PCG', label: 'normal', prediction: 'Normal heart sounds', details: {} },
    );
    const inbox = {
      id: 'r-1',
      deviceId: 'd-1',
      deviceName: 'Stethoscope',
      deviceType: 'PCG',
      fileName: 'steth.wav',
      receivedAt: '2026-11-21T10:00:00Z',
      attachedAt: null,
      analysis: pushed,
    };
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () => json(200, makeScreening()),
      'GET /api/analyses': () => json(200, []),
      'GET /api/devices/recordings': () => json(200, [inbox]),
      'POST /api/devices/recordings/r-1/attach': () =>
        json(200, { ...inbox, attachedAt: '2026-11-21T10:05:00Z', analysis: { ...pushed, site: 'TV' } }),
    });
    renderApp('/sensor-pcg?screening=s-1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^TV Tricuspid area/ }));
    await user.click(await screen.findByRole('button', { name: 'Use this recording' }));
    await vi.waitFor(() => expect(requestsTo(fake, 'POST', '/api/devices/recordings/r-1/attach')).toHaveLength(1));
    const [request] = requestsTo(fake, 'POST', '/api/devices/recordings/r-1/attach');
    expect(await request?.json()).toEqual({ screening_id: 's-1', site: 'TV' });
  });
});
