/**
 * The models' words in the reader's language: a finding from its label, recommendations from
 * their catalogue codes (`advice`), the combination rule, modality names. The catalogue is the
 * one the server's PDF reports read (`content.*` in i18n). A result stored before it carried
 * codes, or a finding whose text is not the catalogue's sentence for its label, is shown as
 * stored.
 */
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import type { AdviceItem } from '../api/client';

/** A modality code as the catalogue writes it. */
export type ModalityCode = 'clinical' | 'ecg' | 'pcg' | 'ppg';

/** The modality code of a result's `model` (`ECG`, `Clinical`, ...). */
export function modalityOfModel(model: string): ModalityCode | null {
  const code = model.toLowerCase();
  return code === 'clinical' || code === 'ecg' || code === 'pcg' || code === 'ppg' ? code : null;
}

type Params = Record<string, string>;

/** Translates a dynamic catalogue key (the keys come from the server, not from the code). */
function text(key: string, params: Params = {}, lng?: string): string | null {
  const options = lng ? { ...params, lng } : params;
  return i18n.exists(key, options) ? String(i18n.t(key as never, options as never)) : null;
}

function modalityName(code: string): string {
  return text(`content.modalities.${code}`) ?? code;
}

/** The finding of `label` from `modality` in the active language, or `stored` as it is. */
export function findingText(modality: string | null, label: string | null | undefined, stored: string): string {
  if (!modality || !label) return stored;
  const key = `content.findings.${modality}.${label}`;
  return text(key, {}, 'en') === stored ? (text(key) ?? stored) : stored;
}

/** Recommendations in the active language (`stored` when the result has no codes). */
export function adviceTexts(advice: readonly AdviceItem[] | undefined, stored: readonly string[]): string[] {
  if (!advice || advice.length === 0) return [...stored];
  return advice.map((item) => {
    const params: Params = {};
    for (const [name, value] of Object.entries(item.params ?? {})) {
      params[name] = name === 'modality' ? modalityName(String(value)) : String(value);
    }
    return text(`content.advice.${item.code}`, params) ?? item.code;
  });
}

/**
 * The same functions, re-rendered when the language changes (components call this hook so a
 * language switch redraws the models' words too).
 */
export function useClinicalText() {
  const { t } = useTranslation();
  return {
    finding: findingText,
    advice: adviceTexts,
    rule: () => t('content.advice.combined.rule'),
    modality: modalityName,
  };
}
