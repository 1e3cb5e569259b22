import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from '@/app/providers';
import { AppRouter } from '@/app/router';
import { NewVersionBanner, NewVersionBoundary, watchForNewVersion } from '@/app/new-version';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element in index.html');

watchForNewVersion();

createRoot(root).render(
  <StrictMode>
    <Providers>
      <NewVersionBanner />
      <NewVersionBoundary>
        <AppRouter />
      </NewVersionBoundary>
    </Providers>
  </StrictMode>,
);
