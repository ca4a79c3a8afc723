import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PredictionResult } from '../../../api/client';
import { makeScreening } from '../../../test/fixtures';
import { encodeWav } from '../../../lib/wav';
import { json, makeUser, mockServer, renderApp } from '../../../test/utils';
import { peakOf } from './useAudioRecording';

const RESULT: PredictionResult = {
  analysis_id: 'a-1',
  model: 'PCG',
  label: 'normal',
  prediction: 'Normal heart sounds',
  confidence: 0.9,
  risk_score: 0.1,
  recommendations: [],
  details: {},
};

/** Replaces `navigator.mediaDevices` only (the rest of navigator, e.g. `onLine`, stays real). */
function setMicrophone(getUserMedia: () => Promise<unknown>) {
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
}

/** A fake microphone: the worklet node's port is kept so the test can feed blocks. */
function fakeAudio() {
  const ports: { onmessage: ((event: MessageEvent<Float32Array>) => void) | null }[] = [];
  const stopped: string[] = [];
  const stream = { getTracks: () => [{ stop: () => stopped.push('track') }] };
  setMicrophone(vi.fn(async () => stream));
  vi.stubGlobal(
    'AudioContext',
    class {
      sampleRate = 8000;
      audioWorklet = { addModule: vi.fn(async () => undefined) };
      createMediaStreamSource() {
        return { connect: () => undefined };
      }
      close() {
        stopped.push('context');
        return Promise.resolve();
      }
    },
  );
  vi.stubGlobal(
    'AudioWorkletNode',
    class {
      port: { onmessage: ((event: MessageEvent<Float32Array>) => void) | null } = { onmessage: null };
      constructor() {
        ports.push(this.port);
      }
      disconnect() {
        return undefined;
      }
    },
  );
  return { ports, stopped };
}

describe('PCG recording from the microphone', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('records, shows the data points, and uploads a WAV when stopped', async () => {
    const { ports, stopped } = fakeAudio();
    const append = vi.spyOn(FormData.prototype, 'append');
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () => json(200, makeScreening()),
      'GET /api/analyses': () => json(200, []),
      'POST /api/predict/pcg/upload': () => json(200, RESULT),
    });
    renderApp('/sensor-pcg?screening=s-1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Start Recording' }));
    expect(await screen.findByText('Recording...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDisabled();

    act(() => {
      for (let i = 0; i < 3; i += 1) {
        ports[0]?.onmessage?.({ data: new Float32Array(128).fill(0.25) } as MessageEvent<Float32Array>);
      }
    });
    expect(screen.getByText('Data Points').nextElementSibling).toHaveTextContent('384');

    await user.click(screen.getByRole('button', { name: 'Stop Recording' }));
    expect(await screen.findByText('Analysed: Normal heart sounds')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Completed');
    expect(stopped).toEqual(['track', 'context']);
    const call = append.mock.calls.find(([name]) => name === 'file');
    const file = call?.[1] as File;
    expect(file.name).toBe('pcg-recording.wav');
    expect(file.size).toBe(44 + 384 * 2);
    expect(screen.getByRole('link', { name: 'Continue to PPG' })).toBeInTheDocument();
  });

  it('says why when the microphone cannot be opened', async () => {
    fakeAudio();
    setMicrophone(vi.fn(async () => Promise.reject(new Error('Permission denied'))));
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () => json(200, makeScreening()),
      'GET /api/analyses': () => json(200, []),
    });
    renderApp('/sensor-pcg?screening=s-1');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Start Recording' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The microphone could not be opened (Permission denied). Allow microphone access, or upload a recording instead.',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Ready');
  });

  it('a waveform point keeps the sign of the largest sample of its block', () => {
    expect(peakOf(new Float32Array([0.1, -0.7, 0.5]))).toBe(-0.699999988079071);
    expect(peakOf(new Float32Array([]))).toBe(0);
  });
});

describe('PCG playback', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function server() {
    mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/screenings/s-1': () => json(200, makeScreening()),
      'GET /api/analyses': () => json(200, []),
      'POST /api/predict/pcg/upload': () => json(200, RESULT),
    });
  }

  async function uploadHeartSound() {
    const user = userEvent.setup();
    const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;
    await user.upload(input, new File(['RIFF'], 'heart.wav', { type: 'audio/wav' }));
    return user;
  }

  it('plays and pauses the uploaded file', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    server();
    renderApp('/sensor-pcg?screening=s-1');
    const user = await uploadHeartSound();
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    expect(play).toHaveBeenCalledTimes(1);
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(pause).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
  });

  it('plays a 1-kHz heart-sound WAV as an 8-kHz one (browsers refuse 1 kHz)', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const made: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      made.push(blob as Blob);
      return `blob:test/${made.length}`;
    });
    server();
    renderApp('/sensor-pcg?screening=s-1');
    const user = userEvent.setup();
    const input = (await screen.findByText('Browse Files')).parentElement?.querySelector('input') as HTMLInputElement;
    const wav = encodeWav(new Float32Array(1000), 1000);
    await user.upload(input, new File([await wav.arrayBuffer()], 'heart-1khz.wav', { type: 'audio/wav' }));
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    expect(play).toHaveBeenCalledTimes(1);
    const played = made.at(-1) as Blob;
    const view = new DataView(await played.arrayBuffer());
    expect(view.getUint32(24, true)).toBe(8000);
    expect(document.querySelector('audio')?.getAttribute('src')).toBe(`blob:test/${made.length}`);
  });

  it('says so when the audio cannot be played', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockRejectedValue(new Error('NotSupportedError'));
    server();
    renderApp('/sensor-pcg?screening=s-1');
    const user = await uploadHeartSound();
    await user.click(await screen.findByRole('button', { name: 'Play' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to play audio. Please try again.');
  });
});
