import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, makeUser, mockServer, renderApp } from '../test/utils';

function signedIn() {
  mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/health': () => json(503),
    'GET /api/patients': () => json(200, []),
    'GET /api/audit': () => json(200, []),
    'GET /api/analyses': () => json(200, []),
    'GET /api/devices': () => json(200, []),
    'GET /api/devices/recordings': () => json(200, []),
    'GET /api/devices/log': () => json(200, []),
  });
}

describe('signed-in pages show honest empty states', () => {
  it('Patients', async () => {
    signedIn();
    renderApp('/patients');
    expect(await screen.findByRole('link', { name: 'Add Patient' })).toHaveAttribute('href', '/intake');
    expect(screen.getByPlaceholderText('Search by name, phone, or email...')).toBeInTheDocument();
    expect(await screen.findByText('No patients yet. Add your first patient!')).toBeInTheDocument();
  });

  it('Test Results', async () => {
    signedIn();
    renderApp('/test-results');
    expect(await screen.findByText('View and analyze patient cardiac test data')).toBeInTheDocument();
    const all = screen.getByRole('button', { name: 'All Tests' });
    expect(all).toHaveAttribute('aria-pressed', 'true');
    await userEvent.setup().click(screen.getByRole('button', { name: 'ECG' }));
    expect(screen.getByRole('button', { name: 'ECG' })).toHaveAttribute('aria-pressed', 'true');
    expect(all).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'PCG' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'PPG' })).toBeInTheDocument();
    expect(await screen.findByText('No test results found')).toBeInTheDocument();
    expect(screen.getByText('Test results will appear here once they are processed')).toBeInTheDocument();
  });

  it('Devices', async () => {
    signedIn();
    renderApp('/devices');
    expect(await screen.findByText('Connect and manage medical devices')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'USB Serial Devices' })).toBeInTheDocument();
    // jsdom has no Web Serial: the page says so instead of pretending to scan.
    expect(screen.getByText('Serial devices are not supported in this browser')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Network Devices' })).toBeInTheDocument();
    expect(await screen.findByText('No network devices found')).toBeInTheDocument();
    expect(await screen.findByText('Nothing logged yet')).toBeInTheDocument();
  });

  it('Settings', async () => {
    signedIn();
    renderApp('/settings');
    expect(await screen.findByText('Configure your application preferences')).toBeInTheDocument();
    const main = screen.getByRole('main');
    const language = [...main.querySelectorAll('select')].find(
      (select) => select.labels?.[0]?.textContent === 'Language',
    );
    expect([...(language?.options ?? [])].map((option) => option.textContent)).toEqual([
      'English',
      'Spanish',
      'French',
    ]);
    expect(await screen.findByText('Server information is unavailable.')).toBeInTheDocument();
  });

  it('Clinical data without a screening', async () => {
    signedIn();
    renderApp('/clinical-data');
    expect(await screen.findByText('No Patient Data Found')).toBeInTheDocument();
    expect(screen.getByText('Please complete patient intake first.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Intake' })).toHaveAttribute('href', '/intake');
  });

  it.each([
    ['/sensor-pcg', 'Please start from patient intake.'],
    ['/sensor-ppg', 'Please complete previous steps first.'],
  ])('%s without a session', async (path, text) => {
    signedIn();
    renderApp(path);
    expect(await screen.findByText('Session Data Missing')).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Intake' })).toHaveAttribute('href', '/intake');
  });

  it('ECG sensor', async () => {
    signedIn();
    renderApp('/sensor-ecg');
    expect(
      await screen.findByText('ECG data cannot be recorded directly. Please upload a pre-existing ECG file.'),
    ).toBeInTheDocument();
    // Without a screening the page says where to start.
    expect(screen.getByRole('link', { name: 'Go to Intake' })).toHaveAttribute('href', '/intake');
  });

  it('Home shows no invented numbers', async () => {
    signedIn();
    const { container } = renderApp('/home');
    expect(await screen.findByText('No activity yet')).toBeInTheDocument();
    // The four model cards open their modals.
    for (const model of ['Clinical Data', 'PCG', 'PPG', 'ECG']) {
      expect(screen.getByRole('button', { name: new RegExp(`^${model}`) })).toHaveAttribute('aria-haspopup', 'dialog');
    }
    // Without an answer from /api/dashboard, no figure is made up.
    expect(await screen.findByText('Figures are unavailable right now.')).toBeInTheDocument();
    expect(container.querySelector('main')?.textContent).not.toMatch(/\d{2,}/);
  });
});
