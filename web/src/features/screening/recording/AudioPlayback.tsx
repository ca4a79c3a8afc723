import { Pause, Play } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { playableAudio } from '../../../lib/wav';

/**
 * Plays back a heart-sound file (recorded or uploaded) with play/pause (spec §2 PCG step). A WAV
 * below the rate browsers play (a heart-sound recorder's 1-4 kHz) is upsampled first
 * ({@link playableAudio}).
 */
export function AudioPlayback({ file }: { file: File }) {
  const { t } = useTranslation();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [failed, setFailed] = useState(false);
  // One object URL per file, released when the file changes or the player goes away; the parent keys
  // this component by file, so play state starts afresh for a new one.
  const url = useMemo(
    () =>
      playableAudio(file)
        .catch(() => file)
        .then((blob) => URL.createObjectURL(blob)),
    [file],
  );
  useEffect(() => () => void url.then((made) => URL.revokeObjectURL(made)), [url]);

  const toggle = async () => {
    const element = audio.current;
    if (!element) return;
    if (playing) {
      element.pause();
      setPlaying(false);
      return;
    }
    try {
      setFailed(false);
      const src = await url;
      if (element.getAttribute('src') !== src) element.setAttribute('src', src);
      await element.play();
      setPlaying(true);
    } catch {
      setPlaying(false);
      setFailed(true);
    }
  };

  return (
    <div className="playback">
      <audio ref={audio} preload="metadata" onEnded={() => setPlaying(false)} />
      <button type="button" className="button button--secondary button--small" onClick={() => void toggle()}>
        {playing ? <Pause aria-hidden="true" size={16} /> : <Play aria-hidden="true" size={16} />}
        {playing ? t('sensor.pause') : t('sensor.play')}
      </button>
      <ErrorBanner message={failed ? t('sensor.playFailed') : null} />
    </div>
  );
}
