import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { Router } from 'wouter';
import { App } from './app';
import { makeClient } from './client';
import { preloadPageAt } from './routes';
import { VIEWER } from './viewer';
import './styles.css';

// The viewer query, the page being opened and its questions all start here, before the first render: the frame
// waits on the page's script (Suspense) and would ask only once it is there (routes.ts).
const client = makeClient();
void client.query(VIEWER, {}).toPromise();
preloadPageAt(location.pathname, location.search, client);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider value={client}>
      <Router base="/console">
        <App />
      </Router>
    </Provider>
  </StrictMode>,
);
