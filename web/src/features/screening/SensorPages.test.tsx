import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeScreening } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp } from '../../test/utils';

function server() {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/screenings/s-1': () => json(200, makeScreening()),
    'GET /api/screenings/other': () => json(404, { detail: 'Screening not found.' }),
  });
}

describe('Signal steps with a screening', () => {
  it.each([
    [
      '/sensor-pcg',
      'PCG recording is not available yet',
      'Continue to PPG',
      'Please complete PCG recording first',
      '/clinical-data?screening=s-1',
    ],
    [
      '/sensor-ppg',
      'PPG recording is not available yet',
      'Continue to ECG',
      'Please complete PPG recording first',
      '/sensor-pcg?screening=s-1',
    ],
  ])(
    '%s shows the patient, says recording is not available and keeps Continue disabled',
    async (path, title, next, reason, back) => {
      server();
      renderApp(`${path}?screening=s-1`);
      expect(await screen.findByText('María López')).toBeInTheDocument();
      expect(screen.getByText(title)).toBeInTheDocument();
      const button = screen.getByRole('button', { name: next });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(reason);
      expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', back);
      expect(screen.queryByRole('button', { name: /Start Recording/i })).not.toBeInTheDocument();
    },
  );

  it('ECG shows the patient and goes back to PPG', async () => {
    server();
    renderApp('/sensor-ecg?screening=s-1');
    expect(await screen.findByText('María López')).toBeInTheDocument();
    expect(screen.getByText('ECG analysis is not available yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/sensor-ppg?screening=s-1');
  });

  it.each([
    ['/sensor-pcg', 'Please start from patient intake.'],
    ['/sensor-ppg', 'Please complete previous steps first.'],
  ])("%s with another doctor's (unknown) screening shows the missing state", async (path, text) => {
    server();
    renderApp(`${path}?screening=other`);
    expect(await screen.findByText('Session Data Missing')).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
  });
});
