import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CombinedResult, Review } from '../../api/client';
import { makeAnalysis, makeClinicalRecord, makeScreening } from '../../test/fixtures';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

describe('A screening analysed before', () => {
  it('opens on its stored combined result without running anything again', async () => {
    const combined: CombinedResult = {
      screening_id: 's-1',
      driver: 'ppg',
      risk_score: 0.55,
      risk_level: 'moderate',
      rule: 'Overall risk = the highest risk score among the modalities that could be judged.',
      modalities: [
        { modality: 'clinical', status: 'performed', prediction: 'Coronary artery disease unlikely', risk_score: 0.2 },
        { modality: 'pcg', status: 'not_performed', prediction: null, risk_score: null },
        { modality: 'ppg', status: 'performed', prediction: 'Irregular pulse', risk_score: 0.55 },
        { modality: 'ecg', status: 'performed', prediction: 'Normal sinus rhythm', risk_score: 0.1 },
      ],
      recommendations: ['Repeat the pulse recording at rest.'],
      combined_at: '2026-11-21T10:10:00.000Z',
      based_on: 3,
      out_of: 4,
    };
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () =>
        json(200, makeScreening({ status: 'completed', clinical: makeClinicalRecord(), combined })),
      'GET /api/analyses': () => json(200, []),
    });
    renderApp('/sensor-ecg?screening=s-1');
    const result = await screen.findByRole('region', { name: 'Combined screening result' });
    expect(result).toHaveTextContent('Overall risk 55.0% (from PPG)');
    expect(within(result).getByText(/based on/)).toHaveTextContent('Moderate Risk · based on 3 of 4');
    expect(within(result).getByText('Repeat the pulse recording at rest.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Analyze ECG Data' })).not.toBeInTheDocument();
    expect(requestsTo(fake, 'POST', '/api/screenings/s-1/combine')).toHaveLength(0);
  });

  it('signs off the results not yet reviewed with the screening, unless the doctor unticks one', async () => {
    const combined: CombinedResult = {
      screening_id: 's-1',
      driver: 'ecg',
      risk_score: 0.3,
      risk_level: 'low',
      rule: 'Overall risk = the highest risk score among the modalities that could be judged.',
      modalities: [
        {
          modality: 'clinical',
          status: 'performed',
          prediction: 'Coronary artery disease unlikely',
          risk_score: 0.2,
          analysis_id: 'a-clin',
        },
        {
          modality: 'pcg',
          status: 'performed',
          prediction: 'Normal heart sounds',
          risk_score: 0.1,
          analysis_id: 'a-pcg',
        },
        { modality: 'ppg', status: 'not_performed', prediction: null, risk_score: null },
        {
          modality: 'ecg',
          status: 'performed',
          prediction: 'Normal sinus rhythm',
          risk_score: 0.3,
          analysis_id: 'a-ecg',
        },
      ],
      recommendations: [],
      combined_at: '2026-11-21T10:10:00.000Z',
      based_on: 3,
      out_of: 4,
    };
    const reviewed: Review = {
      id: 'r-0',
      reviewerId: 'u-1',
      reviewerName: 'Ana Ruiz',
      agreement: 'agree',
      comment: '',
      createdAt: '2026-11-21T10:05:00.000Z',
    };
    let signed: Review[] = [];
    const fake = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () =>
        json(200, makeScreening({ status: 'completed', clinical: makeClinicalRecord(), combined })),
      'GET /api/analyses': () =>
        json(200, [
          makeAnalysis({ id: 'a-clin', modality: 'clinical', screeningId: 's-1' }),
          makeAnalysis({ id: 'a-pcg', modality: 'pcg', screeningId: 's-1', review: reviewed }),
          makeAnalysis({ id: 'a-ecg', modality: 'ecg', screeningId: 's-1' }),
        ]),
      'GET /api/screenings/s-1/reviews': () => json(200, signed),
      'POST /api/screenings/s-1/reviews': () => {
        signed = [{ ...reviewed, id: 'r-1' }];
        return json(201, signed[0]);
      },
    });
    renderApp('/sensor-ecg?screening=s-1');
    const panel = (await screen.findByRole('heading', { name: 'Doctor review' })).closest('section') as HTMLElement;
    const settle = await within(panel).findByRole('group', { name: "Sign off this screening's results with it" });
    const boxes = within(settle).getAllByRole('checkbox');
    // The PCG result has its own review: only the other two are offered, ticked.
    expect(boxes.map((box) => box.parentElement?.textContent)).toEqual([
      'Clinical: Coronary artery disease unlikely',
      'ECG: Normal sinus rhythm',
    ]);
    expect(boxes.every((box) => (box as HTMLInputElement).checked)).toBe(true);

    const user = userEvent.setup();
    await user.click(within(settle).getByRole('checkbox', { name: 'Clinical: Coronary artery disease unlikely' }));
    await user.click(within(panel).getByRole('radio', { name: 'Agree' }));
    await user.click(within(panel).getByRole('button', { name: 'Sign off' }));
    await within(panel).findByText('Reviewed');
    const [sent] = requestsTo(fake, 'POST', '/api/screenings/s-1/reviews');
    expect(await sent?.json()).toEqual({ agreement: 'agree', comment: '', settle_analyses: ['a-ecg'] });
  });
});
