import { useId, type ReactNode } from 'react';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import type { DeviceInterpretation, PredictionResult, Review } from '../api/client';
import { ConfirmedInterpretationPanel } from './ConfirmedInterpretationPanel';
import type { LoadWaveformWindow } from '../api/waveforms';
import { DeviceInterpretationPanel } from './DeviceInterpretationPanel';
import { ResultBadge } from './RiskBadge';
import { AnalysisWaveform } from './waveform/AnalysisWaveform';
import { clinicalFactors, clinicalFields, type ClinicalAttribute } from '../lib/clinicalFactors';
import { modalityOfModel, reasonText, useClinicalText } from '../lib/clinicalText';
import { detailLabel, detailValue, percent, riskPercent } from '../lib/prediction';
import { recordingMurmur } from '../lib/auscultation';
import { ECG12_PANEL_KEYS, ecg12Details } from '../lib/ecg12';
import { EpisodesPanel } from './recording/EpisodesPanel';
import { RECORD_KEYS, recordDetails } from './recording/recordTimeline';
import { EcgMeasurementsPanel } from './EcgMeasurementsPanel';
import { EcgStatementsPanel } from './EcgStatementsPanel';
import { useDurationText } from './recording/durationText';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Details whose value is a name (a lead, a model), never a sentence to translate. */
const NAME_KEYS = new Set(['channel', 'model', 'input', 'id', 'version', 'submodel']);

/** A result read from more of its recording than this (seconds, one window of the model) says how much it read. */
const ONE_WINDOW_S = 30;

/** Lists of records longer than this (a long recording's per-window results) start collapsed. */
const OPEN_LIST_MAX = 3;

/** A detail whose value is a code (`rhythm_decision: twelve_lead_statements`) in the reader's words, else the sentence translated. */
function codedValue(key: string, value: string): string {
  const coded = `results.detailValues.${key}.${value}`;
  return i18n.exists(coded) ? String(i18n.t(coded as never)) : reasonText(value);
}

/**
 * Spec §2: key/value pairs, underscores as spaces, nested objects as sub-lists, numbers with 2
 * decimals (whole numbers as whole numbers). A long list of records is collapsed behind its count.
 */
function DetailList({ details }: { details: Record<string, unknown> }) {
  const { t } = useTranslation();
  return (
    <ul>
      {Object.entries(details).map(([key, value]) => (
        <li key={key}>
          <span className="result__detail-key">{detailLabel(key)}:</span>{' '}
          {isRecord(value) ? (
            <DetailList details={value} />
          ) : Array.isArray(value) ? (
            value.every((item) => !isRecord(item)) ? (
              <span>{value.map(detailValue).join(', ')}</span>
            ) : (
              <Collapsible
                collapsed={value.length > OPEN_LIST_MAX}
                summary={t('results.items', { count: value.length })}
              >
                <ol>
                  {value.map((item, index) => (
                    // Items have no identity of their own; their position is it.
                    <li key={index}>{isRecord(item) ? <DetailList details={item} /> : detailValue(item)}</li>
                  ))}
                </ol>
              </Collapsible>
            )
          ) : (
            <span>
              {typeof value === 'string' && !NAME_KEYS.has(key) ? codedValue(key, value) : detailValue(value)}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** `children` behind a closed disclosure showing `summary` when `collapsed`, else as they are. */
function Collapsible({ collapsed, summary, children }: { collapsed: boolean; summary: string; children: ReactNode }) {
  if (!collapsed) return children;
  return (
    <details className="result__collapsed">
      <summary>{summary}</summary>
      {children}
    </details>
  );
}

/** The model names of results read from a recording, and the waveform kind of each. */
const SIGNAL_MODELS = { ECG: 'ecg', PCG: 'pcg', PPG: 'ppg' } as const;

function signalKind(model: string): 'ecg' | 'pcg' | 'ppg' | null {
  return model in SIGNAL_MODELS ? SIGNAL_MODELS[model as keyof typeof SIGNAL_MODELS] : null;
}

/**
 * The body of the results modal (spec §2 "Results modal", §9 risk bands and number formats), with
 * the recording's waveform and detected beats when the input was a signal and the page passes
 * `loadWaveform`, the loader of the recording's windows (a page that shows the waveform elsewhere
 * leaves it out). `details: false` leaves out Additional Details (where the page links to the full
 * result instead).
 *
 * An ECG whose interpretation a doctor confirmed (`review`) shows that first, with who and when.
 * An ECG read from named leads shows Cardio's computer interpretation (unconfirmed) and its
 * measurements right under the result, then its other details folded behind "More details";
 * `device`, the recording device's own interpretation, is then shown right after Cardio's so the
 * two sit together (a page that shows it beside the result leaves it out). A result read from a
 * whole long recording says under its finding how much of it was analysed.
 */
export function PredictionResultView({
  result,
  loadWaveform,
  details: withDetails = true,
  device,
  review,
  episodes: withEpisodes = true,
}: {
  result: PredictionResult;
  loadWaveform?: LoadWaveformWindow;
  details?: boolean;
  device?: DeviceInterpretation | null;
  /** The result's current sign-off: an ECG's confirmed interpretation is shown from it. */
  review?: Review | null;
  /** A long recording's episodes table (a page that shows it beside its timeline leaves it out). */
  episodes?: boolean;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const kind = signalKind(result.model);
  const text = useClinicalText();
  const durationText = useDurationText();
  const recommendations = text.advice(result.advice, result.recommendations);
  const details: Record<string, unknown> = isRecord(result.details) ? result.details : {};
  const model: Record<string, unknown> | undefined = isRecord(details.model) ? details.model : undefined;
  // The clinical model's columns read as ranked factors; the raw columns stay out of the details list.
  const factors = clinicalFactors(details.contributions);
  const largest = Math.max(...factors.map((f) => Math.abs(f.value)), 1e-9);
  const used = clinicalFields(details.attributes_used);
  const missing = clinicalFields(details.attributes_missing);
  // An ECG read from named leads: its measurements and statements in their own panels, the rest
  // of its details folded behind "More details".
  const ecg = kind === 'ecg' ? ecg12Details(details) : null;
  // A recording read whole: its episodes in their own table, not as raw details.
  const record = recordDetails(details);
  const shownApart = new Set<string>([
    ...(record.episodes ? RECORD_KEYS : []),
    'attributes_used',
    'attributes_missing',
    'sex_source',
    ...(factors.length > 0 ? ['contributions'] : []),
    ...(ecg ? ECG12_PANEL_KEYS : []),
  ]);
  const listed = Object.fromEntries(Object.entries(details).filter(([key]) => !shownApart.has(key)));
  return (
    <div className="result">
      <p className="muted">
        {t('results.model', { model: result.model })}
        {model && typeof model.id === 'string'
          ? ` · ${model.id} ${typeof model.version === 'string' ? model.version : ''}`
          : ''}
      </p>
      <div className="result__headline">
        <div>
          <p className="muted">{t('results.predictedCondition')}</p>
          <p className="result__condition">
            {text.finding(modalityOfModel(result.model), result.label, result.prediction)}
          </p>
          {typeof details.analysed_s === 'number' && details.analysed_s > ONE_WINDOW_S ? (
            <p className="result__analysed muted">
              {t('wholeRecord.analysed', { duration: durationText(details.analysed_s) })}
            </p>
          ) : null}
        </div>
        <ResultBadge label={result.label} riskScore={result.risk_score} />
      </div>
      <div className="result__figures">
        <div className="result__figure">
          <p className="muted">{t('results.confidence')}</p>
          <p className="result__figure-value">{percent(result.confidence)}</p>
        </div>
        <div className="result__figure">
          <p className="muted">{t('results.riskScore')}</p>
          <p className="result__figure-value">{riskPercent(result.label, result.risk_score)}</p>
        </div>
      </div>
      {loadWaveform && kind && result.analysis_id ? (
        <section aria-labelledby={`${ids}-waveform`}>
          <h3 id={`${ids}-waveform`}>{t('waveform.title')}</h3>
          <AnalysisWaveform
            analysisId={result.analysis_id}
            kind={kind}
            load={loadWaveform}
            murmurTiming={recordingMurmur(result.details)?.timing}
          />
        </section>
      ) : null}
      {kind === 'ecg' && review?.interpretation ? (
        <ConfirmedInterpretationPanel
          statements={review.interpretation}
          reviewerName={review.reviewerName}
          confirmedAt={review.createdAt}
        />
      ) : null}
      {withEpisodes && record.episodes ? <EpisodesPanel record={record} /> : null}
      {ecg ? (
        <>
          <EcgStatementsPanel ecg={ecg} />
          {device ? (
            <DeviceInterpretationPanel
              device={device}
              headingLevel={3}
              className="device-interpretation device-interpretation--in-result"
            />
          ) : null}
          <EcgMeasurementsPanel ecg={ecg} />
        </>
      ) : null}
      {recommendations.length > 0 && (
        <section aria-labelledby={`${ids}-recommendations`}>
          <h3 id={`${ids}-recommendations`}>{t('results.recommendations')}</h3>
          <ol className="result__list">
            {recommendations.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ol>
        </section>
      )}
      {factors.length > 0 && (
        <section aria-labelledby={`${ids}-factors`}>
          <h3 id={`${ids}-factors`}>{t('results.factors.title')}</h3>
          <p className="muted">{t('results.factors.note')}</p>
          <ol className="result__factors">
            {factors.map((factor) => (
              <li key={factor.attribute}>
                <span className="result__factor-name">
                  {factor.known
                    ? t(`clinicalParams.${factor.attribute as ClinicalAttribute}`)
                    : detailLabel(factor.attribute)}
                </span>
                <span className={factor.value > 0 ? 'result__factor--up' : 'result__factor--down'}>
                  {factor.value > 0 ? t('results.factors.raises') : t('results.factors.lowers')}
                </span>
                <span
                  className="result__factor-bar"
                  aria-hidden="true"
                  style={{ width: `${Math.round((40 * Math.abs(factor.value)) / largest) + 4}px` }}
                />
              </li>
            ))}
          </ol>
          {used.length > 0 && (
            <p className="muted">
              {t('results.factors.used', { fields: used.map((field) => t(`clinicalParams.${field}`)).join(', ') })}
              {details.sex_source === 'patient_record' ? ` ${t('results.factors.sexFromRecord')}` : ''}
            </p>
          )}
          {missing.length > 0 && (
            <p className="muted">
              {t('results.factors.missing', {
                fields: missing.map((field) => t(`clinicalParams.${field}`)).join(', '),
              })}
            </p>
          )}
        </section>
      )}
      {withDetails && ecg && Object.keys(listed).length > 0 && (
        <details className="result__details result__more">
          <summary className="result__more-summary">{t('results.moreDetails')}</summary>
          <DetailList details={listed} />
        </details>
      )}
      {withDetails && !ecg && Object.keys(listed).length > 0 && (
        <section className="result__details" aria-labelledby={`${ids}-details`}>
          <h3 id={`${ids}-details`}>{t('results.details')}</h3>
          <DetailList details={listed} />
        </section>
      )}
      <p className="result__disclaimer">{t('results.disclaimer')}</p>
    </div>
  );
}
