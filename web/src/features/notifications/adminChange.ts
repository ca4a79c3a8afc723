/**
 * The sentence of an `admin_change` notification (administrators only): another administrator changed
 * Data Encryption or Auto Backup, made a backup, or an account became or stopped being an
 * administrator (on the command line; `actor` is then the account concerned).
 */
import type { TFunction } from 'i18next';
import type { Notification } from '../../api/client';

/** The two server-wide switches as a `data_settings` change left them. */
export interface DataSettingsChange {
  encryptBlobs: boolean;
  autoBackup: boolean;
}

function onOff(value: string | undefined): boolean | null {
  if (value === 'on') return true;
  if (value === 'off') return false;
  return null;
}

/**
 * Reads the server's record of a `data_settings` change, `encrypt_blobs=on|off;auto_backup=on|off`
 * (in any order); null when it does not say both.
 */
export function parseDataSettingsChange(detail: string | null | undefined): DataSettingsChange | null {
  if (!detail) return null;
  const values = new Map(
    detail.split(';').map((part) => {
      const [key = '', value = ''] = part.split('=');
      return [key.trim(), value.trim()] as const;
    }),
  );
  const encryptBlobs = onOff(values.get('encrypt_blobs'));
  const autoBackup = onOff(values.get('auto_backup'));
  if (encryptBlobs === null || autoBackup === null) return null;
  return { encryptBlobs, autoBackup };
}

/** What an `admin_change` notification says, in the user's language. */
export function adminChangeText(n: Notification, t: TFunction): string {
  const actor = n.actor || t('notifications.admin.someone');
  switch (n.event) {
    case 'data_settings': {
      const change = parseDataSettingsChange(n.detail);
      if (!change) return t('notifications.admin.dataSettingsChanged', { actor });
      const word = (on: boolean) => (on ? t('notifications.admin.on') : t('notifications.admin.off'));
      return t('notifications.admin.dataSettings', {
        actor,
        encryption: word(change.encryptBlobs),
        backup: word(change.autoBackup),
      });
    }
    case 'backup':
      return n.detail
        ? t('notifications.admin.backup', { actor, name: n.detail })
        : t('notifications.admin.backupUnnamed', { actor });
    case 'administrator_granted':
      return t('notifications.admin.granted', { actor });
    case 'administrator_revoked':
      return t('notifications.admin.revoked', { actor });
    default:
      return t('notifications.admin.other', { actor });
  }
}

/** Whether the change is one the Settings page shows (Data & Storage, Data Encryption). */
export function isSettingsChange(n: Notification): boolean {
  return n.event === 'data_settings' || n.event === 'backup';
}
