import { Network, Usb } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

export function DevicesPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t('devices.title')} subtitle={t('devices.subtitle')} />
      <div className="two-columns">
        <section className="card" aria-labelledby="devices-serial">
          <h2 id="devices-serial" className="section__title">
            {t('devices.serialTitle')}
          </h2>
          <EmptyState icon={<Usb size={28} />} title={t('devices.serialEmpty')} text={t('devices.notAvailable')} />
        </section>
        <section className="card" aria-labelledby="devices-network">
          <h2 id="devices-network" className="section__title">
            {t('devices.networkTitle')}
          </h2>
          <EmptyState icon={<Network size={28} />} title={t('devices.networkEmpty')} text={t('devices.notAvailable')} />
        </section>
      </div>
    </div>
  );
}
