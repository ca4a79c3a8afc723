import {
  ArrowLeft,
  CheckCircle2,
  CircleDashed,
  CircleSlash,
  Download,
  LoaderCircle,
  TriangleAlert,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReviewPanel } from '../../components/review/ReviewPanel';
import { Link } from 'react-router';
import { ApiError, type CombinedResult, type Screening } from '../../api/client';
import { predictClinical, predictUpload } from '../../api/predict';
import { paths, screeningPath } from '../../app/paths';
import { ErrorBanner } from '../../components/ErrorBanner';
import { FilePicker } from '../../components/FilePicker';
import { fileProblem } from '../../lib/fileRules';
import { MODEL_NAMES, percent, predictionErrorMessage, RISK_BADGES, riskLevel } from '../../lib/prediction';
import { combineScreening, fetchScreeningAnalyses } from './api';
import { DeviceInboxPicker } from './recording/DeviceInboxPicker';
import { SerialSource } from './recording/SerialSource';
import { ECG_SERIAL_LIMIT_MS } from './recording/useSerialRecording';

const STEPS = ['clinical', 'pcg', 'ppg', 'ecg', 'combined'] as const;
type Step = (typeof STEPS)[number];
type StepState = 'pending' | 'running' | 'done' | 'notPerformed';

const STATE_ICONS = {
  pending: <CircleDashed aria-hidden="true" size={18} />,
  running: <LoaderCircle aria-hidden="true" size={18} className="spin" />,
  done: <CheckCircle2 aria-hidden="true" size={18} />,
  notPerformed: <CircleSlash aria-hidden="true" size={18} />,
} as const;

const STATUS_KEYS = {
  performed: 'sensor.modalityStatus.performed',
  inconclusive: 'sensor.modalityStatus.inconclusive',
  not_performed: 'sensor.modalityStatus.notPerformed',
} as const;

class StepError extends Error {
  constructor(
    readonly step: Step,
    readonly cause: unknown,
  ) {
    super(step);
  }
}

/**
 * The ECG step (spec §2): upload only; "Analyze ECG Data" runs the whole screening with a progress
 * list that follows the real calls (clinical model on the saved parameters, the PCG and PPG results
 * already stored, the ECG upload, the combination on the server), then shows the combined result.
 * On failure it returns to the form with the error.
 */
export function EcgAnalyzeStep({ screening }: { screening: Screening }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  // A recording a network device pushed, attached to this screening (already analysed).
  const [attached, setAttached] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Record<Step, StepState> | null>(null);
  // A screening analysed before shows its stored combined result (the patient page links here).
  const [result, setResult] = useState<CombinedResult | null>(screening.combined ?? null);

  const choose = (chosen: File) => {
    const problem = fileProblem('ecg', chosen);
    setError(problem ? t(problem) : null);
    setFile(problem ? null : chosen);
  };

  const analyze = async () => {
    if (!file && !attached) {
      setError(t('sensor.ecgFileFirst'));
      return;
    }
    setError(null);
    const states: Record<Step, StepState> = {
      clinical: 'pending',
      pcg: 'pending',
      ppg: 'pending',
      ecg: 'pending',
      combined: 'pending',
    };
    const set = (step: Step, state: StepState) => {
      states[step] = state;
      setProgress({ ...states });
    };
    const run = async <T,>(step: Step, call: () => Promise<T>): Promise<T> => {
      set(step, 'running');
      try {
        const value = await call();
        set(step, 'done');
        return value;
      } catch (cause) {
        throw new StepError(step, cause);
      }
    };
    try {
      const clinical = screening.clinical?.parameters;
      if (clinical) {
        await run('clinical', () => predictClinical({ ...clinical, screening_id: screening.id }));
      } else {
        set('clinical', 'notPerformed');
      }
      const stored = await run('pcg', () => fetchScreeningAnalyses(screening.id));
      if (!stored.some((a) => a.modality === 'pcg')) set('pcg', 'notPerformed');
      set('ppg', stored.some((a) => a.modality === 'ppg') ? 'done' : 'notPerformed');
      if (file) await run('ecg', () => predictUpload('ecg', file, { screeningId: screening.id }));
      else set('ecg', 'done');
      setResult(await run('combined', () => combineScreening(screening.id)));
    } catch (caught) {
      setProgress(null);
      const failure = caught instanceof StepError ? caught : new StepError('combined', caught);
      if (failure.step === 'ecg' || failure.step === 'clinical') {
        setError(predictionErrorMessage(failure.cause, failure.step, t));
      } else {
        const detail = failure.cause instanceof ApiError ? failure.cause.detail : undefined;
        setError(detail ?? t('sensor.analyzeFailed'));
      }
    }
  };

  if (result) return <CombinedView result={result} />;

  if (progress) {
    return (
      <section className="card" aria-labelledby="ecg-progress-title" aria-busy="true">
        <h2 id="ecg-progress-title" className="section__title">
          {t('sensor.analyzing')}
        </h2>
        <ol className="progress-list">
          {STEPS.map((step) => (
            <li key={step}>
              {STATE_ICONS[progress[step]]}
              <span>{t(`sensor.progress.${step}`)}</span>
              <span className="progress-list__state muted">{t(`sensor.progressState.${progress[step]}`)}</span>
            </li>
          ))}
        </ol>
      </section>
    );
  }

  return (
    <>
      <section className="card upload-step" aria-labelledby="ecg-upload-title">
        <h2 id="ecg-upload-title" className="section__title">
          {t('sensor.ecgUploadTitle')}
        </h2>
        <FilePicker kind="ecg" file={file} disabled={false} onFile={choose} />
        <SerialSource kind="ecg" limitMs={ECG_SERIAL_LIMIT_MS} disabled={false} onRecorded={choose} />
        {attached ? (
          <p className="muted" role="status">
            {t('devices.record.attachedEcg')}
          </p>
        ) : (
          <DeviceInboxPicker
            kind="ecg"
            screeningId={screening.id}
            disabled={false}
            onAttached={() => {
              setFile(null);
              setAttached(true);
            }}
          />
        )}
        <ErrorBanner message={error} />
        {file ? (
          <button type="button" className="button button--secondary button--small" onClick={() => setFile(null)}>
            {t('sensor.removeFile')}
          </button>
        ) : null}
      </section>
      <div className="step-actions">
        <Link to={screeningPath(paths.sensorPpg, screening.id)} className="button button--secondary">
          <ArrowLeft aria-hidden="true" size={18} />
          {t('common.back')}
        </Link>
        <button type="button" className="button button--primary" onClick={() => void analyze()}>
          {t('sensor.analyzeEcg')}
        </button>
      </div>
    </>
  );
}

function CombinedView({ result }: { result: CombinedResult }) {
  const { t } = useTranslation();
  const level = riskLevel(result.risk_score);
  return (
    <section className="card result" aria-labelledby="combined-title">
      <div className="result__headline">
        <div>
          <h2 id="combined-title" className="section__title">
            {t('sensor.combinedTitle')}
          </h2>
          <p className="result__condition">
            {t('sensor.overallRisk', { risk: percent(result.risk_score), driver: MODEL_NAMES[result.driver] })}
          </p>
        </div>
        <span className={`badge ${RISK_BADGES[level]}`}>
          {level === 'low' ? null : <TriangleAlert aria-hidden="true" size={14} />}
          &nbsp;{t(`results.risk.${level}`)}
        </span>
      </div>
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">{t('sensor.modalitiesCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('patientDetail.analysisColumns.model')}</th>
              <th scope="col">{t('sensor.statusLabel')}</th>
              <th scope="col">{t('patientDetail.analysisColumns.result')}</th>
              <th scope="col">{t('patientDetail.analysisColumns.risk')}</th>
            </tr>
          </thead>
          <tbody>
            {result.modalities.map((m) => (
              <tr key={m.modality}>
                <td>{MODEL_NAMES[m.modality]}</td>
                <td>{t(STATUS_KEYS[m.status])}</td>
                <td>{m.prediction ?? '—'}</td>
                <td>{m.risk_score == null ? '—' : percent(m.risk_score)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">{t('sensor.rule', { rule: result.rule })}</p>
      <section aria-labelledby="combined-recommendations">
        <h3 id="combined-recommendations">{t('results.recommendations')}</h3>
        <ol className="result__list">
          {result.recommendations.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ol>
      </section>
      <p className="result__disclaimer">{t('results.disclaimer')}</p>
      <ReviewPanel target={{ kind: 'screening', id: result.screening_id }} />
      <div className="form-actions">
        <a
          className="button button--secondary"
          href={`/api/screenings/${encodeURIComponent(result.screening_id)}/report.pdf`}
          download={`cardio-screening-${result.screening_id}.pdf`}
        >
          <Download size={16} aria-hidden="true" /> {t('common.downloadReport')}
        </a>
        <Link to={paths.home} className="button button--primary">
          {t('common.backToHome')}
        </Link>
      </div>
    </section>
  );
}
