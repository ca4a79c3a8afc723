import { Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoadWaveformWindow } from '../../api/waveforms';
import { recordingAudio } from './recordingAudio';

type Status = 'idle' | 'loading' | 'playing' | 'paused' | 'failed';

/**
 * Play and pause for a stored heart-sound recording, reporting the playback time as it moves (the
 * viewer draws a cursor there and scrolls to keep it in view). The audio is built on the first
 * play ({@link recordingAudio}) and kept while the page is open.
 */
export function WaveformPlayback({
  analysisId,
  load,
  onTime,
}: {
  analysisId: string;
  load: LoadWaveformWindow;
  /** The playback time in seconds; null when stopped at the end. */
  onTime: (seconds: number | null) => void;
}) {
  const { t } = useTranslation();
  const audio = useRef<HTMLAudioElement>(null);
  const url = useRef<string | null>(null);
  const frame = useRef(0);
  const [status, setStatus] = useState<Status>('idle');

  useEffect(
    () => () => {
      cancelAnimationFrame(frame.current);
      if (url.current) URL.revokeObjectURL(url.current);
    },
    [],
  );

  const follow = () => {
    const element = audio.current;
    if (!element) return;
    onTime(element.currentTime);
    frame.current = requestAnimationFrame(follow);
  };

  const play = async () => {
    const element = audio.current;
    if (!element) return;
    try {
      if (!url.current) {
        setStatus('loading');
        url.current = URL.createObjectURL(await recordingAudio(load, analysisId));
        element.src = url.current;
      }
      await element.play();
      setStatus('playing');
      cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(follow);
    } catch {
      setStatus('failed');
    }
  };

  const pause = () => {
    audio.current?.pause();
    cancelAnimationFrame(frame.current);
    setStatus('paused');
  };

  const playing = status === 'playing';
  return (
    <div className="waveform__playback">
      <audio
        ref={audio}
        preload="none"
        onEnded={() => {
          cancelAnimationFrame(frame.current);
          setStatus('idle');
          onTime(null);
        }}
      />
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => (playing ? pause() : void play())}
        disabled={status === 'loading'}
        aria-busy={status === 'loading'}
      >
        {playing ? <Pause aria-hidden="true" size={16} /> : <Play aria-hidden="true" size={16} />}
        {playing ? t('sensor.pause') : t('sensor.play')}
      </button>
      {status === 'failed' ? (
        <span className="waveform__legend" role="alert">
          {t('sensor.playFailed')}
        </span>
      ) : null}
    </div>
  );
}
