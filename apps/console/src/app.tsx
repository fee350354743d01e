// The console's frame: who is signed in, the navigation, and one route per page (each page has its
// own URL under /console, so it can be bookmarked and back and forward work).
import { Link, Redirect, Route, Switch, useRoute } from 'wouter';
import { useQuery } from 'urql';
import { Loaded } from './ui/state';
import { VIEWER, Viewer, ViewerContext } from './viewer';
import { PeoplePage } from './pages/people';
import { PersonPage } from './pages/person';
import { SegmentsPage } from './pages/segments';
import { SegmentPage } from './pages/segment';
import { LiveEventsPage } from './pages/live-events';
import { ChartsPage } from './pages/charts';
import { FunnelPage } from './pages/charts/funnel';
import { RetentionPage } from './pages/charts/retention';
import { WebhooksPage } from './pages/webhooks';
import { WebhookPage } from './pages/webhook';
import { DoorsPage } from './pages/doors';
import { AutomationsPage } from './pages/automations';
import { AutomationPage } from './pages/automation';
import { ListsPage } from './pages/lists';
import { TemplatesPage } from './pages/templates';
import { TemplatePage } from './pages/template';
import { BroadcastsPage } from './pages/broadcasts';
import { BroadcastPage } from './pages/broadcast';
import { SettingsPage } from './pages/settings';
import { WorkspacesPage } from './pages/workspaces';

const NAVIGATION: [string, string][] = [
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

function NavLink({ href, children }: { href: string; children: string }) {
  const [here] = useRoute(`${href}/*?`);
  return (
    <Link href={href} aria-current={here ? 'page' : undefined}>
      {children}
    </Link>
  );
}

function SignOut() {
  return (
    <form method="post" action="/sign-out" className="sign-out">
      <button type="submit">Sign out</button>
    </form>
  );
}

function Frame({ viewer }: { viewer: Viewer }) {
  const links: [string, string][] = viewer.operator ? [['/workspaces', 'Workspaces']] : NAVIGATION;
  return (
    <ViewerContext.Provider value={viewer}>
      <a className="skip" href="#main">
        Skip to the page
      </a>
      <header className="top">
        <span className="brand">Lifeline</span>
        <span className="who">
          {viewer.operator
            ? 'Operator'
            : `${viewer.workspace?.name ?? ''} · ${viewer.email ?? ''} (${viewer.role ?? ''})`}
        </span>
        {viewer.canSwitchWorkspace ? (
          <a href={`/sign-in/workspace?next=${encodeURIComponent('/console/people')}`}>Switch workspace</a>
        ) : null}
        <SignOut />
      </header>
      <nav aria-label="Console">
        <ul>
          {links.map(([href, label]) => (
            <li key={href}>
              <NavLink href={href}>{label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {viewer.operator ? <OperatorRoutes /> : <WorkspaceRoutes />}
      </main>
    </ViewerContext.Provider>
  );
}

function WorkspaceRoutes() {
  return (
    <Switch>
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
        <Redirect to="/people" replace />
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

export function App() {
  const [result] = useQuery({ query: VIEWER });
  return (
    <Loaded result={result} what="Signing you in">
      {(data) => <Frame viewer={data.viewer} />}
    </Loaded>
  );
}
