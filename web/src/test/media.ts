/**
 * Test doubles for reading a video in the browser: a `<video>` element that "decodes" a synthetic
 * file frame by frame, and the 2D context of the small sampling canvas, whose pixels have the red
 * level of the frame last drawn.
 */
import { vi } from 'vitest';

export interface FakeVideoFile {
  /** Seconds of frames in the file. */
  seconds: number;
  fps?: number;
  /** The duration the browser states before it has seen the whole file (Infinity for a MediaRecorder WebM). */
  statedDuration?: number;
  /** The browser cannot decode the file (the element fires `error`). */
  decodeError?: boolean;
  /** 0 for a file without a video track. */
  width?: number;
  /** Whether the element has `requestVideoFrameCallback` (else the reader seeks). */
  frameCallbacks?: boolean;
  /** Frames are presented as soon as the file plays; otherwise the test calls `present`. */
  autoplay?: boolean;
  /** The red level (0-255) of the frame at a media time. */
  red?: (time: number) => number;
}

/** Turns `video` into a player of a synthetic file; returns the controls and what the element was asked. */
export function fakeVideo(video: HTMLVideoElement, file: FakeVideoFile) {
  const fps = file.fps ?? 30;
  const frames = Math.round(file.seconds * fps);
  const width = file.width ?? 320;
  const red = file.red ?? (() => 128);
  const calls: string[] = [];
  let src = '';
  let time = 0;
  let duration = file.statedDuration ?? file.seconds;
  let next = 0;
  let handles = 0;
  const callbacks = new Map<number, VideoFrameRequestCallback>();
  const fire = (type: string) => window.setTimeout(() => video.dispatchEvent(new Event(type)), 0);

  /** Presents the next `count` frames (all that are left by default); `ended` after the last. */
  const present = (count = Infinity) => {
    for (let i = 0; i < count && next < frames; i += 1) {
      time = next / fps;
      next += 1;
      const waiting = [...callbacks.values()];
      callbacks.clear();
      for (const callback of waiting) {
        callback(performance.now(), { mediaTime: time } as VideoFrameCallbackMetadata);
      }
    }
    if (next >= frames) video.dispatchEvent(new Event('ended'));
  };

  const define = (name: string, descriptor: PropertyDescriptor) =>
    Object.defineProperty(video, name, { configurable: true, ...descriptor });
  define('src', {
    get: () => src,
    set: (value: string) => {
      src = value;
      calls.push(`src ${value}`);
      if (value) fire(file.decodeError ? 'error' : 'loadedmetadata');
    },
  });
  define('videoWidth', { get: () => width });
  define('videoHeight', { get: () => (width ? 240 : 0) });
  define('duration', { get: () => duration });
  define('currentTime', {
    get: () => time,
    set: (value: number) => {
      time = Math.min(Math.max(0, value), file.seconds);
      if (value > file.seconds) duration = file.seconds;
      fire('seeked');
    },
  });
  define('play', {
    value: vi.fn(async () => {
      calls.push('play');
      if (file.autoplay) window.setTimeout(() => present(), 0);
    }),
  });
  define('pause', { value: vi.fn(() => calls.push('pause')) });
  define('load', { value: vi.fn(() => calls.push('load')) });
  define('removeAttribute', {
    value: (name: string) => {
      calls.push(`remove ${name}`);
      if (name === 'src') src = '';
      else Element.prototype.removeAttribute.call(video, name);
    },
  });
  if (file.frameCallbacks === false) {
    define('requestVideoFrameCallback', { value: undefined });
  } else {
    define('requestVideoFrameCallback', {
      value: (callback: VideoFrameRequestCallback) => {
        handles += 1;
        callbacks.set(handles, callback);
        return handles;
      },
    });
    define('cancelVideoFrameCallback', { value: (handle: number) => callbacks.delete(handle) });
  }
  return {
    calls,
    present,
    /** The red level of the frame shown now. */
    red: () => red(time),
  };
}

/** A 2D context whose every pixel has the red level `red()` had when the last frame was drawn. */
export function fakeSamplingContext(red: () => number) {
  let level = 0;
  return {
    drawImage: vi.fn(() => {
      level = red();
    }),
    getImageData: vi.fn((_x: number, _y: number, w: number, h: number) => {
      const data = new Uint8ClampedArray(w * h * 4);
      for (let i = 0; i < data.length; i += 4) {
        data[i] = level;
        data[i + 1] = 40;
        data[i + 2] = 30;
        data[i + 3] = 255;
      }
      return { data, width: w, height: h } as ImageData;
    }),
  };
}

/**
 * `URL.createObjectURL` / `revokeObjectURL` stubs; the created URLs are numbered. `restore` puts
 * the originals back.
 */
export function stubObjectUrls() {
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  let count = 0;
  const create = vi.fn(() => {
    count += 1;
    return `blob:video-${count}`;
  });
  const revoke = vi.fn();
  Object.defineProperty(URL, 'createObjectURL', { value: create, configurable: true, writable: true });
  Object.defineProperty(URL, 'revokeObjectURL', { value: revoke, configurable: true, writable: true });
  const restore = () => {
    Object.defineProperty(URL, 'createObjectURL', { value: original.create, configurable: true, writable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: original.revoke, configurable: true, writable: true });
  };
  return { create, revoke, restore };
}
