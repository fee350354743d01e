// The console's frame around every page (docs/console.md#the-frame): the header (who is signed in,
// switching workspace, signing out), the menu (a column on a wide screen, folded behind a Menu button
// on a phone), and the page itself, which a failure never takes the menu away from: a failed request
// says what to do and offers Retry (state.tsx), a page that breaks while drawing does the same here.
import { Component, createContext, ReactNode, useContext, useEffect, useState } from 'react';
import { Link, useLocation, useRoute } from 'wouter';
import type { Viewer } from '../viewer';
import { roleName } from './words';

/** Asks the page again: its requests that failed are made anew. */
export const RetryContext = createContext<() => void>(() => location.reload());

export function useRetry(): () => void {
  return useContext(RetryContext);
}

function NavLink({ href, children }: { href: string; children: string }) {
  const [here] = useRoute(`${href}/*?`);
  return (
    <Link href={href} aria-current={here ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** The menu; on a phone the Menu button shows and hides it, and choosing a page folds it again. */
export function Menu({ links }: { links: [string, string][] | null }) {
  const [open, setOpen] = useState(false);
  const [location] = useLocation();
  useEffect(() => setOpen(false), [location]);
  return (
    <nav aria-label="Console">
      <button
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls="console-menu"
        onClick={() => setOpen(!open)}
      >
        Menu
      </button>
      <ul id="console-menu" className={open ? 'open' : undefined}>
        {(links ?? []).map(([href, label]) => (
          <li key={href}>
            <NavLink href={href}>{label}</NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function SignOut() {
  return (
    <form method="post" action="/sign-out" className="sign-out">
      <button type="submit">Sign out</button>
    </form>
  );
}

function who(viewer: Viewer): string {
  if (viewer.operator) return 'Operator';
  const role = viewer.role ? ` (${roleName(viewer.role)})` : '';
  return `${viewer.workspace?.name ?? ''} · ${viewer.email ?? ''}${role}`;
}

/** Brand, who is signed in (once known: nothing is said while the session is read), and the ways out. */
export function Header({ viewer }: { viewer: Viewer | null }) {
  return (
    <header className="top">
      <span className="brand">Lifeline</span>
      <span className="who">{viewer ? who(viewer) : ''}</span>
      {viewer?.canSwitchWorkspace ? (
        <a href={`/sign-in/workspace?next=${encodeURIComponent('/console/')}`}>Switch workspace</a>
      ) : null}
      <SignOut />
    </header>
  );
}

interface BoundaryProps {
  children: ReactNode;
  onRetry: () => void;
}

/** A page that breaks while drawing: the menu stays, the page says so and offers Retry. */
export class PageBoundary extends Component<BoundaryProps, { broken: boolean }> {
  state = { broken: false };

  static getDerivedStateFromError() {
    return { broken: true };
  }

  render() {
    if (!this.state.broken) return this.props.children;
    return (
      <div className="alert" role="alert">
        <p>This page could not be shown. Retry, or choose another page from the menu.</p>
        <p className="what-to-do">
          <button
            type="button"
            onClick={() => {
              this.setState({ broken: false });
              this.props.onRetry();
            }}
          >
            Retry
          </button>
        </p>
      </div>
    );
  }
}
