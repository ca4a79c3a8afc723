/**
 * An element's content width in CSS pixels, following resizes (ResizeObserver), for drawings that
 * fit their container (the waveform viewer, a long recording's timeline). Until the element is
 * measured, and where ResizeObserver is missing (tests), the width is `fallback`.
 */
import { useEffect, useRef, useState } from 'react';

export function useElementWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
