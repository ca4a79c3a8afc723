import 'i18next';
import type content from '../../../crates/models/catalogue/en.json';
import type serverErrors from '../../../crates/server/catalogue/en.json';
import type en from './en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & { content: typeof content; serverErrors: typeof serverErrors } };
  }
}
