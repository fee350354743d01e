// The save-time address check (docs/webhooks.md#addresses: the name is resolved when saved) for every
// place that saves an outgoing address: webhook endpoints and automation http_request steps.
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, Refusal } from '@app/platform';
import { checkWebhookAddress, type ResolveHost } from '../domain/address-rule';
import { systemResolve } from './safe-post';

/** How long a save waits for DNS before calling the name unresolvable. */
export const RESOLVE_TIMEOUT_MS = 5_000;

@Injectable()
export class AddressResolver {
  /** Replaced by a test to stand for DNS answers the test machine cannot give. */
  resolveHost: ResolveHost = systemResolve;

  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}

  /** The trimmed address when it may be saved; else invalid_field naming `field` with the reason. */
  async checkedAddress(url: string, field = 'url'): Promise<string> {
    const check = await checkWebhookAddress(url, {
      allowPrivate: this.config.allowPrivateTargets,
      resolve: (host) => this.resolveWithin(host),
    });
    if (!check.ok) throw new Refusal('invalid_field', check.reason, { field });
    return url.trim();
  }

  private resolveWithin(host: string) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`DNS gave no answer for ${host} in ${RESOLVE_TIMEOUT_MS} ms`)),
        RESOLVE_TIMEOUT_MS,
      );
    });
    return Promise.race([this.resolveHost(host), timeout]).finally(() => clearTimeout(timer));
  }
}
