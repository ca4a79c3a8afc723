import { createPulseSampler, PULSE_RATE_HZ, type PulseSampler } from './pulseFrames';

/** A longer video is read only for its first 120 s. */
export const VIDEO_LIMIT_S = 120;
/** A video with fewer seconds of frames than this is refused. */
export const MIN_VIDEO_S = 2;
/** Videos are played this much faster than real time; every frame keeps its own media time. */
export const VIDEO_PLAYBACK_RATE = 2;
/**
 * Below this many frames per media second (the browser presenting fewer frames than a camera takes,
 * e.g. on a busy machine), the rest of the video is played at normal speed.
 */
export const MIN_FRAMES_PER_S = 24;
/** How long the browser may take to find the duration of a file that does not state it. */
const DURATION_PROBE_MS = 3000;

/** Why a video gave no pulse signal. */
export type VideoProblem = 'decode' | 'noPicture' | 'tooShort';

/** A video that gave no pulse signal, with the seconds of frames read (for `tooShort`). */
export class VideoReadError extends Error {
  readonly problem: VideoProblem;
  readonly seconds: number;

  constructor(problem: VideoProblem, seconds = 0) {
    super(`video: ${problem}`);
    this.name = 'VideoReadError';
    this.problem = problem;
    this.seconds = seconds;
  }
}

/** Where the reading stands after a frame: `fraction` of the part to read, null when the length is unknown. */
export interface VideoFrameProgress {
  frames: number;
  seconds: number;
  fraction: number | null;
  /** The frame's value relative to the first frame (for a live waveform). */
  point: number;
}

export interface VideoPulse {
  sampler: PulseSampler;
  /** True when the video was longer than [`VIDEO_LIMIT_S`] and only its beginning was read. */
  truncated: boolean;
}

export interface ReadVideoOptions {
  signal: AbortSignal;
  onFrame?: (progress: VideoFrameProgress) => void;
  sampler?: PulseSampler;
}

/** 'video.webm' -> 'video.csv' (the name of the pulse signal read from it). */
export function csvName(videoName: string): string {
  const dot = videoName.lastIndexOf('.');
  return `${dot > 0 ? videoName.slice(0, dot) : videoName}.csv`;
}

/**
 * Reads the pulse from a video file of a fingertip over the lens, in the browser (the server does not
 * decode video): `video` plays the file muted, faster than real time, and every decoded frame is
 * sampled at its own media time (`requestVideoFrameCallback`; where the browser lacks it, the file is
 * stepped through at 1/30 s seeks). Only the first [`VIDEO_LIMIT_S`] are read. The element is emptied
 * and the object URL revoked when done, failed or aborted.
 *
 * # Errors
 * `VideoReadError` `decode` when the browser cannot decode the file, `noPicture` when it has no video
 * track, `tooShort` when fewer than [`MIN_VIDEO_S`] of frames were read; the signal's reason when aborted.
 */
export async function readVideoPulse(
  video: HTMLVideoElement,
  file: Blob,
  { signal, onFrame, sampler = createPulseSampler() }: ReadVideoOptions,
): Promise<VideoPulse> {
  signal.throwIfAborted();
  const url = URL.createObjectURL(file);
  try {
    video.muted = true;
    video.playsInline = true;
    video.preload = 'auto';
    video.src = url;
    await waitFor(video, ['loadedmetadata'], signal);
    if (!video.videoWidth || !video.videoHeight) throw new VideoReadError('noPicture');
    const duration = await knownDuration(video, signal);
    const end = Math.min(duration ?? VIDEO_LIMIT_S, VIDEO_LIMIT_S);
    const take = (time: number) => {
      const point = sampler.add(video, time);
      onFrame?.({
        frames: sampler.count,
        seconds: sampler.seconds,
        fraction: duration === null ? null : Math.min(1, time / end),
        point,
      });
    };
    const truncated =
      typeof video.requestVideoFrameCallback === 'function'
        ? await playFrames(video, take, signal)
        : await seekFrames(video, duration, take, signal);
    if (sampler.seconds < MIN_VIDEO_S) throw new VideoReadError('tooShort', sampler.seconds);
    return { sampler, truncated };
  } finally {
    video.pause();
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

/**
 * Resolves with the first of `types` that `video` fires ('timeout' after `timeoutMs`, when given);
 * rejects on the element's `error` event (the browser cannot decode the file) or when aborted.
 */
function waitFor(video: HTMLVideoElement, types: string[], signal: AbortSignal, timeoutMs?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let timer: number | undefined;
    const done = () => {
      window.clearTimeout(timer);
      for (const type of types) video.removeEventListener(type, onEvent);
      video.removeEventListener('error', onError);
      signal.removeEventListener('abort', onAbort);
    };
    const onEvent = (event: Event) => {
      done();
      resolve(event.type);
    };
    const onError = () => {
      done();
      reject(new VideoReadError('decode'));
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    for (const type of types) video.addEventListener(type, onEvent);
    video.addEventListener('error', onError);
    signal.addEventListener('abort', onAbort);
    if (timeoutMs !== undefined) {
      timer = window.setTimeout(() => {
        done();
        resolve('timeout');
      }, timeoutMs);
    }
  });
}

/**
 * The video's duration in seconds, or null when the browser cannot tell. A WebM written by
 * MediaRecorder states none: seeking far past its end makes the browser find it.
 */
async function knownDuration(video: HTMLVideoElement, signal: AbortSignal): Promise<number | null> {
  if (Number.isFinite(video.duration)) return video.duration;
  const seeked = waitFor(video, ['seeked'], signal, DURATION_PROBE_MS);
  video.currentTime = Number.MAX_SAFE_INTEGER;
  await seeked;
  const duration = video.duration;
  const back = waitFor(video, ['seeked'], signal, DURATION_PROBE_MS);
  video.currentTime = 0;
  await back;
  return Number.isFinite(duration) ? duration : null;
}

/**
 * Plays the file and samples each frame the browser presents; resolves with "truncated". Playback
 * falls back to normal speed when frames are being skipped (fewer than [`MIN_FRAMES_PER_S`] over a
 * media second), and waits while the page is hidden (a hidden page presents no frames).
 */
function playFrames(video: HTMLVideoElement, take: (time: number) => void, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let handle = 0;
    let settled = false;
    // Frames presented since `start` (media seconds), to notice skipped frames.
    let recent = { start: -1, frames: 0 };
    const settle = () => {
      settled = true;
      video.cancelVideoFrameCallback(handle);
      video.removeEventListener('ended', onEnded);
      video.removeEventListener('error', onError);
      signal.removeEventListener('abort', onAbort);
      document.removeEventListener('visibilitychange', onVisibility);
      video.pause();
    };
    const play = () => {
      video.play().catch((cause: unknown) => {
        // An AbortError is a play() interrupted by the pause of a hidden page; it plays on when shown.
        if (settled || (cause instanceof DOMException && cause.name === 'AbortError')) return;
        settle();
        reject(signal.aborted ? signal.reason : new VideoReadError('decode'));
      });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') video.pause();
      else play();
    };
    const onFrame: VideoFrameRequestCallback = (_now, metadata) => {
      if (settled) return;
      if (metadata.mediaTime >= VIDEO_LIMIT_S) {
        settle();
        resolve(true);
        return;
      }
      take(metadata.mediaTime);
      if (video.playbackRate > 1) {
        if (recent.start < 0) recent = { start: metadata.mediaTime, frames: 0 };
        else recent.frames += 1;
        const span = metadata.mediaTime - recent.start;
        if (span >= 1) {
          if (recent.frames / span < MIN_FRAMES_PER_S) video.playbackRate = 1;
          recent = { start: metadata.mediaTime, frames: 0 };
        }
      }
      handle = video.requestVideoFrameCallback(onFrame);
    };
    const onEnded = () => {
      settle();
      resolve(false);
    };
    const onError = () => {
      settle();
      reject(new VideoReadError('decode'));
    };
    const onAbort = () => {
      settle();
      reject(signal.reason);
    };
    video.addEventListener('ended', onEnded);
    video.addEventListener('error', onError);
    signal.addEventListener('abort', onAbort);
    document.addEventListener('visibilitychange', onVisibility);
    handle = video.requestVideoFrameCallback(onFrame);
    video.playbackRate = VIDEO_PLAYBACK_RATE;
    if (document.visibilityState !== 'hidden') play();
  });
}

/**
 * The fallback without `requestVideoFrameCallback`: seeks through the file every 1/30 s and samples
 * the frame shown at the time the browser reports; resolves with "truncated".
 */
async function seekFrames(
  video: HTMLVideoElement,
  duration: number | null,
  take: (time: number) => void,
  signal: AbortSignal,
): Promise<boolean> {
  let previous = -Infinity;
  for (let i = 0; ; i += 1) {
    const target = i / PULSE_RATE_HZ;
    if (duration !== null && target > duration) return false;
    if (target >= VIDEO_LIMIT_S) return true;
    const seeked = waitFor(video, ['seeked'], signal);
    video.currentTime = target;
    await seeked;
    const time = video.currentTime;
    // A file of unknown length ends where a seek no longer moves forward.
    if (time <= previous) return false;
    previous = time;
    take(time);
  }
}
