// The console's frame: who is signed in, the navigation, and one route per page (each page has its
// own URL under /console, so it can be bookmarked and back and forward work).
import { Suspense, useCallback, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { CombinedError, useQuery } from 'urql';
import { Header, Menu, PageBoundary, RetryContext } from './ui/frame';
import { Failed, Loading } from './ui/state';
import { SIGNED_OUT, VIEWER, Viewer, ViewerContext } from './viewer';
import {
  AutomationPage,
  AutomationsPage,
  BroadcastPage,
  BroadcastsPage,
  ChartsPage,
  DoorsPage,
  FunnelPage,
  HomePage,
  ListsPage,
  LiveEventsPage,
  PeoplePage,
  PersonPage,
  RetentionPage,
  SegmentPage,
  SegmentsPage,
  SettingsPage,
  TemplatePage,
  TemplatesPage,
  WebhookPage,
  WebhooksPage,
  WorkspacesPage,
} from './routes';

const NAVIGATION: [string, string][] = [
  ['/home', 'Home'],
  ['/people', 'People'],
  ['/segments', 'Segments'],
  ['/live', 'Live events'],
  ['/charts', 'Charts'],
  ['/webhooks', 'Webhooks'],
  ['/doors', 'Doors'],
  ['/automations', 'Automations'],
  ['/lists', 'Lists'],
  ['/templates', 'Templates'],
  ['/broadcasts', 'Broadcasts'],
  ['/settings', 'Settings'],
];

function Frame({
  viewer,
  failure,
  retryViewer,
}: {
  viewer: Viewer | null;
  failure?: CombinedError;
  retryViewer: () => void;
}) {
  const links: [string, string][] | null = viewer
    ? viewer.operator
      ? [['/workspaces', 'Workspaces']]
      : NAVIGATION
    : null;
  // Retry remounts the page: its requests that failed (never cached) are made again.
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const [location] = useLocation();
  return (
    <ViewerContext.Provider value={viewer ?? SIGNED_OUT}>
      <RetryContext.Provider value={retry}>
        <a className="skip" href="#main">
          Skip to the page
        </a>
        <Header viewer={viewer} />
        <Menu links={links ?? (failure ? NAVIGATION : null)} />
        <main id="main" tabIndex={-1}>
          {viewer ? (
            <PageBoundary key={`${location}#${attempt}`} onRetry={retry}>
              {/* A page's own script not there yet (routes.ts): one line, as its data's wait shows. */}
              <Suspense fallback={<Loading />}>{viewer.operator ? <OperatorRoutes /> : <WorkspaceRoutes />}</Suspense>
            </PageBoundary>
          ) : failure ? (
            <Failed error={failure} retry={retryViewer} />
          ) : null}
        </main>
      </RetryContext.Provider>
    </ViewerContext.Provider>
  );
}

function WorkspaceRoutes() {
  return (
    <Switch>
      <Route path="/home" component={HomePage} />
      <Route path="/people" component={PeoplePage} />
      <Route path="/people/:id">{(p) => <PersonPage id={decodeURIComponent(p.id)} />}</Route>
      <Route path="/segments" component={SegmentsPage} />
      <Route path="/segments/:id">{(p) => <SegmentPage id={decodeURIComponent(p.id)} />}</Route>
      <Route path="/live" component={LiveEventsPage} />
      <Route path="/charts" component={ChartsPage} />
      <Route path="/charts/funnel" component={FunnelPage} />
      <Route path="/charts/retention" component={RetentionPage} />
      <Route path="/webhooks" component={WebhooksPage} />
      <Route path="/webhooks/:id">{(p) => <WebhookPage id={p.id} />}</Route>
      <Route path="/doors" component={DoorsPage} />
      <Route path="/automations" component={AutomationsPage} />
      <Route path="/automations/:id">{(p) => <AutomationPage id={p.id} />}</Route>
      <Route path="/lists" component={ListsPage} />
      <Route path="/templates" component={TemplatesPage} />
      <Route path="/templates/:id">{(p) => <TemplatePage id={p.id} />}</Route>
      <Route path="/broadcasts" component={BroadcastsPage} />
      <Route path="/broadcasts/:id">{(p) => <BroadcastPage id={decodeURIComponent(p.id)} />}</Route>
      <Route path="/settings" component={SettingsPage} />
      <Route path="/">
        <Redirect to="/home" replace />
      </Route>
      <Route>
        <NotFound />
      </Route>
    </Switch>
  );
}

function OperatorRoutes() {
  return (
    <Switch>
      <Route path="/workspaces" component={WorkspacesPage} />
      <Route>
        <Redirect to="/workspaces" replace />
      </Route>
    </Switch>
  );
}

function NotFound() {
  return (
    <section className="page">
      <h1>Not found</h1>
      <p>
        This console has no such page. <Link href="/people">Go to People</Link>.
      </p>
    </section>
  );
}

/** The frame at once; who is signed in fills it when known (no "signing in" line on every load). */
export function App() {
  const [result, reexecute] = useQuery({ query: VIEWER });
  const retryViewer = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const viewer = result.data?.viewer ?? null;
  return <Frame viewer={viewer} failure={viewer ? undefined : result.error} retryViewer={retryViewer} />;
}
