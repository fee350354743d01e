// docs/website-tag.md and libs/sdk/README.md#the-website-tag-lifelinetag: the framework component.
// import { LifelineTag } from '@lifeline/sdk/react'; renders the tag's script for a public key.
// No JSX and no hooks, so it works as a server component, a client component and in the pages router.
import { createElement, type ReactElement } from 'react';

export const DEFAULT_TAG_URL = 'http://localhost:3000';

export interface LifelineTagProps {
  /** The workspace's public key (wk_…). Default: NEXT_PUBLIC_LIFELINE_KEY. */
  publicKey?: string;
  /**
   * The service's address, or the workspace's public address ({url}/api/in/wk_…, which names the key
   * itself). Default: NEXT_PUBLIC_LIFELINE_URL, else http://localhost:3000.
   */
  url?: string;
}

/** Written out in full so Next.js puts the values in at build time for the browser's bundle. */
function publicSettings(): { key?: string; url?: string } {
  try {
    return { key: process.env.NEXT_PUBLIC_LIFELINE_KEY, url: process.env.NEXT_PUBLIC_LIFELINE_URL };
  } catch {
    return {}; // a browser bundle with no process at all
  }
}

const PUBLIC_ADDRESS = /\/api\/in\/([^/?#]+)$/;

/** The key inside a workspace's public address, if url is one. */
function keyInAddress(url: string): string | undefined {
  const found = PUBLIC_ADDRESS.exec(url.replace(/\/+$/, ''));
  return found ? decodeURIComponent(found[1]) : undefined;
}

/** The script's address: {url}/api/in/{publicKey}/track.js, or {public address}/track.js. */
export function tagScriptUrl(url: string, publicKey: string): string {
  const base = url.replace(/\/+$/, '');
  return keyInAddress(base) ? `${base}/track.js` : `${base}/api/in/${encodeURIComponent(publicKey)}/track.js`;
}

/** The tag's script, or nothing (with the reason in the console) for a missing or secret key. */
export function LifelineTag(props: LifelineTagProps = {}): ReactElement | null {
  const settings = publicSettings();
  const url = (props.url ?? settings.url ?? '').trim() || DEFAULT_TAG_URL;
  const given = (props.publicKey ?? settings.key ?? '').trim();
  // A public address names its key itself; a secret key given anywhere is refused.
  const key = keyInAddress(url) ?? given;
  if (key.startsWith('sk_') || given.startsWith('sk_')) {
    console.error(
      'LifelineTag renders nothing: it was given a secret key (sk_live_…), which must never reach a browser. ' +
        'Give it the public key (wk_…) instead, in NEXT_PUBLIC_LIFELINE_KEY or the publicKey prop, and keep the ' +
        'secret key on the server.',
    );
    return null;
  }
  if (key === '') {
    console.error(
      "LifelineTag renders nothing: it has no public key. Set NEXT_PUBLIC_LIFELINE_KEY to the workspace's " +
        'public key (wk_…), or pass it as the publicKey prop.',
    );
    return null;
  }
  return createElement('script', { src: tagScriptUrl(url, key), async: true });
}
