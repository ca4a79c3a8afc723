import { Languages, SunMoon } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, isLanguage, SUPPORTED_LANGUAGES, type Language } from '../i18n';
import { isThemeChoice, THEME_CHOICES, useTheme, type ThemeChoice } from '../lib/theme';

interface SelectProps {
  /** Show the label visibly (settings page) or only to assistive technology (compact bars). */
  showLabel?: boolean;
  className?: string;
}

/** Where a choice goes besides this browser: signed in, the account's saved settings. */
export interface PreferenceHandlers {
  onThemeChange?: (theme: ThemeChoice) => void;
  onLanguageChange?: (language: Language) => void;
}

export function ThemeSelect({
  showLabel = false,
  className,
  onThemeChange,
}: SelectProps & Pick<PreferenceHandlers, 'onThemeChange'>) {
  const { t } = useTranslation();
  const { theme, setTheme } = useTheme();
  const choose = onThemeChange ?? setTheme;
  const id = useId();
  return (
    <div className={['field', showLabel ? null : 'field--compact', className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className={showLabel ? 'field__label' : 'visually-hidden'}>
        {t('theme.label')}
      </label>
      {showLabel ? null : <SunMoon className="field__icon" aria-hidden="true" size={16} />}
      <select
        id={id}
        className="select"
        value={theme}
        onChange={(event) => {
          if (isThemeChoice(event.target.value)) choose(event.target.value);
        }}
      >
        {THEME_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {t(`theme.${choice}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function LanguageSelect({
  showLabel = false,
  className,
  names = 'native',
  onLanguageChange,
}: SelectProps & Pick<PreferenceHandlers, 'onLanguageChange'> & { names?: 'native' | 'translated' }) {
  const { t, i18n } = useTranslation();
  const choose = onLanguageChange ?? ((next: Language) => void changeLanguage(next));
  const id = useId();
  const language = currentLanguage();
  return (
    <div className={['field', showLabel ? null : 'field--compact', className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className={showLabel ? 'field__label' : 'visually-hidden'}>
        {t('language.label')}
      </label>
      {showLabel ? null : <Languages className="field__icon" aria-hidden="true" size={16} />}
      <select
        id={id}
        className="select"
        value={language}
        lang={i18n.language}
        onChange={(event) => {
          if (isLanguage(event.target.value)) choose(event.target.value);
        }}
      >
        {SUPPORTED_LANGUAGES.map((code) => (
          <option key={code} value={code} lang={names === 'native' ? code : undefined}>
            {names === 'native' ? t(`language.native.${code}`) : t(`language.names.${code}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Theme and language, side by side: for the public pages' top bar and the sidebar. */
export function PreferenceControls({
  className,
  onThemeChange,
  onLanguageChange,
}: { className?: string } & PreferenceHandlers) {
  const { t } = useTranslation();
  return (
    <div
      className={['preferences', className].filter(Boolean).join(' ')}
      role="group"
      aria-label={t('app.preferences')}
    >
      <ThemeSelect onThemeChange={onThemeChange} />
      <LanguageSelect onLanguageChange={onLanguageChange} />
    </div>
  );
}
