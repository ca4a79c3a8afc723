export { IntakePage } from './IntakePage';
export { ClinicalDataPage } from './ClinicalDataPage';
export { SensorEcgPage, SensorPcgPage, SensorPpgPage } from './SensorPages';
