import { resampleUniform, signalCsv } from '../../../lib/resample';

/** The uniform rate a frame-by-frame pulse is resampled to before upload (a camera gives ~30 frames/s). */
export const PULSE_RATE_HZ = 30;
/** Frames are reduced to this many pixels before the mean is taken. */
export const SAMPLE_WIDTH = 32;
export const SAMPLE_HEIGHT = 24;

/** Mean of the red channel of RGBA pixels. */
export function meanRed(pixels: Uint8ClampedArray): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    sum += pixels[i] ?? 0;
    count += 1;
  }
  return count === 0 ? 0 : sum / count;
}

/**
 * What one frame shows, for the camera path: a fingertip over the lens with its light gives frames
 * that are red (blood lets red light through), nearly uniform across the image (the fingertip fills
 * it, out of focus) and neither dark nor saturated. A test pattern, a scene, a dark lens or a bare
 * light fails, and no pulse can be read from it.
 */
export type FrameView = 'fingertip' | 'dark' | 'saturated' | 'notRed' | 'notUniform';

/** Darkest mean red a lit fingertip gives (0-255). */
export const MIN_MEAN_RED = 40;
/** Red at or above which a pixel counts as saturated (0-255). */
export const SATURATED_RED = 250;
/** Largest share of saturated pixels. */
export const MAX_SATURATED_SHARE = 0.5;
/** Least ratio of the mean red to the mean green and to the mean blue. */
export const MIN_RED_RATIO = 1.5;
/** Largest coefficient of variation of the red channel across the frame. */
export const MAX_RED_CV = 0.3;
/** Least share of a recording's frames that must show a fingertip. */
export const MIN_FINGERTIP_SHARE = 0.5;

/** Which [`FrameView`] RGBA pixels (a frame reduced to a few hundred pixels) show. */
export function fingertipView(pixels: Uint8ClampedArray): FrameView {
  const count = Math.floor(pixels.length / 4);
  if (count === 0) return 'dark';
  let red = 0;
  let green = 0;
  let blue = 0;
  let saturated = 0;
  for (let i = 0; i + 3 < pixels.length; i += 4) {
    const r = pixels[i] ?? 0;
    red += r;
    green += pixels[i + 1] ?? 0;
    blue += pixels[i + 2] ?? 0;
    if (r >= SATURATED_RED) saturated += 1;
  }
  const meanRedLevel = red / count;
  if (meanRedLevel < MIN_MEAN_RED) return 'dark';
  if (saturated / count > MAX_SATURATED_SHARE) return 'saturated';
  if (meanRedLevel < MIN_RED_RATIO * (green / count) || meanRedLevel < MIN_RED_RATIO * (blue / count)) return 'notRed';
  let squares = 0;
  for (let i = 0; i + 3 < pixels.length; i += 4) squares += ((pixels[i] ?? 0) - meanRedLevel) ** 2;
  return Math.sqrt(squares / count) / meanRedLevel > MAX_RED_CV ? 'notUniform' : 'fingertip';
}

/** What the sampler needs of a 2D canvas context (a fake in tests). */
export type FrameCanvas = Pick<CanvasRenderingContext2D, 'drawImage' | 'getImageData'>;

/**
 * The small canvas every frame is drawn on.
 *
 * # Errors
 * Throws when the browser gives no 2D context.
 */
export function sampleCanvas(): FrameCanvas {
  const canvas = document.createElement('canvas');
  canvas.width = SAMPLE_WIDTH;
  canvas.height = SAMPLE_HEIGHT;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no 2D canvas');
  return context;
}

/**
 * Photoplethysmography from video frames of a fingertip over the lens (Verkruysse et al., Opt Express
 * 2008): each frame is drawn on a 32x24 canvas, its mean red intensity taken at the frame's own time
 * and inverted (more blood in the fingertip lets less light through). Shared by the live camera and
 * the uploaded-video reader.
 */
export function createPulseSampler(canvas: FrameCanvas = sampleCanvas()) {
  const times: number[] = [];
  const values: number[] = [];
  let fingertipFrames = 0;
  return {
    /** Samples one frame at `timeSeconds`; returns its value relative to the first frame (for a live waveform). */
    add(frame: CanvasImageSource, timeSeconds: number): number {
      canvas.drawImage(frame, 0, 0, SAMPLE_WIDTH, SAMPLE_HEIGHT);
      const pixels = canvas.getImageData(0, 0, SAMPLE_WIDTH, SAMPLE_HEIGHT).data;
      const value = -meanRed(pixels);
      if (fingertipView(pixels) === 'fingertip') fingertipFrames += 1;
      times.push(timeSeconds);
      values.push(value);
      return value - (values[0] ?? value);
    },
    /** Frames sampled so far. */
    get count(): number {
      return values.length;
    },
    /** Whether at least [`MIN_FINGERTIP_SHARE`] of the frames sampled show a fingertip over the lens. */
    get fingertip(): boolean {
      return values.length > 0 && fingertipFrames >= MIN_FINGERTIP_SHARE * values.length;
    },
    /** Seconds from the first frame to the last. */
    get seconds(): number {
      return times.length < 2 ? 0 : (times[times.length - 1] ?? 0) - (times[0] ?? 0);
    },
    /** The signal resampled to [`PULSE_RATE_HZ`]; empty with fewer than two frames. */
    uniform(): number[] {
      return resampleUniform(times, values, PULSE_RATE_HZ);
    },
    /** The signal as a CSV file with a time column, or null with fewer than two frames. */
    csvFile(name: string): File | null {
      const uniform = resampleUniform(times, values, PULSE_RATE_HZ);
      if (uniform.length < 2) return null;
      return new File([signalCsv(uniform, PULSE_RATE_HZ, 'PPG')], name, { type: 'text/csv' });
    },
  };
}

export type PulseSampler = ReturnType<typeof createPulseSampler>;
