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
  return {
    /** Samples one frame at `timeSeconds`; returns its value relative to the first frame (for a live waveform). */
    add(frame: CanvasImageSource, timeSeconds: number): number {
      canvas.drawImage(frame, 0, 0, SAMPLE_WIDTH, SAMPLE_HEIGHT);
      const value = -meanRed(canvas.getImageData(0, 0, SAMPLE_WIDTH, SAMPLE_HEIGHT).data);
      times.push(timeSeconds);
      values.push(value);
      return value - (values[0] ?? value);
    },
    /** Frames sampled so far. */
    get count(): number {
      return values.length;
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
