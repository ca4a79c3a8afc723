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

/** The parameters of a reason template that hold phrases of their own (translated in turn). */
const PHRASES = new Set(['noun', 'what', 'beats', 'feature', 'reason']);

type Part = { text: string } | { hole: string };

function parts(template: string): Part[] {
  const out: Part[] = [];
  const pattern = /{{(\w+)}}/g;
  let last = 0;
  for (const match of template.matchAll(pattern)) {
    if (match.index > last) out.push({ text: template.slice(last, match.index) });
    out.push({ hole: match[1] ?? '' });
    last = match.index + match[0].length;
  }
  if (last < template.length) out.push({ text: template.slice(last) });
  return out;
}

/** The holes' values when `text` is the template filled in (every split tried), or null. */
function fill(text: string, rest: Part[], found: [string, string][]): boolean {
  const [first, ...tail] = rest;
  if (!first) return text === '';
  if ('text' in first) return text.startsWith(first.text) && fill(text.slice(first.text.length), tail, found);
  const next = tail[0];
  const ends: number[] = [];
  if (!next) ends.push(text.length);
  else if ('text' in next) {
    for (let at = text.indexOf(next.text); at >= 0; at = text.indexOf(next.text, at + 1)) ends.push(at);
  } else return false;
  for (const end of ends.filter((e) => e > 0)) {
    found.push([first.hole, text.slice(0, end)]);
    if (fill(text.slice(end), tail, found)) return true;
    found.pop();
  }
  return false;
}

function englishSection(path: 'templates' | 'terms'): Record<string, string> {
  const value: unknown = i18n.getResource('en', 'translation', `content.reasons.${path}`);
  return value && typeof value === 'object' ? (value as Record<string, string>) : {};
}

function phrase(english: string): string {
  const term = Object.entries(englishSection('terms')).find(([, value]) => value === english);
  return term ? (text(`content.reasons.terms.${term[0]}`) ?? english) : reasonText(english);
}

/**
 * A reason the signal checks, the plausibility gate or a model wrote in English (a result's
 * details), in the active language: matched against the catalogue's English templates, the most
 * specific first, its phrases translated in turn; a text no template matches is shown as it is.
 * The server's PDF reports do the same (`cardio_models::catalogue::reason`).
 */
export function reasonText(english: string): string {
  if (i18n.language === 'en') return english;
  let best: { fixed: number; key: string; found: [string, string][] } | null = null;
  for (const [key, template] of Object.entries(englishSection('templates'))) {
    const split = parts(template);
    const found: [string, string][] = [];
    if (!fill(english, split, found)) continue;
    const fixed = split.reduce((n, p) => n + ('text' in p ? p.text.length : 0), 0);
    if (!best || fixed > best.fixed) best = { fixed, key, found };
  }
  if (!best) return english;
  const params: Params = {};
  for (const [name, value] of best.found) params[name] = PHRASES.has(name) ? phrase(value) : value;
  return text(`content.reasons.templates.${best.key}`, params) ?? english;
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
