import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { Router } from 'wouter';
import { App } from './app';
import { makeClient } from './client';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider value={makeClient()}>
      <Router base="/console">
        <App />
      </Router>
    </Provider>
  </StrictMode>,
);
