import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PredictionResult } from '../../api/client';
import { makeScreening } from '../../test/fixtures';
import { fakeSamplingContext, fakeVideo, stubObjectUrls, type FakeVideoFile } from '../../test/media';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

const PPG_RESULT: PredictionResult = {
  analysis_id: 'a-7',
  model: 'PPG',
  label: 'normal',
  prediction: 'Regular pulse rhythm',
  confidence: 0.9,
  risk_score: 0.1,
  recommendations: [],
  details: {},
};

function server() {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/screenings/s-1': () => json(200, makeScreening()),
    'GET /api/analyses': () => json(200, []),
    'POST /api/predict/ppg/upload': () => json(200, PPG_RESULT),
  });
}

let urls: ReturnType<typeof stubObjectUrls>;
beforeEach(() => {
  urls = stubObjectUrls();
});
afterEach(() => {
  urls.restore();
  vi.restoreAllMocks();
});

/** Opens the PPG step; returns the file input and the hidden element that reads videos. */
async function openPpgStep() {
  const fake = server();
  const { unmount } = renderApp('/sensor-ppg?screening=s-1');
  const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;
  const video = document.querySelector<HTMLVideoElement>('video.visually-hidden') as HTMLVideoElement;
  return { fake, input, video, unmount, user: userEvent.setup({ applyAccept: false }) };
}

/** Makes the page's hidden video element play `file`, its frames sampled on a fake canvas. */
function playVideo(video: HTMLVideoElement, file: FakeVideoFile) {
  const controls = fakeVideo(video, file);
  const context = fakeSamplingContext(controls.red);
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    // Only the 32x24 sampling canvas; the live waveform's canvas draws nothing in jsdom.
    return this.width === 32 ? (context as unknown as CanvasRenderingContext2D) : null;
  } as HTMLCanvasElement['getContext']);
  return controls;
}

const webm = (name = 'finger.webm') => new File(['webm bytes'], name, { type: 'video/webm' });

describe('PPG step: file rule (spec §5: audio or video, and the CSV/TXT the camera path produces)', () => {
  it('accepts a .txt, .csv, audio and video file, and refuses a PDF with the spec text', async () => {
    const { fake, input, video, user } = await openPpgStep();
    playVideo(video, { seconds: 10 });
    expect(input.accept.split(',')).toEqual(expect.arrayContaining(['.csv', '.txt', 'audio/*', 'video/*', '.webm']));

    await user.upload(input, new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' }));
    expect(screen.getByRole('alert')).toHaveTextContent(/^Please upload an audio\/video file$/);
    expect(requestsTo(fake, 'POST', '/api/predict/ppg/upload')).toHaveLength(0);

    for (const file of [
      new File(['time,ppg\n'], 'pulse.txt', { type: 'text/plain' }),
      new File(['time,ppg\n'], 'pulse.csv', { type: 'text/csv' }),
      new File(['RIFF'], 'pulse.wav', { type: 'audio/wav' }),
    ]) {
      await user.upload(input, file);
      expect(await screen.findByText('Analysed: Regular pulse rhythm')).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    }
    expect(requestsTo(fake, 'POST', '/api/predict/ppg/upload')).toHaveLength(3);

    // A video (here known by its extension only) is read in the browser, not sent.
    await user.upload(input, new File(['mp4 bytes'], 'finger.MOV', { type: '' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Reading video frames: 0%');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(requestsTo(fake, 'POST', '/api/predict/ppg/upload')).toHaveLength(3);
  });
});

describe('PPG step: a video file read in the browser', () => {
  it('shows its progress, then uploads the pulse as <name>.csv and completes the step', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const { fake, input, video, user } = await openPpgStep();
    const controls = playVideo(video, {
      seconds: 3,
      red: (time) => Math.round(150 + 20 * Math.sin(2 * Math.PI * 1.2 * time)),
    });

    await user.upload(input, webm());
    expect(await screen.findByRole('status')).toHaveTextContent('Reading video frames: 0%');
    expect(screen.getByRole('progressbar', { name: 'Video reading progress' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Recording' })).toBeDisabled();
    act(() => controls.present(45));
    // 45 frames: the last at 44/30 s of a 3 s video.
    expect(screen.getByRole('status')).toHaveTextContent('Reading video frames: 49%');
    expect(screen.getByText('Data Points').nextElementSibling).toHaveTextContent('45');
    expect(screen.getByText('Duration').nextElementSibling).toHaveTextContent('1.47 s');

    act(() => controls.present());
    expect(await screen.findByText('Analysed: Regular pulse rhythm')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Completed');
    expect(screen.getByText('Selected: finger.csv', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue to ECG' })).toHaveAttribute('href', '/sensor-ecg?screening=s-1');
    expect(requestsTo(fake, 'POST', '/api/predict/ppg/upload')).toHaveLength(1);
    const sent = append.mock.calls.find(([name]) => name === 'file')?.[1] as File;
    expect(sent.name).toBe('finger.csv');
    expect(sent.type).toBe('text/csv');
    const lines = (await sent.text()).trim().split('\n');
    // Frames at 0 .. 89/30 s, resampled to 30 Hz: 90 rows after the header, the red level inverted.
    expect(lines).toHaveLength(91);
    expect(lines[0]).toBe('time,PPG');
    expect(lines[1]).toBe('0.0000,-150.000000');
    expect(lines[90]?.startsWith('2.9667,')).toBe(true);
    expect(urls.revoke).toHaveBeenCalledWith('blob:video-1');
    expect(video.getAttribute('src')).toBeNull();
  });

  it('a video the browser cannot decode gives the specific message and keeps the step as it was', async () => {
    const { fake, input, video, user } = await openPpgStep();
    await user.upload(input, new File(['time,ppg\n'], 'pulse.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Analysed: Regular pulse rhythm')).toBeInTheDocument();
    playVideo(video, { seconds: 10, decodeError: true });

    await user.upload(input, webm('broken.webm'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This video could not be decoded by the browser. Try an MP4 (H.264) or WebM file, or upload the pulse signal as a CSV file.',
    );
    expect(screen.getByText('Analysed: Regular pulse rhythm')).toBeInTheDocument();
    expect(screen.getByText('Selected: pulse.csv', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Completed');
    expect(requestsTo(fake, 'POST', '/api/predict/ppg/upload')).toHaveLength(1);
    expect(urls.revoke).toHaveBeenCalledWith('blob:video-1');
  });

  it('a video with fewer than 2 s of frames is refused with its length', async () => {
    const { fake, input, video, user } = await openPpgStep();
    playVideo(video, { seconds: 1.5, autoplay: true });
    await user.upload(input, webm('short.webm'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The video is too short: only 1.5 s of frames were read, and at least 2 s are needed.',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Ready');
    expect(screen.getByRole('button', { name: 'Continue to ECG' })).toBeDisabled();
    expect(requestsTo(fake, 'POST', '/api/predict/ppg/upload')).toHaveLength(0);
  });

  it('a video longer than 120 s is read for its first 120 s, and the page says so', async () => {
    const append = vi.spyOn(FormData.prototype, 'append');
    const { input, video, user } = await openPpgStep();
    playVideo(video, { seconds: 125, autoplay: true });
    await user.upload(input, webm('long.webm'));
    expect(await screen.findByText('Analysed: Regular pulse rhythm')).toBeInTheDocument();
    expect(screen.getByText('The video is longer than 120 s: only its first 120 s were read.')).toBeInTheDocument();
    const sent = append.mock.calls.find(([name]) => name === 'file')?.[1] as File;
    expect((await sent.text()).trim().split('\n').at(-1)?.startsWith('119.9667,')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.queryByText(/only its first 120 s were read/)).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Ready');
  });

  it('Cancel stops the reading, lets the file go and sends nothing', async () => {
    const { fake, input, video, user } = await openPpgStep();
    const controls = playVideo(video, { seconds: 10 });
    await user.upload(input, webm());
    expect(await screen.findByRole('status')).toHaveTextContent('Reading video frames: 0%');
    act(() => controls.present(60));

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('status')).toHaveTextContent('Ready');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText('Data Points').nextElementSibling).toHaveTextContent('0');
    await vi.waitFor(() => expect(urls.revoke).toHaveBeenCalledWith('blob:video-1'));
    expect(controls.calls.slice(-3)).toEqual(['pause', 'remove src', 'load']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(requestsTo(fake, 'POST', '/api/predict/ppg/upload')).toHaveLength(0);
  });

  it('leaving the page stops the reading and lets the file go', async () => {
    const { fake, input, video, unmount, user } = await openPpgStep();
    const controls = playVideo(video, { seconds: 10 });
    await user.upload(input, webm());
    expect(await screen.findByRole('status')).toHaveTextContent('Reading video frames: 0%');
    act(() => controls.present(30));

    unmount();
    await vi.waitFor(() => expect(urls.revoke).toHaveBeenCalledWith('blob:video-1'));
    expect(controls.calls.slice(-3)).toEqual(['pause', 'remove src', 'load']);
    controls.present();
    expect(requestsTo(fake, 'POST', '/api/predict/ppg/upload')).toHaveLength(0);
  });
});
