import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PredictionResult } from '../../../api/client';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Modal } from '../../../components/Modal';
import { PredictionResultView } from '../../../components/PredictionResultView';
import { fetchWaveformWindow } from '../../../api/waveforms';
import { predictionErrorMessage, type ModelKind } from '../../../lib/prediction';
import { usePredict, type ClinicalPredictBody } from '../api';
import { FilePicker } from '../../../components/FilePicker';
import { useRecordingFiles } from '../../../lib/useRecordingFiles';

type ClinicalValues = Record<Exclude<keyof ClinicalPredictBody, 'patient_id' | 'screening_id'>, string>;

/** Spec §5: the modal's defaults. */
const CLINICAL_DEFAULTS: ClinicalValues = {
  age: '50',
  chest_pain_type: '0',
  cholesterol: '200',
  fasting_blood_sugar: '100',
  exercise_induced_angina: '0',
  vessels_colored_by_flourosopy: '0',
  thalassemia: '0',
};

/** Spec §5: numeric inputs are parsed to numbers and an unparseable value becomes 0. */
function toNumber(text: string): number {
  const value = Number(text.trim());
  return text.trim() === '' || !Number.isFinite(value) ? 0 : value;
}

function clinicalBody(values: ClinicalValues): ClinicalPredictBody {
  return {
    age: toNumber(values.age),
    chest_pain_type: toNumber(values.chest_pain_type),
    cholesterol: toNumber(values.cholesterol),
    fasting_blood_sugar: toNumber(values.fasting_blood_sugar),
    exercise_induced_angina: toNumber(values.exercise_induced_angina),
    vessels_colored_by_flourosopy: toNumber(values.vessels_colored_by_flourosopy),
    thalassemia: toNumber(values.thalassemia),
  };
}

const SELECTS = {
  chest_pain_type: (['0', '1', '2', '3'] as const).map((v) => ({
    value: v,
    key: `clinicalParams.chestPain.${v}` as const,
  })),
  exercise_induced_angina: (['0', '1'] as const).map((v) => ({ value: v, key: `clinicalParams.angina.${v}` as const })),
  vessels_colored_by_flourosopy: (['0', '1', '2', '3'] as const).map((v) => ({ value: v, key: null })),
  thalassemia: (['0', '1', '2'] as const).map((v) => ({ value: v, key: `clinicalParams.thal.${v}` as const })),
} as const;

function ClinicalFields({
  values,
  disabled,
  onChange,
}: {
  values: ClinicalValues;
  disabled: boolean;
  onChange: (field: keyof ClinicalValues, value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const number = (field: 'age' | 'cholesterol' | 'fasting_blood_sugar', label: string, max?: number) => (
    <div className="field">
      <label htmlFor={`${id}-${field}`} className="field__label field__label--required">
        {label}
      </label>
      <input
        id={`${id}-${field}`}
        className="input"
        type="number"
        inputMode="decimal"
        required
        min={0}
        max={max}
        value={values[field]}
        disabled={disabled}
        onChange={(event) => onChange(field, event.target.value)}
      />
    </div>
  );
  const select = (field: keyof typeof SELECTS, label: string) => (
    <div className="field">
      <label htmlFor={`${id}-${field}`} className="field__label field__label--required">
        {label}
      </label>
      <select
        id={`${id}-${field}`}
        className="select select--input"
        required
        value={values[field]}
        disabled={disabled}
        onChange={(event) => onChange(field, event.target.value)}
      >
        {SELECTS[field].map((option) => (
          <option key={option.value} value={option.value}>
            {option.key ? t(option.key) : option.value}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <div className="form-grid">
      {number('age', t('clinicalParams.age'), 120)}
      {select('chest_pain_type', t('clinicalParams.chestPainType'))}
      {number('cholesterol', t('clinicalParams.cholesterol'))}
      {number('fasting_blood_sugar', t('clinicalParams.fastingBloodSugar'))}
      {select('exercise_induced_angina', t('clinicalParams.exerciseInducedAngina'))}
      {select('vessels_colored_by_flourosopy', t('clinicalParams.vessels'))}
      {select('thalassemia', t('clinicalParams.thalassemia'))}
    </div>
  );
}

const TITLES = {
  clinical: 'home.models.clinical.title',
  pcg: 'home.models.pcg.title',
  ppg: 'home.models.ppg.title',
  ecg: 'home.models.ecg.title',
} as const satisfies Record<ModelKind, string>;

/** A model modal (spec §2): the form or file picker, then the results with Analyze Another / Close. */
export function ModelDialog({ kind, onClose }: { kind: ModelKind; onClose: () => void }) {
  const { t } = useTranslation();
  const predict = usePredict();
  const [values, setValues] = useState<ClinicalValues>(CLINICAL_DEFAULTS);
  const recording = useRecordingFiles(kind === 'clinical' ? 'ecg' : kind);
  const [result, setResult] = useState<PredictionResult | null>(null);
  const busy = predict.isPending;

  const chooseFiles = (chosen: File[]) => {
    if (kind === 'clinical') return;
    predict.reset();
    recording.choose(chosen);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (kind === 'clinical') {
      predict.mutate({ kind, body: clinicalBody(values) }, { onSuccess: setResult });
      return;
    }
    if (recording.files.length === 0) {
      recording.setError(t(kind === 'pcg' ? 'models.errors.noAudioFile' : 'models.errors.noFile'));
      return;
    }
    if (!recording.complete) return;
    predict.mutate({ kind, files: recording.files }, { onSuccess: setResult });
  };

  const analyzeAnother = () => {
    setResult(null);
    recording.clear();
    predict.reset();
  };

  if (result) {
    return (
      <Modal key="results" title={t('results.title')} onClose={onClose}>
        <PredictionResultView result={result} loadWaveform={fetchWaveformWindow} />
        <div className="form-actions">
          <button type="button" className="button button--secondary" onClick={analyzeAnother}>
            {t('results.analyzeAnother')}
          </button>
          <button type="button" className="button button--primary" onClick={onClose}>
            {t('results.close')}
          </button>
        </div>
      </Modal>
    );
  }

  const error = predict.isError ? predictionErrorMessage(predict.error, kind, t) : recording.error;
  const canAnalyze = !busy && (kind === 'clinical' || recording.complete);
  return (
    <Modal key="form" title={t(TITLES[kind])} onClose={onClose}>
      <form className="form" onSubmit={onSubmit} aria-busy={busy}>
        {kind === 'clinical' ? (
          <ClinicalFields
            values={values}
            disabled={busy}
            onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
          />
        ) : (
          <FilePicker
            kind={kind}
            files={recording.files}
            multiple={kind === 'ecg'}
            disabled={busy}
            onFiles={chooseFiles}
          />
        )}
        <ErrorBanner message={error} />
        <div className="form-actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={!canAnalyze}>
            {busy ? t('models.analyzing') : t('models.analyze')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
