import { Plus, X } from 'lucide-react';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EcgStatementOption, StatementChoice } from '../../api/client';
import { statementText, type DraftStatement } from '../../lib/interpretation';

/** Longest statement in the doctor's own words the server takes (characters). */
export const MAX_OWN_STATEMENT_CHARS = 200;

/** Most options the search list shows at once. */
const MAX_SHOWN = 12;

/** Lower case without accents, so "bloqueo av" finds "Bloqueo AV" and "deviation" finds "déviation". */
function folded(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** What the server is sent for the statements shown. */
export function choicesOf(statements: DraftStatement[]): StatementChoice[] {
  return statements.map((s) => (s.code ? { code: s.code } : { text: s.text.trim() }));
}

/**
 * The ECG interpretation the doctor confirms when signing off (issue 40): the statements as they
 * stand (Cardio's, or the ones confirmed last), each removable; a searchable list of the table's
 * statements to add one (a combobox: type to filter, arrow keys to move, Enter to add, Escape to
 * close); and a line for the doctor's own words. It holds no state: the review panel does.
 */
export function InterpretationEditor({
  statements,
  onChange,
  options,
  optionsFailed,
}: {
  statements: DraftStatement[];
  onChange: (next: DraftStatement[]) => void;
  /** The statements table, `undefined` while it loads. */
  options: EcgStatementOption[] | undefined;
  optionsFailed: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [own, setOwn] = useState('');
  const [ownProblem, setOwnProblem] = useState<string | null>(null);

  const chosen = useMemo(() => new Set(statements.map((s) => s.code).filter(Boolean)), [statements]);
  const matches = useMemo(() => {
    const q = folded(query.trim());
    return (options ?? [])
      .filter((o) => !chosen.has(o.code))
      .map((o) => ({ code: o.code, label: statementText(t, o.code, o.text) }))
      .filter((o) => q === '' || folded(o.label).includes(q))
      .slice(0, MAX_SHOWN);
  }, [options, chosen, query, t]);

  const add = (code: string, text: string) => {
    onChange([...statements, { code, text }]);
    setQuery('');
    setActive(0);
  };
  const remove = (index: number) => onChange(statements.filter((_, k) => k !== index));
  const addOwn = () => {
    const text = own.trim();
    if (text === '' || text.length > MAX_OWN_STATEMENT_CHARS) {
      setOwnProblem(t('review.interpretation.ownLength'));
      return;
    }
    setOwnProblem(null);
    onChange([...statements, { code: null, text }]);
    setOwn('');
  };

  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((k) => Math.min(k + 1, Math.max(matches.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((k) => Math.max(k - 1, 0));
    } else if (event.key === 'Enter') {
      // Never submits the sign-off from the search field.
      event.preventDefault();
      const option = open ? matches[active] : undefined;
      if (option) add(option.code, option.label);
      else setOpen(true);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const listId = `${id}-options`;
  const shown = open && options !== undefined;
  return (
    <fieldset className="interpretation-editor">
      <legend className="field__label">{t('review.interpretation.title')}</legend>
      <p className="muted">{t('review.interpretation.hint')}</p>
      {statements.length === 0 ? (
        <p className="notice" role="note">
          {t('review.interpretation.none')}
        </p>
      ) : (
        <ol className="interpretation-editor__list" aria-label={t('review.interpretation.listLabel')}>
          {statements.map((s, index) => {
            const text = s.code ? statementText(t, s.code, s.text) : s.text;
            return (
              // A statement may be written twice in one's own words; its position is its identity.
              <li key={`${s.code ?? 'own'}-${index}`} className="interpretation-editor__item">
                <span>{text}</span>
                {s.code ? null : <span className="badge badge--muted">{t('review.interpretation.ownBadge')}</span>}
                <button
                  type="button"
                  className="button button--ghost button--small"
                  aria-label={t('review.interpretation.remove', { text })}
                  onClick={() => remove(index)}
                >
                  <X size={14} aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <div className="interpretation-editor__search">
        <label htmlFor={`${id}-search`} className="field__label">
          {t('review.interpretation.search')}
        </label>
        <input
          id={`${id}-search`}
          className="input"
          type="text"
          role="combobox"
          autoComplete="off"
          aria-expanded={shown}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown && matches[active] ? `${listId}-${matches[active].code}` : undefined}
          placeholder={t('review.interpretation.searchPlaceholder')}
          value={query}
          disabled={optionsFailed}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onSearchKey}
        />
        {optionsFailed ? <p className="muted">{t('review.interpretation.loadError')}</p> : null}
        {open && options === undefined && !optionsFailed ? <p className="muted">{t('app.loading')}</p> : null}
        <ul id={listId} role="listbox" className="interpretation-editor__options" hidden={!shown}>
          {matches.map((option, index) => (
            <li
              key={option.code}
              id={`${listId}-${option.code}`}
              role="option"
              aria-selected={index === active}
              className={`interpretation-editor__option${index === active ? ' interpretation-editor__option--active' : ''}`}
              // Chosen before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                add(option.code, option.label);
              }}
            >
              {option.label}
            </li>
          ))}
          {shown && matches.length === 0 ? (
            <li className="muted" role="presentation">
              {t('review.interpretation.noMatch', { query: query.trim() })}
            </li>
          ) : null}
        </ul>
      </div>
      <div className="interpretation-editor__own">
        <label htmlFor={`${id}-own`} className="field__label">
          {t('review.interpretation.own')}
        </label>
        <div className="interpretation-editor__own-row">
          <input
            id={`${id}-own`}
            className="input"
            type="text"
            maxLength={MAX_OWN_STATEMENT_CHARS}
            value={own}
            aria-invalid={ownProblem ? true : undefined}
            aria-describedby={ownProblem ? `${id}-own-problem` : undefined}
            onChange={(event) => setOwn(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                addOwn();
              }
            }}
          />
          <button type="button" className="button" onClick={addOwn}>
            <Plus size={14} aria-hidden="true" /> {t('review.interpretation.addOwn')}
          </button>
        </div>
        {ownProblem ? (
          <p id={`${id}-own-problem`} className="field__error">
            {ownProblem}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
