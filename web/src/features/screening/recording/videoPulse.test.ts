import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSamplingContext, fakeVideo, stubObjectUrls, type FakeVideoFile } from '../../../test/media';
import { createPulseSampler, type FrameCanvas } from './pulseFrames';
import { csvName, readVideoPulse, VIDEO_LIMIT_S, VideoReadError, type VideoFrameProgress } from './videoPulse';

const VIDEO = new File(['not really a video'], 'finger.webm', { type: 'video/webm' });

let urls: ReturnType<typeof stubObjectUrls>;
beforeEach(() => {
  urls = stubObjectUrls();
});
afterEach(() => {
  urls.restore();
  Reflect.deleteProperty(document, 'visibilityState');
});

/** Reads a synthetic file through a fake element; returns the outcome, the progress reports and the element's log. */
async function read(file: FakeVideoFile, signal = new AbortController().signal) {
  const video = document.createElement('video');
  const controls = fakeVideo(video, { autoplay: true, ...file });
  const sampler = createPulseSampler(fakeSamplingContext(controls.red) as unknown as FrameCanvas);
  const progress: VideoFrameProgress[] = [];
  const outcome = await readVideoPulse(video, VIDEO, { signal, sampler, onFrame: (p) => progress.push(p) }).then(
    (value) => ({ value, error: null }),
    (error: unknown) => ({ value: null, error }),
  );
  return { ...outcome, progress, calls: controls.calls, sampler };
}

describe('reading the pulse from a video file', () => {
  it('names the signal after the video', () => {
    expect(csvName('finger.webm')).toBe('finger.csv');
    expect(csvName('clip.2024.mp4')).toBe('clip.2024.csv');
    expect(csvName('video')).toBe('video.csv');
  });

  it('says the file cannot be decoded when the element fails to load it, and lets the file go', async () => {
    const { error, calls, progress } = await read({ seconds: 10, decodeError: true });
    expect(error).toBeInstanceOf(VideoReadError);
    expect((error as VideoReadError).problem).toBe('decode');
    expect(progress).toHaveLength(0);
    expect(calls).toEqual(['src blob:video-1', 'pause', 'remove src', 'load']);
    expect(urls.revoke).toHaveBeenCalledWith('blob:video-1');
  });

  it('refuses a video with fewer than 2 s of frames and says how long it was', async () => {
    const { error, progress } = await read({ seconds: 1.5 });
    expect(error).toBeInstanceOf(VideoReadError);
    expect((error as VideoReadError).problem).toBe('tooShort');
    // 45 frames at 30 frames/s: the last one at 44/30 s.
    expect((error as VideoReadError).seconds).toBeCloseTo(44 / 30, 6);
    expect(progress).toHaveLength(45);
    expect(urls.revoke).toHaveBeenCalledWith('blob:video-1');
  });

  it('refuses a file without a picture', async () => {
    const { error } = await read({ seconds: 10, width: 0 });
    expect((error as VideoReadError).problem).toBe('noPicture');
  });

  it('samples every presented frame at its media time, finding the length of a file that states none', async () => {
    const { value, error, progress, calls } = await read({
      seconds: 12,
      statedDuration: Infinity,
      red: (time) => Math.round(150 + 20 * Math.sin(2 * Math.PI * 1.2 * time)),
    });
    expect(error).toBeNull();
    expect(value?.truncated).toBe(false);
    expect(progress).toHaveLength(360);
    expect(progress[0]).toMatchObject({ frames: 1, seconds: 0, fraction: 0, point: 0 });
    expect(progress[180]?.fraction).toBeCloseTo(180 / 30 / 12, 6);
    expect(progress[359]?.seconds).toBeCloseTo(359 / 30, 6);
    // Frames at 0 .. 359/30 s resampled to 30 Hz: 360 samples, the red level inverted.
    const uniform = value?.sampler.uniform() ?? [];
    expect(uniform).toHaveLength(360);
    expect(uniform[0]).toBe(-150);
    expect(uniform[90]).toBe(-Math.round(150 + 20 * Math.sin(2 * Math.PI * 1.2 * 3)));
    expect(calls).toEqual(['src blob:video-1', 'play', 'pause', 'pause', 'remove src', 'load']);
    expect(urls.revoke).toHaveBeenCalledWith('blob:video-1');
  });

  it('reads only the first 120 s of a longer video and says so', async () => {
    const { value, progress } = await read({ seconds: 130 });
    expect(value?.truncated).toBe(true);
    expect(progress).toHaveLength(VIDEO_LIMIT_S * 30);
    expect(progress.at(-1)?.seconds).toBeCloseTo(VIDEO_LIMIT_S - 1 / 30, 6);
    expect(progress.at(-1)?.fraction).toBeCloseTo(1 - 1 / 30 / VIDEO_LIMIT_S, 6);
  });

  it.each([
    [30, 2],
    [15, 1],
  ])(
    'a video whose frames come %i times a media second is played at %ix speed after its first second',
    async (fps, rate) => {
      const video = document.createElement('video');
      const controls = fakeVideo(video, { seconds: 4, fps, autoplay: true });
      const rates: number[] = [];
      await readVideoPulse(video, VIDEO, {
        signal: new AbortController().signal,
        sampler: createPulseSampler(fakeSamplingContext(controls.red) as unknown as FrameCanvas),
        onFrame: () => rates.push(video.playbackRate),
      });
      expect(rates[0]).toBe(2);
      expect(rates.at(-1)).toBe(rate);
    },
  );

  it('without requestVideoFrameCallback, steps through the file every 1/30 s', async () => {
    const { value, progress, calls } = await read({ seconds: 3, frameCallbacks: false });
    expect(value?.truncated).toBe(false);
    expect(calls).not.toContain('play');
    // 0, 1/30, ..., 3 s: 91 seeks.
    expect(progress).toHaveLength(91);
    expect(progress[1]?.seconds).toBeCloseTo(1 / 30, 6);
    expect(value?.sampler.seconds).toBeCloseTo(3, 6);
  });

  it('waits while the page is hidden (a hidden page presents no frames)', async () => {
    const visibility = { state: 'visible' };
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility.state });
    const video = document.createElement('video');
    const controls = fakeVideo(video, { seconds: 3 });
    const reading = readVideoPulse(video, VIDEO, {
      signal: new AbortController().signal,
      sampler: createPulseSampler(fakeSamplingContext(controls.red) as unknown as FrameCanvas),
    });
    await vi.waitFor(() => expect(controls.calls).toContain('play'));
    controls.present(30);

    visibility.state = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(controls.calls.slice(-1)).toEqual(['pause']);
    visibility.state = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(controls.calls.slice(-2)).toEqual(['pause', 'play']);
    controls.present();

    const { sampler } = await reading;
    expect(sampler.count).toBe(90);
  });

  it('stops and lets the file go when aborted', async () => {
    const controller = new AbortController();
    const video = document.createElement('video');
    const controls = fakeVideo(video, { seconds: 10 });
    const reading = readVideoPulse(video, VIDEO, {
      signal: controller.signal,
      sampler: createPulseSampler(fakeSamplingContext(controls.red) as unknown as FrameCanvas),
      onFrame: () => undefined,
    });
    await new Promise((wait) => setTimeout(wait, 20));
    controls.present(30);
    controller.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(controls.calls.slice(-3)).toEqual(['pause', 'remove src', 'load']);
    expect(urls.revoke).toHaveBeenCalledWith('blob:video-1');
  });
});
