import { useCallback, useEffect, useRef, useState } from 'react';
import { useRecorderState } from './useRecorderState';
import { csvName, readVideoPulse, VideoReadError } from './videoPulse';

/**
 * Reads the pulse from an uploaded video file in the browser (see [`readVideoPulse`]) into the hidden
 * `videoRef` element, with the recorders' displayed state (status 'recording' while reading, media
 * seconds read, frames, live waveform) plus the percentage read. When done, `onRead` gets the pulse
 * as a CSV named after the video ('finger.webm' -> 'finger.csv'). A new read, `reset` or unmounting
 * stops the one in progress.
 */
export function useVideoPpg(onRead: (file: File) => void) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const state = useRecorderState(onRead);
  const { setStatus, setElapsedMs, setDataPoints, pushPoint, reset: resetState, recorded } = state;
  const [percent, setPercent] = useState<number | null>(null);
  const [problem, setProblem] = useState<VideoReadError | null>(null);
  const [truncated, setTruncated] = useState(false);
  const session = useRef<AbortController | null>(null);

  /** Stops a read in progress (if any) and clears everything shown. */
  const reset = useCallback(() => {
    session.current?.abort();
    session.current = null;
    resetState();
    setPercent(null);
    setProblem(null);
    setTruncated(false);
  }, [resetState]);

  const read = useCallback(
    async (file: File) => {
      reset();
      const video = videoRef.current;
      if (!video) return;
      const controller = new AbortController();
      session.current = controller;
      setStatus('recording');
      setPercent(0);
      try {
        const { sampler, truncated: cut } = await readVideoPulse(video, file, {
          signal: controller.signal,
          onFrame: (progress) => {
            if (controller.signal.aborted) return;
            setDataPoints(progress.frames);
            setElapsedMs(progress.seconds * 1000);
            pushPoint(progress.point);
            setPercent(progress.fraction === null ? null : Math.round(progress.fraction * 100));
          },
        });
        const csv = sampler.csvFile(csvName(file.name));
        if (controller.signal.aborted) return;
        if (!csv) throw new VideoReadError('tooShort', sampler.seconds);
        setTruncated(cut);
        setStatus('completed');
        recorded.current(csv);
      } catch (cause) {
        if (controller.signal.aborted) return;
        setStatus('ready');
        setProblem(cause instanceof VideoReadError ? cause : new VideoReadError('decode'));
      } finally {
        if (session.current === controller) session.current = null;
      }
    },
    [reset, setStatus, setDataPoints, setElapsedMs, pushPoint, recorded],
  );

  useEffect(() => () => session.current?.abort(), []);

  const { status, elapsedMs, dataPoints, waveform } = state;
  return { videoRef, status, elapsedMs, dataPoints, waveform, percent, problem, truncated, read, reset };
}
