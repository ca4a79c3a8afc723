import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './i18n';
import { applyResolvedTheme, resolveTheme, storedTheme } from './lib/theme';
import './styles/index.css';

// Apply the theme before the first paint to avoid a flash of the wrong colours.
applyResolvedTheme(resolveTheme(storedTheme()));

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
