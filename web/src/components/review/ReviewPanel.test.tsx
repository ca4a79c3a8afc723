import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Analysis, Review } from '../../api/client';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

const ANALYSIS: Analysis = {
  id: 'a-1',
  modality: 'clinical',
  patientId: null,
  patientName: null,
  screeningId: null,
  fileName: null,
  fileSha256: null,
  fileSize: null,
  files: [],
  modelId: 'clinical-logreg',
  modelVersion: '1.0.0',
  createdAt: '2026-11-20T10:30:00.000Z',
  result: {
    analysis_id: 'a-1',
    model: 'Clinical',
    label: 'disease',
    prediction: 'Coronary artery disease likely',
    confidence: 0.8,
    risk_score: 0.8,
    recommendations: [],
    details: {},
  },
  review: null,
};

function review(overrides: Partial<Review>): Review {
  return {
    id: 'r-1',
    reviewerId: 'u-1',
    reviewerName: 'Ada Lovelace',
    agreement: 'agree',
    comment: '',
    createdAt: '2026-11-20T11:00:00.000Z',
    ...overrides,
  };
}

describe('Review panel', () => {
  it('signs off a pending result, asking for a reason to disagree, and shows it as current', async () => {
    let stored: Review[] = [];
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () => json(200, ANALYSIS),
      'GET /api/analyses/a-1/reviews': () => json(200, stored),
      'POST /api/analyses/a-1/reviews': async (request) => {
        const body = (await request.clone().json()) as { agreement: 'agree' | 'disagree'; comment: string };
        stored = [review({ id: 'r-2', ...body }), ...stored];
        return json(201, stored[0]);
      },
    });
    renderApp('/analyses/a-1');
    const panel = (await screen.findByRole('heading', { name: 'Doctor review' })).closest('section') as HTMLElement;
    expect(await within(panel).findByText('Not yet reviewed')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(panel).getByRole('radio', { name: 'Disagree' }));
    await user.click(within(panel).getByRole('button', { name: 'Sign off' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent(
      "Say why you disagree with the model's finding in the comment.",
    );
    expect(requestsTo(fake, 'POST', '/api/analyses/a-1/reviews')).toHaveLength(0);

    await user.type(within(panel).getByLabelText('Comment: why do you disagree?'), '  Normal variant.  ');
    await user.click(within(panel).getByRole('button', { name: 'Sign off' }));
    expect(await within(panel).findByText("disagreed with the model's finding", { exact: false })).toBeInTheDocument();
    expect(within(panel).getByText('Reviewed')).toBeInTheDocument();
    expect(within(panel).getByText('Normal variant.')).toBeInTheDocument();
    const [sent] = requestsTo(fake, 'POST', '/api/analyses/a-1/reviews');
    expect(await sent?.json()).toEqual({ agreement: 'disagree', comment: 'Normal variant.' });
    expect(within(panel).getByRole('button', { name: 'Sign off again (replaces the current review)' })).toBeEnabled();
  });

  it('keeps superseded reviews in the history and shows the server reason when saving fails', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () => json(200, ANALYSIS),
      'GET /api/analyses/a-1/reviews': () =>
        json(200, [
          review({ id: 'r-2', agreement: 'disagree', comment: 'Artefact.' }),
          review({ id: 'r-1', createdAt: '2026-11-20T10:45:00.000Z' }),
        ]),
      'POST /api/analyses/a-1/reviews': () =>
        json(422, { detail: 'The comment is too long: at most 2000 characters.' }),
    });
    renderApp('/analyses/a-1');
    const panel = (await screen.findByRole('heading', { name: 'Doctor review' })).closest('section') as HTMLElement;
    expect(await within(panel).findByText('Artefact.')).toBeInTheDocument();
    expect(within(panel).getByText('1 earlier review')).toBeInTheDocument();
    expect(within(panel).getByText('Superseded')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(panel).getByRole('radio', { name: 'Agree' }));
    await user.click(within(panel).getByRole('button', { name: 'Sign off again (replaces the current review)' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'The comment is too long: at most 2000 characters.',
    );
  });

  it('starts with neither answer chosen and refuses to sign off until one is', async () => {
    let stored: Review[] = [];
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/analyses/a-1': () => json(200, ANALYSIS),
      'GET /api/analyses/a-1/reviews': () => json(200, stored),
      'POST /api/analyses/a-1/reviews': async (request) => {
        stored = [review((await request.clone().json()) as Partial<Review>)];
        return json(201, stored[0]);
      },
    });
    renderApp('/analyses/a-1');
    const panel = (await screen.findByRole('heading', { name: 'Doctor review' })).closest('section') as HTMLElement;
    expect(await within(panel).findByText('Not yet reviewed')).toBeInTheDocument();
    const agree = within(panel).getByRole('radio', { name: 'Agree' });
    const disagree = within(panel).getByRole('radio', { name: 'Disagree' });
    expect(agree).not.toBeChecked();
    expect(disagree).not.toBeChecked();

    const user = userEvent.setup();
    await user.click(within(panel).getByRole('button', { name: 'Sign off' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent(
      "Choose whether you agree or disagree with the model's finding before signing off.",
    );
    expect(requestsTo(fake, 'POST', '/api/analyses/a-1/reviews')).toHaveLength(0);

    // Keyboard only: Space chooses the focused answer, Tab goes on to the comment, then to the button.
    agree.focus();
    await user.keyboard(' ');
    expect(agree).toBeChecked();
    await user.tab();
    expect(within(panel).getByLabelText('Comment (optional)')).toHaveFocus();
    await user.keyboard('Looks right.');
    await user.tab();
    await user.keyboard('{Enter}');
    expect(await within(panel).findByText('Looks right.', { selector: '.review__comment' })).toBeInTheDocument();
    const [sent] = requestsTo(fake, 'POST', '/api/analyses/a-1/reviews');
    expect(await sent?.json()).toEqual({ agreement: 'agree', comment: 'Looks right.' });
  });

  it('offers no sign-off to a patient account', async () => {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser({ role: 'user' })),
      'GET /api/analyses/a-1': () => json(200, ANALYSIS),
      'GET /api/analyses/a-1/reviews': () => json(200, []),
    });
    renderApp('/analyses/a-1');
    const panel = (await screen.findByRole('heading', { name: 'Doctor review' })).closest('section') as HTMLElement;
    expect(await within(panel).findByText('Not yet reviewed')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Sign off' })).not.toBeInTheDocument();
  });
});
