import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SharedResult } from '../../api/client';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

function result(overrides: Partial<SharedResult> = {}): SharedResult {
  return {
    id: 'a-1',
    modality: 'ecg',
    createdAt: '2026-11-20T10:00:00Z',
    finding: 'normal',
    prediction: 'Normal sinus rhythm',
    label: 'normal',
    heartRateBpm: 71.6,
    reviewed: true,
    doctorAgreed: true,
    reviewedAt: '2026-11-21T09:00:00Z',
    doctorName: 'Ana Ruiz',
    reportUrl: '/api/shared/analyses/a-1/report.pdf',
    ...overrides,
  };
}

describe("A patient account's home", () => {
  it('names a doctor whose name carries a title without adding another one', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user', emailVerified: true })),
      'GET /api/shared/invitations': () =>
        json(200, [
          { id: 'sh-2', doctorName: 'Dr. Ana M. Reyes', patientFirstName: 'María', createdAt: '2026-11-20T10:00:00Z' },
        ]),
      'GET /api/shared/results': () => json(200, []),
    });
    renderApp('/home');
    const invitation = await screen.findByText(/invites you to see the results of María's record/);
    expect(invitation.textContent).toMatch(/^Dr\. Ana M\. Reyes invites you/);
    expect(invitation.textContent).not.toContain('Dr. Dr.');
  });

  it('offers to send the verification link again where accepting needs a verified address', async () => {
    const server = mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user', emailVerified: false })),
      'GET /api/shared/invitations': () =>
        json(200, [
          { id: 'sh-1', doctorName: 'Ana Ruiz', patientFirstName: 'María', createdAt: '2026-11-20T10:00:00Z' },
        ]),
      'POST /api/shared/invitations/sh-1/accept': () =>
        json(403, { detail: 'Verify your email address before accepting a shared record.' }),
      'POST /api/auth/verify-email/request': () => json(202),
      'GET /api/shared/results': () => json(200, []),
    });
    renderApp('/home');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Verify your email address before accepting a shared record.',
    );
    await user.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'We sent a verification link to ada@example.com. It works for 24 hours.',
    );
    expect(requestsTo(server, 'POST', '/api/auth/verify-email/request')).toHaveLength(1);
  });

  it('tells an account whose address is not verified how to see its invitations', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user', emailVerified: false })),
      'GET /api/shared/invitations': () => json(200, []),
      'GET /api/shared/results': () => json(200, []),
    });
    renderApp('/home');
    expect(
      await screen.findByText(
        'Verify your email address to see the invitations your doctors send you: open the link we sent when you signed up.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send the link again' })).toBeInTheDocument();
  });

  it('accepts an invitation, then lists the shared results with plain findings and reports', async () => {
    let accepted = false;
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user', emailVerified: true })),
      'GET /api/shared/invitations': () =>
        json(
          200,
          accepted
            ? []
            : [{ id: 'sh-1', doctorName: 'Ana Ruiz', patientFirstName: 'María', createdAt: '2026-11-20T10:00:00Z' }],
        ),
      'POST /api/shared/invitations/sh-1/accept': () => {
        accepted = true;
        return json(204);
      },
      'GET /api/shared/results': () =>
        json(
          200,
          accepted
            ? [
                result({
                  interpretation: [
                    { code: 'sinus_rhythm', text: 'Sinus rhythm' },
                    { code: null, text: 'Unchanged since 2024' },
                  ],
                }),
                result({
                  id: 'a-2',
                  modality: 'pcg',
                  finding: 'abnormal',
                  heartRateBpm: null,
                  doctorAgreed: false,
                  reportUrl: '/api/shared/analyses/a-2/report.pdf',
                }),
              ]
            : [],
        ),
    });
    renderApp('/home');
    expect(await screen.findByText('No shared results yet')).toBeInTheDocument();
    expect(screen.queryByText('Patient figures are shown to healthcare professionals only.')).not.toBeInTheDocument();
    expect(
      await screen.findByText(/Dr. Ana Ruiz invites you to see the results of María's record/),
    ).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    const list = await screen.findByRole('list', { name: 'Shared results' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByText('No abnormality found')).toHaveClass('badge--success');
    expect(within(items[0] as HTMLElement).getByText('Heart rate 72 bpm')).toBeInTheDocument();
    // The ECG's interpretation as the doctor confirmed it; none on a result without one.
    expect(
      within(items[0] as HTMLElement).getByText("Your doctor's reading of the ECG: Sinus rhythm; Unchanged since 2024"),
    ).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).queryByText(/Your doctor's reading/)).not.toBeInTheDocument();
    expect(within(items[0] as HTMLElement).getByRole('link', { name: 'Download report' })).toHaveAttribute(
      'href',
      '/api/shared/analyses/a-1/report.pdf',
    );
    expect(within(items[1] as HTMLElement).getByText('A finding your doctor will discuss with you')).toHaveClass(
      'badge--danger',
    );
    expect(within(items[1] as HTMLElement).getByText(/did not agree with the automatic finding/)).toBeInTheDocument();
    expect(screen.getByText(/Heart rate over time/)).toHaveTextContent('latest 72 bpm');
    // One series per source, named in the legend.
    const legend = screen.getByRole('list', { name: 'Heart rate measured from' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['ECG']);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument());
  });
});
