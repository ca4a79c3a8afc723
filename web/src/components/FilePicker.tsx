import { Upload } from 'lucide-react';
import { useId, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCEPT, fileSize, type SignalKind } from '../lib/fileRules';

/**
 * A drag-and-drop or click file picker for one recording (spec §2), with the chosen files' names
 * and size. With `multiple`, several files may be chosen or dropped at once (a WFDB header with
 * its signal files); otherwise only the first is taken.
 */
export function FilePicker({
  kind,
  files,
  disabled,
  onFiles,
  accept,
  hint,
  multiple = false,
}: {
  kind: SignalKind;
  /** Overrides the kind's accepted types. */
  accept?: string;
  /** Overrides the kind's line saying which files are accepted. */
  hint?: string;
  files: File[];
  disabled: boolean;
  multiple?: boolean;
  onFiles: (files: File[]) => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [dragging, setDragging] = useState(false);
  const take = (list: FileList | null | undefined) => {
    const chosen = Array.from(list ?? []);
    if (chosen.length > 0 && !disabled) onFiles(multiple ? chosen : chosen.slice(0, 1));
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files);
  };
  const size = files.reduce((total, file) => total + file.size, 0);
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
        multiple={multiple}
        disabled={disabled}
        onChange={(event) => {
          take(event.target.files);
          event.target.value = '';
        }}
      />
      <p className="muted">{hint ?? t(`models.accept.${kind}`)}</p>
      {files.length > 0 ? (
        <p className="drop-zone__file">
          {t('models.selected', { name: files.map((file) => file.name).join(', '), size: fileSize(kind, size) })}
        </p>
      ) : null}
    </div>
  );
}
