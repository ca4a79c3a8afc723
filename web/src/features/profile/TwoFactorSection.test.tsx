import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

const activity = () => json(200, { patients: 0, screenings: 0, analyses: 0, reviews: 0 });
const SETUP = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Cardio:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Cardio',
};
const CODES = Array.from({ length: 10 }, (_, i) => `abcde-fgh${String(i).padStart(2, '0')}`);

describe('Two-factor sign-in on the profile', () => {
  it('shows Off with an Enable button for an account without it', async () => {
    mockServer({ 'GET /api/auth/me': () => json(200, makeUser()), 'GET /api/profile/activity': activity });
    renderApp('/profile');
    expect(await screen.findByTestId('two-factor-state')).toHaveTextContent('Off');
    expect(screen.getByRole('button', { name: 'Enable' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disable' })).not.toBeInTheDocument();
  });

  it('enrols: QR code and manual key, confirm with a code, then the ten recovery codes once', async () => {
    let enabled = false;
    const server = mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ twoFactorEnabled: enabled })),
      'GET /api/profile/activity': activity,
      'POST /api/auth/totp/setup': () => json(200, SETUP),
      'POST /api/auth/totp/enable': async (request) => {
        const body = (await request.json()) as { code: string };
        if (body.code !== '123456') return json(403, { detail: 'Invalid authentication code.' });
        enabled = true;
        return json(200, { recoveryCodes: CODES });
      },
    });
    const user = userEvent.setup();
    renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: 'Enable' }));

    expect(await screen.findByTestId('totp-manual-key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(screen.getByLabelText('Authentication code')).toHaveFocus();
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);

    await user.type(screen.getByLabelText('Authentication code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid authentication code.');

    await user.clear(screen.getByLabelText('Authentication code'));
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(list).toHaveTextContent(CODES[0] as string);
    await waitFor(() => expect(screen.getByTestId('two-factor-state')).toHaveTextContent('On'));
    expect(requestsTo(server, 'POST', '/api/auth/totp/enable')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disable' })).toBeInTheDocument();
  });

  it('disables with the password and a code', async () => {
    let enabled = true;
    const server = mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ twoFactorEnabled: enabled })),
      'GET /api/profile/activity': activity,
      'POST /api/auth/totp/disable': () => {
        enabled = false;
        return json(204);
      },
    });
    const user = userEvent.setup();
    renderApp('/profile');
    expect(await screen.findByTestId('two-factor-state')).toHaveTextContent('On');
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    expect(screen.getByRole('form', { name: 'Disable' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.type(screen.getByLabelText('Code or recovery code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Disable' }));

    await waitFor(() => expect(screen.getByTestId('two-factor-state')).toHaveTextContent('Off'));
    const [request] = requestsTo(server, 'POST', '/api/auth/totp/disable');
    expect(await request?.json()).toEqual({ password: 'x', code: '654321' });
  });
});
