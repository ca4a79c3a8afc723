/**
 * The sidebar's notifications button (with the unread count) and its list: results awaiting
 * review, patients who viewed shared results, device warnings — as the Settings toggles ask — and,
 * for an administrator, the server-wide changes made by others.
 */
import { Bell, ClipboardCheck, Eye, ShieldCheck, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Notification } from '../../api/client';
import { analysisPath, paths, patientPath } from '../../app/paths';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { formatRelative } from '../../lib/format';
import { modelName } from '../../lib/prediction';
import { adminChangeText, isSettingsChange } from './adminChange';
import { useMarkNotificationsSeen, useNotifications } from './api';

export function NotificationsButton() {
  const { t } = useTranslation();
  const feed = useNotifications();
  const [open, setOpen] = useState(false);
  const unread = feed.data?.unread ?? 0;
  return (
    <>
      <button type="button" className="sidebar__link notifications-button" onClick={() => setOpen(true)}>
        <Bell aria-hidden="true" size={20} />
        <span>{t('notifications.title')}</span>
        {unread > 0 ? (
          <span className="notifications-button__count" aria-label={t('notifications.unread', { count: unread })}>
            {unread}
          </span>
        ) : null}
      </button>
      {open ? <NotificationsDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function NotificationsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const feed = useNotifications();
  const seen = useMarkNotificationsSeen();
  const [now] = useState(() => Date.now());
  let body;
  if (feed.isPending) body = <Spinner label={t('app.loading')} />;
  else if (feed.isError) body = <ErrorBanner message={t('notifications.loadError')} />;
  else if (feed.data.items.length === 0)
    body = (
      <EmptyState icon={<Bell size={28} />} title={t('notifications.emptyTitle')} text={t('notifications.emptyText')} />
    );
  else
    body = (
      <ul className="notification-list">
        {feed.data.items.map((n) => (
          <NotificationItem key={n.id} notification={n} now={now} onOpen={onClose} />
        ))}
      </ul>
    );
  return (
    <Modal title={t('notifications.title')} onClose={onClose}>
      {body}
      <div className="modal__actions">
        <Link to={paths.settings} className="button button--secondary" onClick={onClose}>
          {t('notifications.settings')}
        </Link>
        <button
          type="button"
          className="button button--primary"
          disabled={seen.isPending || !feed.data || feed.data.unread === 0}
          onClick={() => seen.mutate()}
        >
          {t('notifications.markRead')}
        </button>
      </div>
    </Modal>
  );
}

function NotificationItem({
  notification: n,
  now,
  onOpen,
}: {
  notification: Notification;
  now: number;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const patient = n.patientName ?? t('notifications.noPatient');
  let icon;
  let text;
  let link: string | null = null;
  switch (n.kind) {
    case 'review_needed':
      icon = <ClipboardCheck aria-hidden="true" size={18} />;
      text = n.patientName
        ? t('notifications.reviewNeeded', { test: modelName(n.modality ?? 'ecg'), patient: n.patientName })
        : t('notifications.reviewNeededNoPatient', { test: modelName(n.modality ?? 'ecg') });
      link = n.analysisId ? analysisPath(n.analysisId) : null;
      break;
    case 'shared_viewed':
      icon = <Eye aria-hidden="true" size={18} />;
      text = t('notifications.sharedViewed', { patient });
      link = n.patientId ? patientPath(n.patientId) : null;
      break;
    case 'device_alert':
      icon = <TriangleAlert aria-hidden="true" size={18} />;
      text = t('notifications.deviceAlert', { device: n.device || t('notifications.aDevice'), detail: n.detail ?? '' });
      link = paths.devices;
      break;
    case 'admin_change':
      icon = <ShieldCheck aria-hidden="true" size={18} />;
      text = adminChangeText(n, t);
      link = isSettingsChange(n) ? paths.settings : null;
      break;
  }
  return (
    <li className={`notification-list__item${n.unread ? ' notification-list__item--unread' : ''}`}>
      <span className="notification-list__icon">{icon}</span>
      <span className="notification-list__body">
        {link ? (
          <Link to={link} onClick={onOpen}>
            {text}
          </Link>
        ) : (
          text
        )}
        <time className="muted" dateTime={n.at}>
          {formatRelative(n.at, now)}
        </time>
      </span>
      {n.unread ? <span className="visually-hidden">{t('notifications.new')}</span> : null}
    </li>
  );
}
