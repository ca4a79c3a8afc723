import { useEffect, useRef } from 'react';

/** Spec §9: the canvas is 800 by 200. */
export const CANVAS_WIDTH = 800;
export const CANVAS_HEIGHT = 200;

/** The last points of a recording on an 800x200 canvas, scaled to the largest magnitude shown. */
export function LiveWaveform({ points, label }: { points: number[]; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    const style = getComputedStyle(canvas.current as HTMLCanvasElement);
    context.clearRect(0, 0, CANVAS_WIDTH, CANVAS_HEIGHT);
    context.strokeStyle = style.getPropertyValue('--color-border') || '#ccc';
    context.beginPath();
    context.moveTo(0, CANVAS_HEIGHT / 2);
    context.lineTo(CANVAS_WIDTH, CANVAS_HEIGHT / 2);
    context.stroke();
    if (points.length < 2) return;
    const scale = Math.max(1e-6, ...points.map(Math.abs));
    context.strokeStyle = style.getPropertyValue('--color-accent') || '#d1244f';
    context.lineWidth = 2;
    context.beginPath();
    points.forEach((value, i) => {
      const x = (i / (points.length - 1)) * CANVAS_WIDTH;
      const y = CANVAS_HEIGHT / 2 - (value / scale) * (CANVAS_HEIGHT / 2 - 8);
      if (i === 0) context.moveTo(x, y);
      else context.lineTo(x, y);
    });
    context.stroke();
  }, [points]);
  return (
    <canvas
      ref={canvas}
      className="live-waveform"
      width={CANVAS_WIDTH}
      height={CANVAS_HEIGHT}
      role="img"
      aria-label={label}
    />
  );
}
