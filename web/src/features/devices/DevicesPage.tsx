import { useTranslation } from 'react-i18next';
import { DoctorsOnly } from '../../components/DoctorsOnly';
import { PageHeader } from '../../components/PageHeader';
import { useCurrentUser } from '../../lib/session';
import { ConnectionLog } from './ConnectionLog';
import { DeviceInbox } from './DeviceInbox';
import { NetworkDevices } from './NetworkDevices';
import { SerialDevices } from './SerialDevices';
import './devices.css';

/**
 * Spec §2 "Device Management": USB serial sensors through Web Serial, network devices that push
 * recordings with a token, what they pushed, and the connection log, all real.
 */
export function DevicesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <div className="page">
      <PageHeader title={t('devices.title')} subtitle={t('devices.subtitle')} />
      {user.role === 'doctor' ? (
        <>
          <div className="two-columns">
            <SerialDevices />
            <NetworkDevices />
          </div>
          <DeviceInbox />
          <ConnectionLog />
        </>
      ) : (
        <DoctorsOnly />
      )}
    </div>
  );
}
