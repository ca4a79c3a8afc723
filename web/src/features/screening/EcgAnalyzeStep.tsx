import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CheckCircle2, CircleDashed, CircleSlash, Download, FileText, LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MurmurSummary } from '../../components/MurmurSummary';
import { Link } from 'react-router';
import { ApiError, type Analysis, type ClinicalRecord, type CombinedResult, type Screening } from '../../api/client';
import { predictClinical, predictUpload } from '../../api/predict';
import { queryKeys } from '../../api/queryKeys';
import { analysisPath, paths, screeningPath } from '../../app/paths';
import { DeviceInterpretationPanel } from '../../components/DeviceInterpretationPanel';
import { ErrorBanner } from '../../components/ErrorBanner';
import { FilePicker } from '../../components/FilePicker';
import { PredictionResultView } from '../../components/PredictionResultView';
import { serverErrorText } from '../../lib/apiErrors';
import { fetchWaveformWindow } from '../../api/waveforms';
import { ReviewPanel, type SettleOption } from '../../components/review/ReviewPanel';
import { CombinedRiskBadge } from '../../components/RiskBadge';
import { Spinner } from '../../components/Spinner';
import { useClinicalText } from '../../lib/clinicalText';
import { ecg12Details } from '../../lib/ecg12';
import { useRecordingFiles } from '../../lib/useRecordingFiles';
import { modelName, percent, predictionErrorMessage } from '../../lib/prediction';
import { useReview } from '../../lib/useReview';
import { combineScreening, fetchScreeningAnalyses, useScreeningAnalyses } from './api';
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

/** Whether the combined result rests on (or tried) an ECG of the screening. */
function hasEcg(combined: CombinedResult): boolean {
  return combined.modalities.some((m) => m.modality === 'ecg' && m.analysis_id);
}

/**
 * Whether the screening already has a clinical result made from its current parameters (newer than
 * the clinical entry): then the clinical model is not run again (no second clinical analysis).
 */
function hasCurrentClinical(stored: Analysis[], clinical: ClinicalRecord): boolean {
  const entered = Date.parse(clinical.createdAt);
  return stored.some((a) => a.modality === 'clinical' && Date.parse(a.createdAt) >= entered);
}

/**
 * The ECG step (spec §2): upload only; "Analyze ECG Data" runs the whole screening with a progress
 * list that follows the real calls: the results already stored (PCG, PPG), the ECG upload, the
 * clinical model on the saved parameters, the combination on the server. The ECG goes first, so a
 * refused file stores nothing; a retry neither uploads an ECG already stored nor runs the clinical
 * model again when the screening has its result. On failure it returns to the form with the error.
 *
 * A completed screening shows the ECG's own result, then the combined result, which the server
 * recomputes from the screening's current results on every read ("Analyze another ECG" replaces the
 * ECG; the PCG and PPG rows link to their steps).
 */
export function EcgAnalyzeStep({ screening }: { screening: Screening }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const selection = useRecordingFiles('ecg');
  const files = selection.files;
  // A recording a network device pushed, attached to this screening (already analysed).
  const [attached, setAttached] = useState(false);
  // The files whose upload succeeded (a retry after a later failure does not store them twice).
  const [uploaded, setUploaded] = useState<File[] | null>(null);
  const [stepError, setError] = useState<string | null>(null);
  const error = stepError ?? selection.error;
  const [progress, setProgress] = useState<Record<Step, StepState> | null>(null);
  // On a completed screening: the form is open again to analyse another ECG.
  const [replacing, setReplacing] = useState(false);
  const combined = screening.combined ?? null;

  const choose = (chosen: File[]) => {
    setError(null);
    selection.choose(chosen);
  };

  const analyze = async () => {
    if (files.length === 0 && !attached) {
      setError(t('sensor.ecgFileFirst'));
      return;
    }
    // An incomplete WFDB record: its message (naming the missing file) is already shown.
    if (files.length > 0 && !selection.complete) return;
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
      const stored = await run('pcg', () => fetchScreeningAnalyses(screening.id));
      if (!stored.some((a) => a.modality === 'pcg')) set('pcg', 'notPerformed');
      set('ppg', stored.some((a) => a.modality === 'ppg') ? 'done' : 'notPerformed');
      if (files.length > 0 && uploaded !== files) {
        await run('ecg', () => predictUpload('ecg', files, { screeningId: screening.id }));
        setUploaded(files);
      } else {
        set('ecg', 'done');
      }
      const clinical = screening.clinical;
      if (!clinical) set('clinical', 'notPerformed');
      else if (hasCurrentClinical(stored, clinical)) set('clinical', 'done');
      else await run('clinical', () => predictClinical({ ...clinical.parameters, screening_id: screening.id }));
      const result = await run('combined', () => combineScreening(screening.id));
      queryClient.setQueryData<Screening>(queryKeys.screening(screening.id), (old) =>
        old ? { ...old, status: 'completed', combined: result } : old,
      );
      for (const queryKey of [
        queryKeys.screening(screening.id),
        queryKeys.screenings,
        queryKeys.patients,
        queryKeys.analyses,
        queryKeys.audit,
        queryKeys.dashboard,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
      setProgress(null);
      setReplacing(false);
      selection.clear();
      setUploaded(null);
      setAttached(false);
    } catch (caught) {
      setProgress(null);
      const failure = caught instanceof StepError ? caught : new StepError('combined', caught);
      if (failure.step === 'ecg' || failure.step === 'clinical') {
        setError(predictionErrorMessage(failure.cause, failure.step, t));
      } else {
        const fallback = t('sensor.analyzeFailed');
        setError(failure.cause instanceof ApiError ? serverErrorText(failure.cause, fallback, t) : fallback);
      }
    }
  };

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

  if (combined && !replacing) {
    return (
      <>
        <EcgResult screeningId={screening.id} combined={combined} />
        <CombinedView
          result={combined}
          onAnalyzeAnother={() => {
            setError(null);
            setReplacing(true);
          }}
        />
      </>
    );
  }

  return (
    <>
      <section className="card upload-step" aria-labelledby="ecg-upload-title">
        <h2 id="ecg-upload-title" className="section__title">
          {t('sensor.ecgUploadTitle')}
        </h2>
        {replacing && combined && hasEcg(combined) ? <p className="muted">{t('combined.anotherEcgText')}</p> : null}
        <FilePicker kind="ecg" files={files} multiple disabled={false} onFiles={choose} />
        <SerialSource
          kind="ecg"
          limitMs={ECG_SERIAL_LIMIT_MS}
          disabled={false}
          onRecorded={(recorded) => choose([recorded])}
        />
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
              selection.clear();
              setAttached(true);
            }}
          />
        )}
        <ErrorBanner message={error} />
        {files.length > 0 ? (
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => {
              setError(null);
              selection.clear();
            }}
          >
            {t('sensor.removeFile')}
          </button>
        ) : null}
      </section>
      <div className="step-actions">
        {replacing ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setError(null);
              setReplacing(false);
            }}
          >
            <ArrowLeft aria-hidden="true" size={18} />
            {t('combined.backToResult')}
          </button>
        ) : (
          <Link to={screeningPath(paths.sensorPpg, screening.id)} className="button button--secondary">
            <ArrowLeft aria-hidden="true" size={18} />
            {t('common.back')}
          </Link>
        )}
        <button type="button" className="button button--primary" onClick={() => void analyze()}>
          {t('sensor.analyzeEcg')}
        </button>
      </div>
    </>
  );
}

/**
 * The ECG's own result (spec §2: prediction, confidence, risk score, recommendations) with its
 * rhythm strip and detected beats, and a link to its analysis page; the one the combined result uses.
 */
function EcgResult({ screeningId, combined }: { screeningId: string; combined: CombinedResult }) {
  const { t } = useTranslation();
  const analyses = useScreeningAnalyses(screeningId);
  const ecgId = combined.modalities.find((m) => m.modality === 'ecg')?.analysis_id;
  if (!ecgId) return null;
  const analysis = analyses.data?.find((a) => a.id === ecgId);
  let body;
  if (analysis)
    body = (
      <>
        {/* Read from named leads, the result shows the device's interpretation beside Cardio's own. */}
        {ecg12Details(analysis.result.details) ? (
          <PredictionResultView
            result={analysis.result}
            details={false}
            loadWaveform={fetchWaveformWindow}
            device={analysis.result.device_interpretation}
          />
        ) : (
          <>
            <PredictionResultView result={analysis.result} details={false} loadWaveform={fetchWaveformWindow} />
            <DeviceInterpretationPanel device={analysis.result.device_interpretation} headingLevel={3} />
          </>
        )}
      </>
    );
  else if (analyses.isPending) body = <Spinner label={t('app.loading')} />;
  else body = <p className="muted">{t('combined.ecgUnavailable')}</p>;
  return (
    <section className="card" aria-labelledby="ecg-result-title">
      <div className="result__headline">
        <h2 id="ecg-result-title" className="section__title">
          {t('combined.ecgTitle')}
        </h2>
        <Link to={analysisPath(ecgId)} className="button button--secondary button--small">
          <FileText aria-hidden="true" size={16} /> {t('combined.openAnalysis')}
        </Link>
      </div>
      {body}
    </section>
  );
}

/** The step of a recording modality, where it is recorded (again). */
const STEP_PATHS = { pcg: paths.sensorPcg, ppg: paths.sensorPpg } as const;

function CombinedView({ result, onAnalyzeAnother }: { result: CombinedResult; onAnalyzeAnother: () => void }) {
  const { t } = useTranslation();
  const review = useReview({ kind: 'screening', id: result.screening_id });
  const text = useClinicalText();
  const analyses = useScreeningAnalyses(result.screening_id);
  const settle: SettleOption[] = result.modalities.flatMap((m) => {
    const analysis = analyses.data?.find((a) => a.id === m.analysis_id);
    return analysis && !analysis.review
      ? [
          {
            id: analysis.id,
            label: `${modelName(m.modality)}: ${text.finding(m.modality, m.label ?? analysis.result.label, m.prediction ?? analysis.result.prediction)}`,
          },
        ]
      : [];
  });
  return (
    <section className="card result" aria-labelledby="combined-title">
      <div className="result__headline">
        <div>
          <h2 id="combined-title" className="section__title">
            {t('sensor.combinedTitle')}
          </h2>
          <p className="result__condition">
            {t('sensor.overallRisk', { risk: percent(result.risk_score), driver: modelName(result.driver) })}
          </p>
        </div>
        <CombinedRiskBadge combined={result} />
      </div>
      {result.based_on <= 1 ? (
        <p className="notice">
          {t('combined.singleModality', { modality: modelName(result.driver), total: result.out_of })}
        </p>
      ) : null}
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">{t('sensor.modalitiesCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('patientDetail.analysisColumns.model')}</th>
              <th scope="col">{t('sensor.statusLabel')}</th>
              <th scope="col">{t('patientDetail.analysisColumns.result')}</th>
              <th scope="col">{t('patientDetail.analysisColumns.risk')}</th>
              <th scope="col">{t('combined.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {result.modalities.map((m) => {
              const name = modelName(m.modality);
              const step = m.modality === 'pcg' || m.modality === 'ppg' ? STEP_PATHS[m.modality] : null;
              return (
                <tr key={m.modality}>
                  <td>{name}</td>
                  <td>{t(STATUS_KEYS[m.status])}</td>
                  <td>{m.prediction ? text.finding(m.modality, m.label, m.prediction) : '—'}</td>
                  <td>{m.risk_score == null ? '—' : percent(m.risk_score)}</td>
                  <td>
                    <div className="table__actions">
                      {m.analysis_id ? (
                        <Link
                          to={analysisPath(m.analysis_id)}
                          className="button button--secondary button--small"
                          aria-label={t('combined.viewModality', { modality: name })}
                        >
                          {t('patientDetail.viewResult')}
                        </Link>
                      ) : null}
                      {step ? (
                        <Link
                          to={screeningPath(step, result.screening_id)}
                          className="button button--secondary button--small"
                        >
                          {t(m.status === 'performed' ? 'combined.recordAgain' : 'combined.record', { modality: name })}
                        </Link>
                      ) : null}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {result.murmur ? <MurmurSummary murmur={result.murmur} /> : null}
      <p className="muted">{t('sensor.rule', { rule: text.rule() })}</p>
      <section aria-labelledby="combined-recommendations">
        <h3 id="combined-recommendations">{t('results.recommendations')}</h3>
        <ol className="result__list">
          {text.advice(result.advice, result.recommendations).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ol>
      </section>
      <p className="result__disclaimer">{t('results.disclaimer')}</p>
      <ReviewPanel review={review} resultChangedAt={result.combined_at} settle={settle} />
      <div className="form-actions">
        <a
          className="button button--secondary"
          href={`/api/screenings/${encodeURIComponent(result.screening_id)}/report.pdf`}
          download={`cardio-screening-${result.screening_id}.pdf`}
        >
          <Download size={16} aria-hidden="true" /> {t('common.downloadReport')}
        </a>
        <button type="button" className="button button--secondary" onClick={onAnalyzeAnother}>
          {hasEcg(result) ? t('combined.analyzeAnother') : t('combined.analyzeFirst')}
        </button>
        <Link to={paths.home} className="button button--primary">
          {t('common.backToHome')}
        </Link>
      </div>
    </section>
  );
}
