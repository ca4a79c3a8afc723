import { describe, expect, it } from 'vitest';
import {
  createPulseSampler,
  fingertipView,
  meanRed,
  PULSE_RATE_HZ,
  SAMPLE_HEIGHT,
  SAMPLE_WIDTH,
  type FrameCanvas,
} from './pulseFrames';

/** A synthetic frame: every pixel has this red level. */
interface SyntheticFrame {
  red: number;
}

/** A canvas context whose pixels are those of the last frame drawn on it. */
function syntheticCanvas() {
  const drawn: { width: number; height: number }[] = [];
  let red = 0;
  const canvas: FrameCanvas = {
    drawImage: ((frame: SyntheticFrame, _x: number, _y: number, width: number, height: number) => {
      red = frame.red;
      drawn.push({ width, height });
    }) as unknown as FrameCanvas['drawImage'],
    getImageData: (_x: number, _y: number, width: number, height: number) => {
      const data = new Uint8ClampedArray(width * height * 4);
      for (let i = 0; i < data.length; i += 4) {
        data[i] = red;
        data[i + 1] = 60;
        data[i + 2] = 50;
        data[i + 3] = 255;
      }
      return { data, width, height, colorSpace: 'srgb' } as ImageData;
    },
  };
  return { canvas, drawn };
}

const frame = (red: number) => ({ red }) as unknown as CanvasImageSource;

/** The frequency (Hz) of largest power between `low` and `high`, on a 0.005 Hz grid (a plain DFT). */
function dominantFrequency(signal: number[], rateHz: number, low = 0.5, high = 4): number {
  const mean = signal.reduce((sum, value) => sum + value, 0) / signal.length;
  let best = low;
  let bestPower = -1;
  for (let f = low; f <= high; f += 0.005) {
    let re = 0;
    let im = 0;
    signal.forEach((value, n) => {
      const phase = (2 * Math.PI * f * n) / rateHz;
      re += (value - mean) * Math.cos(phase);
      im -= (value - mean) * Math.sin(phase);
    });
    const power = re * re + im * im;
    if (power > bestPower) {
      bestPower = power;
      best = f;
    }
  }
  return best;
}

describe('the shared pulse sampler', () => {
  it('takes the mean of the red channel only', () => {
    expect(meanRed(new Uint8ClampedArray([10, 200, 200, 255, 30, 0, 0, 255]))).toBe(20);
    expect(meanRed(new Uint8ClampedArray([]))).toBe(0);
  });

  it('turns frames of a red level pulsing at 72 bpm, at irregular times, into a 30 Hz signal with a 0.833 s period', async () => {
    // Arrange: 20 s of frames at 24 to 36 frames/s, the red level pulsing at 1.2 Hz (72 bpm).
    const { canvas, drawn } = syntheticCanvas();
    const sampler = createPulseSampler(canvas);
    const pulseHz = 1.2;
    const redAt = (time: number) => Math.round(150 + 25 * Math.sin(2 * Math.PI * pulseHz * time));
    const points: number[] = [];
    let time = 0.4;
    for (let i = 0; time < 20.4; i += 1) {
      points.push(sampler.add(frame(redAt(time)), time));
      time += 1 / [24, 30, 36, 27, 33][i % 5]!;
    }

    // Act
    const uniform = sampler.uniform();
    const file = sampler.csvFile('finger.csv');

    // Assert: every frame drawn on the 32x24 canvas, the time span kept, a uniform 30 Hz series.
    expect(drawn.every((size) => size.width === SAMPLE_WIDTH && size.height === SAMPLE_HEIGHT)).toBe(true);
    expect(sampler.count).toBe(drawn.length);
    expect(sampler.seconds).toBeGreaterThan(19.9);
    expect(uniform).toHaveLength(Math.floor(sampler.seconds * PULSE_RATE_HZ) + 1);
    const period = 1 / dominantFrequency(uniform, PULSE_RATE_HZ);
    expect(Math.abs(period - 1 / pulseHz)).toBeLessThan(0.01);
    // Inverted: the brightest frame (red 175) is the lowest sample, the darkest (125) the highest.
    expect(Math.min(...uniform)).toBeCloseTo(-175, 0);
    expect(Math.max(...uniform)).toBeCloseTo(-125, 0);
    // The live waveform gets each frame relative to the first.
    expect(points[0]).toBe(0);
    expect(points[1]).toBe(redAt(0.4) - redAt(0.4 + 1 / 24));

    expect(file?.name).toBe('finger.csv');
    expect(file?.type).toBe('text/csv');
    const lines = ((await file?.text()) ?? '').split('\n');
    expect(lines[0]).toBe('time,PPG');
    expect(lines[1]).toBe(`0.0000,${(uniform[0] ?? 0).toFixed(6)}`);
    expect(lines[2]?.startsWith('0.0333,')).toBe(true);
    expect(lines).toHaveLength(uniform.length + 2);
  });

  it('gives no signal from fewer than two frames', () => {
    const sampler = createPulseSampler(syntheticCanvas().canvas);
    sampler.add(frame(100), 0);
    expect(sampler.seconds).toBe(0);
    expect(sampler.uniform()).toEqual([]);
    expect(sampler.csvFile('x.csv')).toBeNull();
  });
});

/** A 32x24 RGBA frame whose pixel at (x, y) has the colour `colour(x, y)`. */
function pixels(colour: (x: number, y: number) => [number, number, number]): Uint8ClampedArray {
  const data = new Uint8ClampedArray(SAMPLE_WIDTH * SAMPLE_HEIGHT * 4);
  for (let y = 0; y < SAMPLE_HEIGHT; y += 1) {
    for (let x = 0; x < SAMPLE_WIDTH; x += 1) {
      const at = 4 * (y * SAMPLE_WIDTH + x);
      data.set([...colour(x, y), 255], at);
    }
  }
  return data;
}

/** The eight colour bars of a test card (white, yellow, cyan, green, magenta, red, blue, black). */
const BARS: [number, number, number][] = [
  [235, 235, 235],
  [235, 235, 16],
  [16, 235, 235],
  [16, 235, 16],
  [235, 16, 235],
  [235, 16, 16],
  [16, 16, 235],
  [16, 16, 16],
];

describe('the fingertip check of the camera path', () => {
  it('passes a uniform red frame, with the gentle shading of a lit fingertip', () => {
    expect(fingertipView(pixels(() => [200, 40, 30]))).toBe('fingertip');
    expect(fingertipView(pixels((x, y) => [170 + x + y, 35, 25]))).toBe('fingertip');
  });

  it('fails colour bars, a dark frame, a saturated white frame and a scene that is not red', () => {
    expect(fingertipView(pixels((x) => BARS[Math.floor(x / 4)]!))).toBe('notRed');
    // Red and black stripes: red enough on average, far from uniform.
    expect(fingertipView(pixels((x) => (x % 8 < 4 ? [220, 30, 20] : [20, 10, 10])))).toBe('notUniform');
    expect(fingertipView(pixels(() => [12, 8, 6]))).toBe('dark');
    expect(fingertipView(pixels(() => [255, 255, 255]))).toBe('saturated');
    expect(fingertipView(pixels(() => [120, 110, 100]))).toBe('notRed');
    expect(fingertipView(new Uint8ClampedArray([]))).toBe('dark');
  });

  it('says whether most of a recording\'s frames showed a fingertip', () => {
    // The synthetic canvas gives red over green 60 and blue 50: a fingertip at red 150, not at red 80.
    const sampler = createPulseSampler(syntheticCanvas().canvas);
    expect(sampler.fingertip).toBe(false);
    sampler.add(frame(150), 0);
    sampler.add(frame(80), 0.1);
    expect(sampler.fingertip).toBe(true);
    sampler.add(frame(80), 0.2);
    expect(sampler.fingertip).toBe(false);
  });
});
