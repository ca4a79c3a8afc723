import { ArrowLeft, CheckCircle2, CircleHelp, Mic, TriangleAlert, Waves } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { ErrorBanner } from '../../components/ErrorBanner';
import { FilePicker } from '../../components/FilePicker';
import { Modal } from '../../components/Modal';
import { PredictionResultView } from '../../components/PredictionResultView';
import { fetchWaveformWindow } from '../../api/waveforms';
import { ACCEPT_PPG_PAGE, fileProblem, isVideoFile } from '../../lib/fileRules';
import { findingOf, predictionErrorMessage, type Finding } from '../../lib/prediction';
import { useScreeningAnalyses, useUploadRecording } from './api';
import { MissingSession } from './MissingSession';
import { ScreeningPatient } from './ScreeningPatient';
import { ScreeningState } from './ScreeningState';
import { AudioPlayback } from './recording/AudioPlayback';
import { DeviceInboxPicker } from './recording/DeviceInboxPicker';
import { SerialSource } from './recording/SerialSource';
import { LiveWaveform } from '../../components/waveform/LiveWaveform';
import { PCG_LIMIT_MS, useAudioRecording } from './recording/useAudioRecording';
import { PPG_LIMIT_MS, useCameraPpg } from './recording/useCameraPpg';
import { useVideoPpg } from './recording/useVideoPpg';
import { MIN_VIDEO_S, VIDEO_LIMIT_S, type VideoReadError } from './recording/videoPulse';
import { useScreeningFromUrl } from './useScreeningFromUrl';
import { findingText } from '../../lib/clinicalText';
import type { Analysis, MurmurResult } from '../../api/client';
import { MurmurSummary } from '../../components/MurmurSummary';
import { SITES, isSite, type Site } from '../../lib/auscultation';
import { AuscultationSites } from './AuscultationSites';

type UploadKind = 'pcg' | 'ppg';

interface UploadStepProps {
  kind: UploadKind;
  /** Spec §2: the missing-session text of this step. */
  missingText: string;
  back: (screeningId: string) => string;
  next: { to: (screeningId: string) => string; label: string; reason: string };
}

/** The icon beside a result line: a check only for a normal finding. */
const FINDING_ICONS = {
  normal: <CheckCircle2 aria-hidden="true" size={18} />,
  abnormal: <TriangleAlert aria-hidden="true" size={18} />,
  inconclusive: <CircleHelp aria-hidden="true" size={18} />,
} as const satisfies Record<Finding, unknown>;

/** Spec §5 (sensor pages): the page's own file error texts. */
const PAGE_FILE_ERRORS = { pcg: 'sensor.pcgFileError', ppg: 'sensor.ppgFileError' } as const;

/**
 * Spec §5: the PPG page accepts audio or video (a video is read into a pulse signal in the browser),
 * and the CSV/TXT pulse signals the camera produces.
 */
function pageFileProblem(kind: UploadKind, file: File): boolean {
  if (kind === 'ppg') {
    return !isVideoFile(file) && fileProblem('ppg', file) !== null && fileProblem('pcg', file) !== null;
  }
  return fileProblem(kind, file) !== null;
}

/** The message for a video that gave no pulse signal. */
function videoProblemMessage(problem: VideoReadError, t: TFunction): string {
  switch (problem.problem) {
    case 'decode':
      return t('sensor.videoDecodeError');
    case 'noPicture':
      return t('sensor.videoNoPicture');
    case 'tooShort':
      return t('sensor.videoTooShort', { seconds: problem.seconds.toFixed(1), min: MIN_VIDEO_S });
  }
}

/**
 * A recording step of the screening (spec §2, §4): upload a file, which the server stores with the
 * screening and analyses at once (status Ready → Completed); Remove returns to Ready; Continue needs a
 * completed step. The step can also record from the microphone (PCG) or the camera (PPG); on the PPG
 * step a video file is first read into a pulse signal in the browser, since the server decodes no video.
 * Heart sounds are recorded at the auscultation sites (AV, PV, TV, MV; one is enough to continue), and
 * the step shows the murmur verdict over the sites recorded.
 */
export function UploadStep({ kind, missingText, back, next }: UploadStepProps) {
  const { t } = useTranslation();
  const { id, query, missing } = useScreeningFromUrl();
  if (missing) return <MissingSession title={t('sensor.missingTitle')} text={missingText} />;
  if (!query.isSuccess || !id) return <ScreeningState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <>
      <ScreeningPatient screening={query.data} />
      <UploadPanel
        kind={kind}
        screeningId={id}
        back={back(id)}
        next={{ ...next, to: next.to(id) }}
        murmur={query.data.murmur ?? null}
      />
    </>
  );
}

/** The newest heart-sound analysis of each site (`analyses` newest first). */
function newestPerSite(analyses: Analysis[] | undefined): Partial<Record<Site, Analysis>> {
  const out: Partial<Record<Site, Analysis>> = {};
  for (const a of analyses ?? []) {
    if (a.modality === 'pcg' && isSite(a.site) && !out[a.site]) out[a.site] = a;
  }
  return out;
}

function UploadPanel({
  kind,
  screeningId,
  back,
  next,
  murmur,
}: {
  kind: UploadKind;
  screeningId: string;
  back: string;
  next: { to: string; label: string; reason: string };
  /** The screening's murmur verdict over its sites (heart sounds). */
  murmur: MurmurResult | null;
}) {
  const { t } = useTranslation();
  const analyses = useScreeningAnalyses(screeningId);
  const upload = useUploadRecording(kind, screeningId);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [removed, setRemoved] = useState(false);
  const [showResult, setShowResult] = useState(false);
  const [source, setSource] = useState<'upload' | 'recording' | null>(null);
  const [site, setSite] = useState<Site>('AV');
  const send = (chosen: File, from: 'upload' | 'recording') => {
    setFile(chosen);
    setSource(from);
    setRemoved(false);
    upload.mutate({ file: chosen, site: kind === 'pcg' ? site : undefined });
  };
  const onRecorded = (recording: File) => send(recording, 'recording');
  const microphone = useAudioRecording(PCG_LIMIT_MS, onRecorded);
  const { videoRef: cameraVideo, ...camera } = useCameraPpg(PPG_LIMIT_MS, onRecorded);
  // A video's pulse, read in the browser, is sent like any chosen file.
  const { videoRef: fileVideo, ...video } = useVideoPpg((pulse) => send(pulse, 'upload'));
  const readingVideo = video.status === 'recording';
  const recorder = kind === 'pcg' ? microphone : camera;
  const recording = recorder.status === 'recording';
  // The figures and live waveform follow the video being read (or just read), else the recorder.
  const live = video.status === 'ready' ? recorder : video;

  const perSite = newestPerSite(analyses.data);
  // Heart sounds: the selected site's newest recording (one from before sites were recorded, or
  // attached from a device, stands for the step while no site has one).
  const newest =
    kind === 'pcg'
      ? (perSite[site] ??
        (Object.keys(perSite).length === 0 ? analyses.data?.find((a) => a.modality === 'pcg') : undefined))
      : analyses.data?.find((a) => a.modality === kind);
  const stored = removed ? undefined : newest?.result;
  const result = upload.data ?? stored;
  const completed = !upload.isPending && result !== undefined;
  // One site is enough to continue: this one, or another already recorded.
  const stepDone =
    completed ||
    (kind === 'pcg' && !upload.isPending && SITES.some((other) => other !== site && perSite[other] !== undefined));
  const status = recording
    ? t('sensor.status.recording')
    : readingVideo
      ? video.percent === null
        ? t('sensor.videoReadingFrames')
        : t('sensor.videoReading', { percent: video.percent })
      : upload.isPending
        ? t('sensor.status.uploading')
        : completed
          ? t('sensor.status.completed')
          : t('sensor.status.ready');

  const choose = (chosen: File) => {
    video.reset();
    if (pageFileProblem(kind, chosen)) {
      setFileError(t(PAGE_FILE_ERRORS[kind]));
      return;
    }
    setFileError(null);
    // The server does not decode video: its pulse is read here first (the step's file stays as it
    // was until then, and stays if the video cannot be read).
    if (kind === 'ppg' && isVideoFile(chosen)) void video.read(chosen);
    else send(chosen, 'upload');
  };

  const selectSite = (next: Site) => {
    if (next === site) return;
    setSite(next);
    setFile(null);
    setFileError(null);
    setRemoved(false);
    setSource(null);
    recorder.retry();
    video.reset();
    upload.reset();
  };

  const remove = () => {
    setFile(null);
    setFileError(null);
    setRemoved(true);
    setSource(null);
    recorder.retry();
    video.reset();
    upload.reset();
  };

  const reasonId = `${kind}-next-reason`;
  const error = video.problem
    ? videoProblemMessage(video.problem, t)
    : upload.isError
      ? predictionErrorMessage(upload.error, kind, t)
      : kind === 'ppg' && camera.noFingertip
        ? t('sensor.noFingertip')
        : recorder.error
          ? t(kind === 'pcg' ? 'sensor.micError' : 'sensor.cameraError', { reason: recorder.error })
          : fileError;
  return (
    <>
      <section className="card upload-step" aria-labelledby={`${kind}-upload-title`}>
        <h2 id={`${kind}-upload-title`} className="section__title">
          {kind === 'pcg' ? <Mic aria-hidden="true" size={20} /> : <Waves aria-hidden="true" size={20} />}{' '}
          {t(`sensor.${kind}UploadTitle`)}
        </h2>
        <p className="muted">{t(`sensor.${kind}UploadText`)}</p>
        {kind === 'pcg' ? (
          <AuscultationSites
            selected={site}
            onSelect={selectSite}
            recorded={perSite}
            disabled={recording || upload.isPending}
          />
        ) : null}
        <dl className="upload-step__status">
          <div>
            <dt>{t('sensor.statusLabel')}</dt>
            <dd role="status">{status}</dd>
          </div>
        </dl>
        {readingVideo ? (
          <div className="video-reading">
            <progress
              className="video-reading__bar"
              max={100}
              value={video.percent ?? undefined}
              aria-label={t('sensor.videoProgress')}
            />
            <button type="button" className="button button--secondary button--small" onClick={video.reset}>
              {t('common.cancel')}
            </button>
          </div>
        ) : null}
        {video.truncated ? (
          <p className="muted small">{t('sensor.videoTruncated', { seconds: VIDEO_LIMIT_S })}</p>
        ) : null}
        {
          <div className="recorder" aria-disabled={source === 'upload'}>
            {kind === 'pcg' ? (
              <p className="recorder__site">
                {t('sensor.sites.recordingAt', { site: `${site} — ${t(`sensor.sites.names.${site}`)}` })}
              </p>
            ) : null}
            <p className="muted">{t(kind === 'pcg' ? 'sensor.recordHint' : 'sensor.cameraHint')}</p>
            <div className="recorder__controls">
              <button
                type="button"
                className="button button--primary"
                disabled={recording || readingVideo || upload.isPending || source === 'upload'}
                onClick={() => {
                  setRemoved(true);
                  upload.reset();
                  video.reset();
                  void recorder.start();
                }}
              >
                {t('sensor.startRecording')}
              </button>
              <button type="button" className="button button--secondary" disabled={!recording} onClick={recorder.stop}>
                {t('sensor.stopRecording')}
              </button>
              <button
                type="button"
                className="button button--secondary"
                disabled={recording || readingVideo || source === 'upload' || upload.isPending}
                onClick={remove}
              >
                {t('sensor.retry')}
              </button>
            </div>
            <dl className="recorder__figures">
              <div>
                <dt>{t('sensor.durationLabel')}</dt>
                <dd>{t('sensor.duration', { value: (live.elapsedMs / 1000).toFixed(2) })}</dd>
              </div>
              <div>
                <dt>{t('sensor.dataPoints')}</dt>
                <dd>{live.dataPoints}</dd>
              </div>
            </dl>
            {kind === 'ppg' ? (
              <video
                ref={cameraVideo}
                className="camera-preview"
                muted
                playsInline
                aria-label={t('sensor.cameraPreview')}
              />
            ) : null}
            <LiveWaveform points={live.waveform} label={t('sensor.liveWaveform')} />
          </div>
        }
        <SerialSource
          kind={kind}
          limitMs={kind === 'pcg' ? PCG_LIMIT_MS : PPG_LIMIT_MS}
          disabled={recording || readingVideo || upload.isPending || source === 'upload'}
          onRecorded={onRecorded}
        />
        <DeviceInboxPicker
          kind={kind}
          screeningId={screeningId}
          site={kind === 'pcg' ? site : undefined}
          disabled={recording || readingVideo || upload.isPending}
          onAttached={() => {
            setFile(null);
            setSource(null);
            setRemoved(false);
            upload.reset();
          }}
        />
        <FilePicker
          kind={kind}
          accept={kind === 'ppg' ? ACCEPT_PPG_PAGE : undefined}
          hint={kind === 'ppg' ? t('sensor.ppgAccept') : undefined}
          files={file ? [file] : []}
          disabled={upload.isPending || recording || readingVideo}
          onFiles={([chosen]) => {
            if (chosen) choose(chosen);
          }}
        />
        {kind === 'ppg' ? (
          <video ref={fileVideo} className="visually-hidden" muted playsInline aria-hidden="true" tabIndex={-1} />
        ) : null}
        <ErrorBanner message={error} />
        {kind === 'pcg' && file && !recording ? (
          <AudioPlayback key={`${file.name}-${file.size}-${file.lastModified}`} file={file} />
        ) : null}
        {completed && result ? (
          <div className={`upload-step__result upload-step__result--${findingOf(result.label)}`}>
            {FINDING_ICONS[findingOf(result.label)]}
            <span>{t('sensor.resultLine', { prediction: findingText(kind, result.label, result.prediction) })}</span>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => setShowResult(true)}
            >
              {t('patientDetail.viewResult')}
            </button>
            <button type="button" className="button button--secondary button--small" onClick={remove}>
              {t('sensor.remove')}
            </button>
          </div>
        ) : null}
        {kind === 'pcg' && murmur ? <MurmurSummary murmur={murmur} /> : null}
      </section>
      <div className="step-actions">
        <Link to={back} className="button button--secondary">
          <ArrowLeft aria-hidden="true" size={18} />
          {t('common.back')}
        </Link>
        <div className="step-actions__next">
          {stepDone ? (
            <Link to={next.to} className="button button--primary">
              {next.label}
            </Link>
          ) : (
            <>
              <p id={reasonId} className="muted small">
                {next.reason}
              </p>
              <button type="button" className="button button--primary" disabled aria-describedby={reasonId}>
                {next.label}
              </button>
            </>
          )}
        </div>
      </div>
      {showResult && result ? (
        <Modal title={t('results.title')} onClose={() => setShowResult(false)}>
          <PredictionResultView result={result} loadWaveform={fetchWaveformWindow} />
        </Modal>
      ) : null}
    </>
  );
}
