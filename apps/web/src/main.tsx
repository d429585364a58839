import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './index.css';

// A transition makes the first render interruptible: React yields to the browser between pieces of
// work instead of one long task, which keeps a cheap phone responsive while the page starts.
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
