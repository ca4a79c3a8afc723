import { Upload } from 'lucide-react';
import { useId, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCEPT, fileSize, type SignalKind } from '../lib/fileRules';

/** A drag-and-drop or click file picker for one recording (spec §2), with the chosen file's size. */
export function FilePicker({
  kind,
  file,
  disabled,
  onFile,
  accept,
  hint,
}: {
  kind: SignalKind;
  /** Overrides the kind's accepted types. */
  accept?: string;
  /** Overrides the kind's line saying which files are accepted. */
  hint?: string;
  file: File | null;
  disabled: boolean;
  onFile: (file: File) => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files.item(0);
    if (dropped && !disabled) onFile(dropped);
  };
  return (
    <div
      className={`drop-zone${dragging ? ' drop-zone--active' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="drop-zone"
    >
      <Upload aria-hidden="true" size={28} />
      <p>{t('models.dropHere')}</p>
      <label htmlFor={inputId} className="button button--secondary">
        {t('models.browse')}
      </label>
      <input
        id={inputId}
        type="file"
        className="visually-hidden"
        accept={accept ?? ACCEPT[kind]}
        disabled={disabled}
        onChange={(event) => {
          const chosen = event.target.files?.item(0);
          if (chosen) onFile(chosen);
          event.target.value = '';
        }}
      />
      <p className="muted">{hint ?? t(`models.accept.${kind}`)}</p>
      {file ? (
        <p className="drop-zone__file">{t('models.selected', { name: file.name, size: fileSize(kind, file.size) })}</p>
      ) : null}
    </div>
  );
}
