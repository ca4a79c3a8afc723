import { describe, expect, it } from 'vitest';
import type { Notification } from '../../api/client';
import i18n from '../../i18n';
import { adminChangeText, parseDataSettingsChange } from './adminChange';

function change(event: string | null, detail: string | null, actor: string | null = 'ana@clinic.test'): Notification {
  return { id: 'admin-1', kind: 'admin_change', at: '2026-11-25T10:00:00Z', unread: false, event, actor, detail };
}

describe('admin_change notifications', () => {
  it("reads the server's record of a data settings change, in any order", () => {
    expect(parseDataSettingsChange('encrypt_blobs=off;auto_backup=on')).toEqual({
      encryptBlobs: false,
      autoBackup: true,
    });
    expect(parseDataSettingsChange('auto_backup=off;encrypt_blobs=on')).toEqual({
      encryptBlobs: true,
      autoBackup: false,
    });
  });

  it('does not guess when the record does not say both switches', () => {
    expect(parseDataSettingsChange('encrypt_blobs=off')).toBeNull();
    expect(parseDataSettingsChange('encrypt_blobs=maybe;auto_backup=on')).toBeNull();
    expect(parseDataSettingsChange('server')).toBeNull();
    expect(parseDataSettingsChange(null)).toBeNull();
  });

  it('falls back to a plain sentence, never the raw record', () => {
    const t = i18n.t.bind(i18n);
    expect(adminChangeText(change('data_settings', 'server'), t)).toBe(
      "ana@clinic.test changed the server's data settings",
    );
    expect(adminChangeText(change('data_settings', 'encrypt_blobs=on;auto_backup=on'), t)).toBe(
      'ana@clinic.test changed Data Encryption to on and Auto Backup to on',
    );
    expect(adminChangeText(change('backup', null), t)).toBe('ana@clinic.test made a backup');
    expect(adminChangeText(change('something_new', 'x'), t)).toBe('ana@clinic.test changed a server-wide setting');
    expect(adminChangeText(change('administrator_granted', null, null), t)).toBe('Someone is now an administrator');
  });
});
