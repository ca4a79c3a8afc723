import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CombinedResult } from '../../api/client';
import { makeClinicalRecord, makeScreening } from '../../test/fixtures';
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
});
