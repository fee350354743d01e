// Each page of the console in a script of its own (docs/console.md#speed): the first script holds
// the frame, React and the GraphQL client only, and a page's script (with what only it needs, such as
// the charts' drawing) is fetched when the page is first shown. The page of the address being opened
// is fetched at once, beside the viewer query, so opening a link waits for no extra round trip.
import { ComponentType, createElement } from 'react';
import type { Client } from 'urql';
import { prefetch as peoplePrefetch } from './pages/people/people-questions';

interface Page<P> {
  (props: P): ReturnType<typeof createElement>;
  /** Starts fetching the page's script (once), so it is there when the page is drawn. */
  preload(): Promise<void>;
}

/** A page drawn from its own script: until the script is there, the nearest Suspense placeholder. */
function page<P extends object>(load: () => Promise<ComponentType<P>>): Page<P> {
  let loaded: ComponentType<P> | null = null;
  let failed: unknown = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (component) => void (loaded = component),
      (error: unknown) => void (failed = error),
    ));
  const drawn = (props: P) => {
    if (loaded) return createElement(loaded, props);
    if (failed) {
      // The page's frame says it could not be shown and offers Retry, which fetches the script anew.
      const error = failed instanceof Error ? failed : new Error(String(failed));
      failed = null;
      pending = null;
      throw error;
    }
    // Suspends the page (React's Suspense) until its script is there.
    throw preload();
  };
  return Object.assign(drawn, { preload });
}

export const HomePage = page(() => import('./pages/home').then((m) => m.HomePage));
export const PeoplePage = page(() => import('./pages/people').then((m) => m.PeoplePage));
export const PersonPage = page(() => import('./pages/person').then((m) => m.PersonPage));
export const SegmentsPage = page(() => import('./pages/segments').then((m) => m.SegmentsPage));
export const SegmentPage = page(() => import('./pages/segment').then((m) => m.SegmentPage));
export const LiveEventsPage = page(() => import('./pages/live-events').then((m) => m.LiveEventsPage));
export const ChartsPage = page(() => import('./pages/charts').then((m) => m.ChartsPage));
export const FunnelPage = page(() => import('./pages/charts/funnel').then((m) => m.FunnelPage));
export const RetentionPage = page(() => import('./pages/charts/retention').then((m) => m.RetentionPage));
export const WebhooksPage = page(() => import('./pages/webhooks').then((m) => m.WebhooksPage));
export const WebhookPage = page(() => import('./pages/webhook').then((m) => m.WebhookPage));
export const DoorsPage = page(() => import('./pages/doors').then((m) => m.DoorsPage));
export const AutomationsPage = page(() => import('./pages/automations').then((m) => m.AutomationsPage));
export const AutomationPage = page(() => import('./pages/automation').then((m) => m.AutomationPage));
export const ListsPage = page(() => import('./pages/lists').then((m) => m.ListsPage));
export const TemplatesPage = page(() => import('./pages/templates').then((m) => m.TemplatesPage));
export const TemplatePage = page(() => import('./pages/template').then((m) => m.TemplatePage));
export const BroadcastsPage = page(() => import('./pages/broadcasts').then((m) => m.BroadcastsPage));
export const BroadcastPage = page(() => import('./pages/broadcast').then((m) => m.BroadcastPage));
export const SettingsPage = page(() => import('./pages/settings').then((m) => m.SettingsPage));
export const WorkspacesPage = page(() => import('./pages/workspaces').then((m) => m.WorkspacesPage));

/** A page's questions, asked before it is drawn (the same variables, so urql answers the page from them). */
type Prefetch = (client: Client, params: URLSearchParams) => void;

/** The page a path under /console opens (as the routes in app.tsx read it); Home for the rest. */
const BY_PATH: [RegExp, { preload(): Promise<void> }, Prefetch?][] = [
  [/^\/people\/[^/]+$/, PersonPage],
  [/^\/people$/, PeoplePage, peoplePrefetch],
  [/^\/segments\/[^/]+$/, SegmentPage],
  [/^\/segments$/, SegmentsPage],
  [/^\/live$/, LiveEventsPage],
  [/^\/charts\/funnel$/, FunnelPage],
  [/^\/charts\/retention$/, RetentionPage],
  [/^\/charts$/, ChartsPage],
  [/^\/webhooks\/[^/]+$/, WebhookPage],
  [/^\/webhooks$/, WebhooksPage],
  [/^\/doors$/, DoorsPage],
  [/^\/automations\/[^/]+$/, AutomationPage],
  [/^\/automations$/, AutomationsPage],
  [/^\/lists$/, ListsPage],
  [/^\/templates\/[^/]+$/, TemplatePage],
  [/^\/templates$/, TemplatesPage],
  [/^\/broadcasts\/[^/]+$/, BroadcastPage],
  [/^\/broadcasts$/, BroadcastsPage],
  [/^\/settings$/, SettingsPage],
  [/^\/workspaces$/, WorkspacesPage],
  [/^\/(home)?$/, HomePage],
];

/**
 * Starts fetching the script of the page at `path` (the browser's path, under /console) and, for a page that
 * has them, its questions as soon as the script is there, without waiting for the viewer query.
 */
export function preloadPageAt(path: string, search: string, client: Client): void {
  const inside = path.replace(/^\/console/, '').replace(/\/$/, '');
  const found = BY_PATH.find(([pattern]) => pattern.test(inside));
  if (!found) return;
  const [, page, prefetch] = found;
  void page.preload();
  prefetch?.(client, new URLSearchParams(search));
}
