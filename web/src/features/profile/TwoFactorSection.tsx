/**
 * Two-factor sign-in on the profile: its state (On/Off), enrolment (QR code and manual key, confirm
 * with a code, ten recovery codes shown once) and turning it off (password and a code).
 */
import { ShieldCheck } from 'lucide-react';
import QRCode from 'qrcode';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../../components/ErrorBanner';
import { apiErrorMessage } from '../../lib/apiErrors';
import { useDisableTotp, useEnableTotp, useStartTotpSetup, type TotpSetup } from './twoFactorApi';

/** The otpauth URI as an SVG data URL (black on white in both themes, so every camera reads it). */
function useQrDataUrl(uri: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toString(uri, { type: 'svg', margin: 2, color: { dark: '#000000', light: '#ffffff' } })
      .then((svg) => {
        if (live) setUrl(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (live) setUrl(null);
      });
    return () => {
      live = false;
    };
  }, [uri]);
  return url;
}

/** The manual key in groups of four, as authenticator apps show and accept it. */
function groupsOfFour(key: string): string {
  return (key.match(/.{1,4}/g) ?? []).join(' ');
}

function Enrolment({ setup, onDone, onCancel }: { setup: TotpSetup; onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const qr = useQrDataUrl(setup.otpauthUri);
  const enable = useEnableTotp();
  const [code, setCode] = useState('');

  if (enable.isSuccess) {
    return (
      <div className="two-factor__recovery" role="region" aria-labelledby={`${id}-recovery`}>
        <h4 id={`${id}-recovery`} className="form-section__title">
          {t('twoFactor.recoveryTitle')}
        </h4>
        <p className="muted">{t('twoFactor.recoveryHelp')}</p>
        <ul className="two-factor__codes" aria-label={t('twoFactor.recoveryTitle')}>
          {enable.data.map((recovery) => (
            <li key={recovery}>
              <code>{recovery}</code>
            </li>
          ))}
        </ul>
        <div className="form-actions">
          <button type="button" className="button button--primary" onClick={onDone}>
            {t('twoFactor.done')}
          </button>
        </div>
      </div>
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    enable.mutate(code.trim());
  };
  const error = enable.isError ? apiErrorMessage(enable.error, t('twoFactor.failed'), t) : null;
  return (
    <form className="form two-factor__enrol" onSubmit={onSubmit} aria-label={t('twoFactor.enable')}>
      <p className="muted">{t('twoFactor.scan')}</p>
      <div className="two-factor__qr">
        {qr ? <img src={qr} alt={t('twoFactor.qrAlt')} width={200} height={200} /> : null}
      </div>
      <div className="field">
        <span className="field__label" id={`${id}-key-label`}>
          {t('twoFactor.manualKey')}
        </span>
        <code className="two-factor__key" aria-labelledby={`${id}-key-label`} data-testid="totp-manual-key">
          {groupsOfFour(setup.secret)}
        </code>
      </div>
      <ErrorBanner message={error} />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-code`}>
          {t('twoFactor.code')}
        </label>
        <input
          id={`${id}-code`}
          className="input"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          autoFocus
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      <div className="form-actions">
        <button type="button" className="button button--ghost" onClick={onCancel} disabled={enable.isPending}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--primary" disabled={enable.isPending}>
          {enable.isPending ? t('twoFactor.confirming') : t('twoFactor.confirm')}
        </button>
      </div>
    </form>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const disable = useDisableTotp();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    disable.mutate({ password, code: code.trim() }, { onSuccess: onDone });
  };
  const error = disable.isError ? apiErrorMessage(disable.error, t('twoFactor.failed'), t) : null;
  return (
    <form className="form" onSubmit={onSubmit} aria-label={t('twoFactor.disable')}>
      <p className="muted">{t('twoFactor.disableHelp')}</p>
      <ErrorBanner message={error} />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-password`}>
          {t('twoFactor.password')}
        </label>
        <input
          id={`${id}-password`}
          className="input"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-code`}>
          {t('twoFactor.codeOrRecovery')}
        </label>
        <input
          id={`${id}-code`}
          className="input"
          type="text"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      <div className="form-actions">
        <button type="button" className="button button--ghost" onClick={onDone} disabled={disable.isPending}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--danger" disabled={disable.isPending}>
          {disable.isPending ? t('twoFactor.disabling') : t('twoFactor.disable')}
        </button>
      </div>
    </form>
  );
}

export function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const start = useStartTotpSetup();
  const [mode, setMode] = useState<'idle' | 'enrolling' | 'disabling'>('idle');

  const onEnable = () => {
    start.mutate(undefined, { onSuccess: () => setMode('enrolling') });
  };
  const close = () => {
    setMode('idle');
    start.reset();
  };
  const startError = start.isError ? apiErrorMessage(start.error, t('twoFactor.failed'), t) : null;

  return (
    <div className="two-factor" aria-labelledby="profile-two-factor" role="group">
      <div className="two-factor__head">
        <div>
          <h3 id="profile-two-factor" className="form-section__title">
            <ShieldCheck aria-hidden="true" size={16} /> {t('twoFactor.title')}:{' '}
            <span className={enabled ? 'badge badge--success' : 'badge badge--muted'} data-testid="two-factor-state">
              {enabled ? t('twoFactor.on') : t('twoFactor.off')}
            </span>
          </h3>
          <p className="muted">{t('twoFactor.description')}</p>
        </div>
        {mode === 'idle' ? (
          enabled ? (
            <button type="button" className="button button--secondary" onClick={() => setMode('disabling')}>
              {t('twoFactor.disable')}
            </button>
          ) : (
            <button type="button" className="button button--primary" onClick={onEnable} disabled={start.isPending}>
              {start.isPending ? t('twoFactor.starting') : t('twoFactor.enable')}
            </button>
          )
        ) : null}
      </div>
      <ErrorBanner message={startError} />
      {mode === 'enrolling' && start.data ? <Enrolment setup={start.data} onDone={close} onCancel={close} /> : null}
      {mode === 'disabling' ? <DisableForm onDone={close} /> : null}
    </div>
  );
}
