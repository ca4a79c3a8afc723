import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockServer, renderApp, signedOut } from '../../test/utils';

describe('Welcome page', () => {
  it.each([
    'Get Started Now',
    'Sign In',
    'Get Your Instant AI Report',
    'Check Your Heart Health Now',
    'Access Dashboard',
  ])('"%s" goes to role selection', (name) => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/');
    const links = screen.getAllByRole('link', { name });
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toHaveAttribute('href', '/auth');
  });

  it('makes no unverified claims and says results are not diagnoses', () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    const { container } = renderApp('/');
    const text = container.textContent ?? '';
    for (const claim of [/10,000/, /95%\+/, /95% accura/i, /HIPAA/i, /three ML models/i, /CTG/, /fetal/i, /24\/7/]) {
      expect(text).not.toMatch(claim);
    }
    expect(text).toMatch(/not diagnoses/);
  });

  it("states each model's validated figures with their confidence intervals", async () => {
    mockServer({
      'GET /api/auth/me': signedOut,
      'GET /api/models': () =>
        json(200, [
          {
            modality: 'clinical',
            id: 'clinical-lr',
            version: '1.0.0',
            dataset: 'UCI Heart Disease (Cleveland)',
            metrics: [{ code: 'cv_auroc', value: 0.8897, ci_low: 0.851, ci_high: 0.9284, target: 0.9 }],
          },
          {
            modality: 'ppg',
            id: 'ppg-rhythm-gbdt',
            version: '1.0.0',
            dataset: 'BIDMC',
            metrics: [{ code: 'hr_mae_bpm', value: 1.903, ci_low: null, ci_high: null, target: null }],
          },
        ]),
    });
    renderApp('/');
    const section = await screen.findByRole('region', { name: 'Validated performance' });
    await screen.findByText('89.0%');
    expect(section).toHaveTextContent('Clinical parameters');
    expect(section).toHaveTextContent(
      'Cross-validated AUROC 89.0% (95% CI 85.1% to 92.8%) · below the target of 90.0%',
    );
    expect(section).toHaveTextContent('UCI Heart Disease (Cleveland) · model clinical-lr 1.0.0');
    expect(section).toHaveTextContent(
      'Heart-rate mean absolute error on the BIDMC pulse recordings, 8-s windows (bpm) 1.90',
    );
  });

  it('says so when the figures cannot be loaded', async () => {
    mockServer({ 'GET /api/auth/me': signedOut, 'GET /api/models': () => json(500, { detail: 'x' }) });
    renderApp('/');
    expect(await screen.findByText('The validated figures cannot be loaded right now.')).toBeInTheDocument();
  });
});
