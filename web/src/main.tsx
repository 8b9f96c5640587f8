import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { prefetchOverview } from './pages/overview-prefetch.js';
import { applyTheme } from './prefs.js';
import './styles.css';

prefetchOverview();
applyTheme();
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
