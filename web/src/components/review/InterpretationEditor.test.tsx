import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Analysis, EcgStatementOption, Review } from '../../api/client';
import i18n from '../../i18n';
import { MUSE_ECG_RESULT, ONE_LEAD_ECG_RESULT } from '../../test/ecg12Results';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

const ECG: Analysis = {
  id: 'a-ecg',
  modality: 'ecg',
  patientId: null,
  patientName: null,
  screeningId: null,
  fileName: 'muse.xml',
  fileSha256: null,
  fileSize: null,
  files: [],
  modelId: 'ecg-rhythm-gbdt',
  modelVersion: '1.0.0',
  createdAt: '2026-11-20T10:30:00.000Z',
  result: { ...MUSE_ECG_RESULT, analysis_id: 'a-ecg' },
  review: null,
};

const OPTIONS: EcgStatementOption[] = [
  { code: 'sinus_rhythm', text: 'Sinus rhythm', criterion: '', snomed: '426783006' },
  { code: 'sinus_bradycardia', text: 'Sinus bradycardia', criterion: '', snomed: '426177001' },
  { code: 'sinus_arrhythmia', text: 'Sinus arrhythmia', criterion: '', snomed: '427393009' },
  { code: 'first_degree_av_block', text: '1st-degree AV block', criterion: '', snomed: '270492004' },
  { code: 'left_atrial_abnormality', text: 'Left atrial abnormality', criterion: '', snomed: '253352002' },
  { code: 'left_axis_deviation', text: 'Left axis deviation', criterion: '', snomed: '39732003' },
  { code: 'lbbb', text: 'Left bundle branch block', criterion: '', snomed: '164909002' },
  { code: 'abnormal_ecg', text: 'Abnormal ECG', criterion: '', snomed: null },
];

function server(stored: Review[] = [], analysis: Analysis = ECG) {
  let reviews = stored;
  const fake = mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/analyses/a-ecg': () => json(200, { ...analysis, review: reviews[0] ?? null }),
    'GET /api/analyses/a-ecg/reviews': () => json(200, reviews),
    'GET /api/ecg/statements': () => json(200, OPTIONS),
    'POST /api/analyses/a-ecg/reviews': async (request) => {
      const body = (await request.clone().json()) as {
        agreement: 'agree';
        comment: string;
        interpretation?: { code?: string; text?: string }[];
      };
      const made: Review = {
        id: `r-${reviews.length + 1}`,
        reviewerId: 'u-1',
        reviewerName: 'Ada Lovelace',
        agreement: body.agreement,
        comment: body.comment,
        createdAt: '2026-11-21T09:00:00.000Z',
        interpretation: body.interpretation?.map((s) => ({
          code: s.code ?? null,
          text: s.code ? (OPTIONS.find((o) => o.code === s.code)?.text ?? s.code) : (s.text ?? ''),
        })),
      };
      reviews = [made, ...reviews];
      return json(201, made);
    },
  });
  return fake;
}

async function reviewPanel() {
  return (await screen.findByRole('heading', { name: 'Doctor review' })).closest('section') as HTMLElement;
}

describe('Confirming an ECG interpretation at sign-off', () => {
  it("starts from Cardio's statements; the doctor removes one, adds one from the list by keyboard and one in their words", async () => {
    const fake = server();
    renderApp('/analyses/a-ecg');
    const panel = await reviewPanel();
    const list = await within(panel).findByRole('list', { name: 'Statements to confirm' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.firstChild?.textContent),
    ).toEqual([
      'Sinus bradycardia',
      'Sinus arrhythmia',
      '1st-degree AV block',
      'Left atrial abnormality',
      'Abnormal ECG',
    ]);
    const user = userEvent.setup();
    await user.click(within(panel).getByRole('button', { name: 'Remove “Sinus arrhythmia”' }));

    // Search by keyboard: type, move down once, Enter adds the active option.
    const search = within(panel).getByRole('combobox', { name: 'Add a statement from the list' });
    await user.type(search, 'deviation');
    expect(
      within(panel)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Left axis deviation']);
    await user.type(search, '{Control>}a{/Control}{Backspace}left');
    expect(
      within(panel)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Left axis deviation', 'Complete left bundle branch block']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(search).toHaveValue('');

    // The doctor's own words: Enter adds them without signing off.
    await user.type(
      within(panel).getByLabelText('Or write a statement in your own words'),
      'Compared with 2024: unchanged{Enter}',
    );
    expect(requestsTo(fake, 'POST', '/api/analyses/a-ecg/reviews')).toHaveLength(0);

    await user.click(within(panel).getByRole('radio', { name: 'Agree' }));
    await user.click(within(panel).getByRole('button', { name: 'Sign off' }));
    expect(await within(panel).findByText('Reviewed')).toBeInTheDocument();
    const [sent] = requestsTo(fake, 'POST', '/api/analyses/a-ecg/reviews');
    expect(await sent?.json()).toEqual({
      agreement: 'agree',
      comment: '',
      interpretation: [
        { code: 'sinus_bradycardia' },
        { code: 'first_degree_av_block' },
        { code: 'left_atrial_abnormality' },
        { code: 'abnormal_ecg' },
        { code: 'lbbb' },
        { text: 'Compared with 2024: unchanged' },
      ],
    });
    expect(
      within(panel).getByText(
        'Interpretation confirmed: Sinus bradycardia; 1st-degree AV block; Left atrial abnormality; Abnormal ECG; Complete left bundle branch block; Compared with 2024: unchanged',
      ),
    ).toBeInTheDocument();
    // The result shows the confirmed interpretation, who confirmed it, above Cardio's.
    const confirmed = (await screen.findByRole('heading', { name: 'Interpretation confirmed by the doctor' })).closest(
      'section',
    ) as HTMLElement;
    expect(within(confirmed).getByText(/^Confirmed by Ada Lovelace on/)).toBeInTheDocument();
    expect(within(confirmed).getAllByRole('listitem')).toHaveLength(6);
  });

  it('refuses to sign off an empty interpretation, and starts an edit from the one confirmed last', async () => {
    const fake = server([
      {
        id: 'r-1',
        reviewerId: 'u-1',
        reviewerName: 'Ada Lovelace',
        agreement: 'agree',
        comment: '',
        createdAt: '2026-11-20T11:00:00.000Z',
        interpretation: [{ code: 'sinus_rhythm', text: 'Sinus rhythm' }],
      },
    ]);
    renderApp('/analyses/a-ecg');
    const panel = await reviewPanel();
    const list = await within(panel).findByRole('list', { name: 'Statements to confirm' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.firstChild?.textContent),
    ).toEqual(['Sinus rhythm']);
    const user = userEvent.setup();
    await user.click(within(panel).getByRole('button', { name: 'Remove “Sinus rhythm”' }));
    expect(
      within(panel).getByText('No statement yet: add one from the list or in your own words.'),
    ).toBeInTheDocument();
    await user.click(within(panel).getByRole('radio', { name: 'Agree' }));
    await user.click(within(panel).getByRole('button', { name: 'Sign off again (replaces the current review)' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent(
      'Confirm at least one ECG statement, or write one in your own words.',
    );
    expect(requestsTo(fake, 'POST', '/api/analyses/a-ecg/reviews')).toHaveLength(0);
  });

  it('signs off a one-lead ECG, which has no statement to confirm, without an interpretation', async () => {
    const fake = server([], { ...ECG, result: { ...ONE_LEAD_ECG_RESULT, analysis_id: 'a-ecg' } });
    renderApp('/analyses/a-ecg');
    const panel = await reviewPanel();
    expect(
      await within(panel).findByText('No statement yet: add one from the list or in your own words.'),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(panel).getByRole('radio', { name: 'Agree' }));
    await user.click(within(panel).getByRole('button', { name: 'Sign off' }));
    expect(await within(panel).findByText('Reviewed')).toBeInTheDocument();
    const [sent] = requestsTo(fake, 'POST', '/api/analyses/a-ecg/reviews');
    expect(await sent?.json()).toEqual({ agreement: 'agree', comment: '' });
  });

  it("reads the statements in the reader's language and searches them without accents", async () => {
    server();
    await act(() => i18n.changeLanguage('fr'));
    try {
      renderApp('/analyses/a-ecg');
      const panel = (await screen.findByRole('heading', { name: 'Revue médicale' })).closest('section') as HTMLElement;
      const user = userEvent.setup();
      await user.type(
        within(panel).getByRole('combobox', { name: 'Ajouter un énoncé de la liste' }),
        'deviation axiale',
      );
      const options = within(panel)
        .getAllByRole('option')
        .map((o) => o.textContent);
      expect(options).toHaveLength(1);
      expect(options[0]).toMatch(/^Déviation axiale gauche/);
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
