import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';

const STEPS = ['clinical', 'pcg', 'ppg', 'ecg'] as const;
export type ScreeningStep = (typeof STEPS)[number];

/**
 * The four-step progress bar of the screening workflow (spec §2): the steps before the current one
 * are marked completed (a check mark, the success colour, and "completed" for screen readers), the
 * current one is highlighted, the rest wait.
 */
export function StepProgress({ current }: { current: ScreeningStep }) {
  const { t } = useTranslation();
  const currentIndex = STEPS.indexOf(current);
  return (
    <nav aria-label={t('sensor.steps.label')}>
      <ol className="step-progress">
        {STEPS.map((step, index) => {
          const state = index < currentIndex ? 'done' : index === currentIndex ? 'current' : 'todo';
          return (
            <li
              key={step}
              className={`step-progress__item step-progress__item--${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="step-progress__number" aria-hidden="true">
                {state === 'done' ? <Check size={16} strokeWidth={3} /> : index + 1}
              </span>
              <span>{t(`sensor.steps.${step}`)}</span>
              {state === 'done' && <span className="visually-hidden"> ({t('sensor.steps.completed')})</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
