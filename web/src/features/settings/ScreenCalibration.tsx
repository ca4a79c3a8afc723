/**
 * Screen calibration, for ECG paper shown true size: the doctor lengthens or shortens a drawn line
 * (slider, − and + buttons, all keyboard usable) until it matches 100 mm on a ruler or the width
 * of a bank card (85.60 mm), and saves the pixels per millimetre for this screen in this browser.
 */
import { Minus, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CALIBRATION_REFERENCES,
  MAX_PX_PER_MM,
  MIN_PX_PER_MM,
  NOMINAL_PX_PER_MM,
  savePxPerMm,
  useScreenPxPerMm,
  type CalibrationReference,
} from '../../lib/screenCalibration';

export function ScreenCalibration() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const saved = useScreenPxPerMm();
  const [reference, setReference] = useState<CalibrationReference>('card');
  // The line's length in CSS pixels; the pixels per millimetre follow from the reference's length.
  const [pxPerMm, setPxPerMm] = useState(saved ?? NOMINAL_PX_PER_MM);
  const mm = CALIBRATION_REFERENCES[reference];
  const lengthPx = Math.round(pxPerMm * mm);
  const setLength = (px: number) => {
    const clamped = Math.min(Math.max(px, Math.ceil(MIN_PX_PER_MM * mm)), Math.floor(MAX_PX_PER_MM * mm));
    setPxPerMm(clamped / mm);
  };
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  return (
    <section className="card settings-section" aria-labelledby="screen-calibration" id="screen">
      <h2 id="screen-calibration" className="section__title">
        {t('settings.screen')}
      </h2>
      <p className="field__help">{t('settings.screenHelp')}</p>
      <fieldset className="screen-calibration__references">
        <legend className="field__label">{t('settings.screenReference')}</legend>
        {(Object.keys(CALIBRATION_REFERENCES) as CalibrationReference[]).map((key) => (
          <label key={key} className="screen-calibration__reference">
            <input
              type="radio"
              name={`${id}-reference`}
              checked={reference === key}
              onChange={() => setReference(key)}
            />{' '}
            {t(`settings.screenReferences.${key}`)}
          </label>
        ))}
      </fieldset>
      <div className="screen-calibration__ruler">
        <div
          className="screen-calibration__line"
          data-testid="screen-calibration-line"
          style={{ width: `${lengthPx}px` }}
          role="img"
          aria-label={t('settings.screenLineLabel', { mm: number.format(mm) })}
        />
      </div>
      <div className="screen-calibration__adjust">
        <button
          type="button"
          className="icon-button"
          aria-label={t('settings.screenShorter')}
          onClick={() => setLength(lengthPx - 1)}
        >
          <Minus size={18} aria-hidden="true" />
        </button>
        <input
          type="range"
          className="screen-calibration__range"
          min={Math.ceil(MIN_PX_PER_MM * mm)}
          max={Math.floor(MAX_PX_PER_MM * mm)}
          step={1}
          value={lengthPx}
          aria-label={t('settings.screenLine')}
          aria-valuetext={t('settings.screenLineValue', { px: lengthPx })}
          onChange={(event) => setLength(Number(event.target.value))}
        />
        <button
          type="button"
          className="icon-button"
          aria-label={t('settings.screenLonger')}
          onClick={() => setLength(lengthPx + 1)}
        >
          <Plus size={18} aria-hidden="true" />
        </button>
      </div>
      <div className="screen-calibration__actions">
        <button type="button" className="button button--primary" onClick={() => savePxPerMm(pxPerMm)}>
          {t('settings.screenSave')}
        </button>
        {saved !== null ? (
          <button type="button" className="button button--secondary" onClick={() => savePxPerMm(null)}>
            {t('settings.screenForget')}
          </button>
        ) : null}
      </div>
      <p className="muted small" role="status" data-testid="screen-calibration-status">
        {saved === null ? t('settings.screenNone') : t('settings.screenSaved', { value: number.format(saved) })}
      </p>
    </section>
  );
}
