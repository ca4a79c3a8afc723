/**
 * The ECG paper's choices, as chips with aria-pressed: layout (when the record has the twelve
 * standard leads), paper speed, gain, true size (once this screen is calibrated in Settings), the
 * calipers with their march-out, and for a record the server read as a 12-lead ECG its global
 * fiducial lines, each lead's own marks and the median-beat panel.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PAPER_GAINS, PAPER_SPEEDS, type PaperSettings } from './geometry';
import { ECG_LAYOUTS, type EcgLayout } from './paperLayout';

/** One group of chips, one of which is pressed. */
function Chips<T extends string | number>({
  label,
  values,
  value,
  text,
  testId,
  onChange,
}: {
  label: string;
  values: readonly T[];
  value: T;
  text: (value: T) => string;
  testId: string;
  onChange: (value: T) => void;
}) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {values.map((option) => (
        <button
          key={option}
          type="button"
          className={`chip${option === value ? ' chip--active' : ''}`}
          aria-pressed={option === value}
          data-testid={`${testId}-${option}`}
          onClick={() => onChange(option)}
        >
          {text(option)}
        </button>
      ))}
    </div>
  );
}

/** A chip that is on or off. */
function Switch({
  label,
  on,
  testId,
  disabled = false,
  describedBy,
  onChange,
}: {
  label: string;
  on: boolean;
  testId: string;
  disabled?: boolean;
  describedBy?: string;
  onChange: (on: boolean) => void;
}) {
  return (
    <button
      type="button"
      className={`chip${on ? ' chip--active' : ''}`}
      aria-pressed={on}
      data-testid={testId}
      disabled={disabled}
      aria-describedby={describedBy}
      onClick={() => onChange(!on)}
    >
      {label}
    </button>
  );
}

export interface EcgChoices {
  layout: EcgLayout;
  paper: PaperSettings;
  trueSize: boolean;
  calipers: boolean;
  march: boolean;
  fiducials: boolean;
  leadMarks: boolean;
  median: boolean;
}

export function EcgControls({
  choices,
  standardLeads,
  calibrated,
  calibrateHref,
  reading = false,
  onChange,
}: {
  choices: EcgChoices;
  /** Whether the record has the twelve standard leads (the only case with a choice of layout). */
  standardLeads: boolean;
  /** Whether this screen has a calibration (true size needs one). */
  calibrated: boolean;
  /** Where the screen is calibrated (the Settings page), when the page gives it. */
  calibrateHref?: string;
  /** Whether the server read the record as a 12-lead ECG (its marks and median beats exist). */
  reading?: boolean;
  onChange: (change: Partial<EcgChoices>) => void;
}) {
  const { t } = useTranslation();
  const needsId = useId();
  const paper = choices.paper;
  return (
    <div className="waveform__ecg-controls">
      {standardLeads ? (
        <Chips
          label={t('waveform.layout')}
          values={ECG_LAYOUTS}
          value={choices.layout}
          text={(value) => t(`waveform.layouts.${value}`)}
          testId="ecg-layout"
          onChange={(layout) => onChange({ layout })}
        />
      ) : null}
      <Chips
        label={t('waveform.speed')}
        values={PAPER_SPEEDS}
        value={paper.speedMmPerS as (typeof PAPER_SPEEDS)[number]}
        text={(value) => t('waveform.mmPerS', { value })}
        testId="ecg-speed"
        onChange={(speedMmPerS) => onChange({ paper: { ...paper, speedMmPerS } })}
      />
      <Chips
        label={t('waveform.gain')}
        values={PAPER_GAINS}
        value={paper.gainMmPerMv as (typeof PAPER_GAINS)[number]}
        text={(value) => t('waveform.mmPerMv', { value })}
        testId="ecg-gain"
        onChange={(gainMmPerMv) => onChange({ paper: { ...paper, gainMmPerMv } })}
      />
      <div className="segmented">
        <Switch
          label={t('waveform.trueSize')}
          on={choices.trueSize && calibrated}
          testId="ecg-true-size"
          disabled={!calibrated}
          describedBy={calibrated ? undefined : needsId}
          onChange={(trueSize) => onChange({ trueSize })}
        />
        {calibrated ? null : (
          <span className="waveform__needs small muted" id={needsId}>
            {t('waveform.trueSizeNeeds')} {calibrateHref ? <a href={calibrateHref}>{t('waveform.calibrate')}</a> : null}
          </span>
        )}
      </div>
      <div className="segmented">
        <Switch
          label={t('waveform.calipers')}
          on={choices.calipers}
          testId="ecg-calipers"
          onChange={(calipers) => onChange({ calipers })}
        />
        {choices.calipers ? (
          <Switch
            label={t('waveform.marchOut')}
            on={choices.march}
            testId="ecg-march-out"
            onChange={(march) => onChange({ march })}
          />
        ) : null}
      </div>
      {reading ? (
        <div className="segmented">
          <Switch
            label={t('waveform.fiducials')}
            on={choices.fiducials}
            testId="ecg-fiducials"
            onChange={(fiducials) => onChange({ fiducials })}
          />
          <Switch
            label={t('waveform.leadMarks')}
            on={choices.leadMarks}
            testId="ecg-lead-marks"
            onChange={(leadMarks) => onChange({ leadMarks })}
          />
          <Switch
            label={t('waveform.median')}
            on={choices.median}
            testId="ecg-median"
            onChange={(median) => onChange({ median })}
          />
        </div>
      ) : null}
    </div>
  );
}
