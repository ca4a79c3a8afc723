import { Languages, SunMoon } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, isLanguage, SUPPORTED_LANGUAGES } from '../i18n';
import { isThemeChoice, THEME_CHOICES, useTheme } from '../lib/theme';

interface SelectProps {
  /** Show the label visibly (settings page) or only to assistive technology (compact bars). */
  showLabel?: boolean;
  className?: string;
}

export function ThemeSelect({ showLabel = false, className }: SelectProps) {
  const { t } = useTranslation();
  const { theme, setTheme } = useTheme();
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
          if (isThemeChoice(event.target.value)) setTheme(event.target.value);
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
}: SelectProps & { names?: 'native' | 'translated' }) {
  const { t, i18n } = useTranslation();
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
          if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
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
export function PreferenceControls({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <div
      className={['preferences', className].filter(Boolean).join(' ')}
      role="group"
      aria-label={t('app.preferences')}
    >
      <ThemeSelect />
      <LanguageSelect />
    </div>
  );
}
