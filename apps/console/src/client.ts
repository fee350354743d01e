// The console's one door to the service: POST /graphql with the session cookie (against CSRF the
// api asks for JSON and its own Origin). urql's document cache keeps each page's
// answers; a mutation's answer refreshes the queries that name the same types.
import { cacheExchange, Client, CombinedError, fetchExchange, mapExchange } from 'urql';

/** A refusal as the service words it: its code and its sentence (never a stack). */
export interface Refused {
  code: string;
  message: string;
  /** The input the refusal names (details.field, like definition.all[1].atLeast), when it names one. */
  field?: string;
}

function fieldOf(extensions: Record<string, unknown> | undefined): string | undefined {
  const details = extensions?.details as { field?: unknown } | undefined;
  const field = details?.field ?? extensions?.field;
  return typeof field === 'string' ? field : undefined;
}

export function refusalOf(error: CombinedError | undefined | null): Refused | null {
  if (!error) return null;
  const first = error.graphQLErrors[0];
  if (first) {
    const refused: Refused = { code: String(first.extensions?.code ?? 'refused'), message: first.message };
    const field = fieldOf(first.extensions);
    return field ? { ...refused, field } : refused;
  }
  return { code: 'unavailable', message: 'The service could not be reached: check your connection and try again.' };
}

/** Where a browser signs in, coming back to the page it was on. */
function signInAddress(path = 'sign-in'): string {
  return `/${path}?next=${encodeURIComponent(location.pathname + location.search)}`;
}

export function makeClient(): Client {
  return new Client({
    url: '/graphql',
    preferGetMethod: false,
    fetchOptions: () => ({
      credentials: 'same-origin',
      headers: { accept: 'application/graphql-response+json, application/json' },
    }),
    exchanges: [
      mapExchange({
        onError(error) {
          const refused = refusalOf(error);
          // A session that ended sends the person to sign in; one with no workspace yet, to pick one.
          if (refused?.code === 'invalid_token' || refused?.code === 'invalid_key') location.assign(signInAddress());
          else if (refused?.code === 'forbidden' && /Pick a workspace first/.test(refused.message))
            location.assign(signInAddress('sign-in/workspace'));
        },
      }),
      cacheExchange,
      fetchExchange,
    ],
  });
}
