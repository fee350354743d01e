// The start address of a webhook-triggered automation (docs/rest.md#an-automations-start-address: signed with
// APP_SECRET, shown to owners and admins on the automation's own page), with a Copy button.
import { useId, useState } from 'react';

export function StartAddress({ address }: { address: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const id = useId();
  const copy = () => {
    void navigator.clipboard?.writeText(address).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="start-address">
      <p id={id}>
        <strong>Start address</strong>: post <code>{'{ "email": … }'}</code>, <code>{'{ "anon_id": … }'}</code> or{' '}
        <code>{'{ "record": … }'}</code> here to start a run for that person. Keep it secret: anyone holding it can
        start runs.
      </p>
      <code aria-labelledby={id} className="secret">
        {address}
      </code>
      <button type="button" className="secondary" onClick={copy}>
        Copy
      </button>
      <span role="status" className="muted reason">
        {copied === true ? 'Copied.' : copied === false ? 'Could not copy: select the address and copy it.' : ''}
      </span>
    </div>
  );
}
