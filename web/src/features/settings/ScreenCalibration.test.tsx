import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SCREEN_PX_PER_MM_KEY } from '../../lib/screenCalibration';
import { ScreenCalibration } from './ScreenCalibration';

const line = () => screen.getByTestId('screen-calibration-line');

describe('Screen calibration', () => {
  it('matches a line to a bank card or a ruler and keeps px per mm in this browser', async () => {
    render(<ScreenCalibration />);
    expect(screen.getByRole('status')).toHaveTextContent('This screen is not calibrated yet.');
    // It starts from the browser's 96 px per inch: 85.60 mm is 324 px.
    expect(screen.getByRole('radio', { name: /bank card \(85\.60 mm, ISO\/IEC 7810 ID-1\)/ })).toBeChecked();
    expect(line().style.width).toBe('324px');

    // The slider, then the buttons.
    const slider = screen.getByRole('slider', { name: 'Line length' });
    fireEvent.change(slider, { target: { value: '326' } });
    expect(line().style.width).toBe('326px');
    expect(slider).toHaveAttribute('aria-valuetext', '326 pixels');
    await userEvent.click(screen.getByRole('button', { name: 'Longer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Longer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Shorter' }));
    expect(line().style.width).toBe('327px');
    await userEvent.click(screen.getByRole('button', { name: 'Save calibration' }));
    // 327 px / 85.6 mm = 3.820 px/mm.
    expect(window.localStorage.getItem(SCREEN_PX_PER_MM_KEY)).toBe('3.82');
    expect(screen.getByRole('status')).toHaveTextContent('This screen is calibrated: 3.82 pixels per millimetre.');

    // The same scale against a ruler is a 382 px line for 100 mm; a 400 px line is 4 px/mm.
    await userEvent.click(screen.getByRole('radio', { name: '100 mm on a ruler' }));
    expect(line().style.width).toBe('382px');
    for (let i = 0; i < 18; i += 1) await userEvent.click(screen.getByRole('button', { name: 'Longer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save calibration' }));
    expect(window.localStorage.getItem(SCREEN_PX_PER_MM_KEY)).toBe('4');

    await userEvent.click(screen.getByRole('button', { name: 'Forget calibration' }));
    expect(window.localStorage.getItem(SCREEN_PX_PER_MM_KEY)).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('This screen is not calibrated yet.');
  });
});
