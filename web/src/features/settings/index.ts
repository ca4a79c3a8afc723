export { SettingsPage } from './SettingsPage';
export { useApplyServerSettings, useSaveSettings } from './api/settings';
