import { useId } from 'react';

/** A labelled on/off switch with a help line (a checkbox with the switch role, keyboard operable). */
export function Toggle({
  label,
  help,
  checked,
  disabled = false,
  onChange,
}: {
  label: string;
  help: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="toggle-row">
      <div>
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        <p className="field__help" id={`${id}-help`}>
          {help}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        aria-describedby={`${id}-help`}
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}
