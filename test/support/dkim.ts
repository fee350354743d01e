// A DKIM verifier for the tests (RFC 6376, rsa-sha256, simple or relaxed canonicalisation): the signature of a
// received mail checked against the public key, as a receiving server checks it against the DNS record.
import { createHash, createVerify, type KeyObject } from 'node:crypto';

export interface DkimCheck {
  tags: Record<string, string>;
  bodyHashMatches: boolean;
  signatureVerifies: boolean;
}

/** The header fields of a raw mail, each as it came (folded lines kept), top to bottom. */
function headerFields(raw: string): string[] {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  return head.split(/\r\n(?![ \t])/);
}

const relaxedHeader = (field: string) => {
  const colon = field.indexOf(':');
  const name = field.slice(0, colon).trim().toLowerCase();
  const value = field
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
};

function canonicalBody(body: string, mode: string): string {
  let lines = body.split('\r\n');
  if (mode === 'relaxed') lines = lines.map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.length ? `${lines.join('\r\n')}\r\n` : mode === 'relaxed' ? '' : '\r\n';
}

export function verifyDkim(raw: string, publicKey: KeyObject): DkimCheck {
  const fields = headerFields(raw);
  const signature = fields.find((f) => /^dkim-signature:/i.test(f));
  if (!signature) throw new Error('The mail has no DKIM-Signature.');
  const value = signature.slice(signature.indexOf(':') + 1);
  const tags = Object.fromEntries(
    value
      .replace(/\s+/g, '')
      .split(';')
      .filter(Boolean)
      .map((tag) => [tag.slice(0, tag.indexOf('=')), tag.slice(tag.indexOf('=') + 1)]),
  );
  const [headerMode, bodyMode = 'simple'] = (tags.c ?? 'simple/simple').split('/');
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  const bodyHash = createHash('sha256').update(canonicalBody(body, bodyMode)).digest('base64');
  // Each name of h= takes the last field of that name not used yet, bottom up.
  const used = new Set<number>();
  const signed = tags.h.split(':').flatMap((name) => {
    for (let i = fields.length - 1; i >= 0; i--) {
      if (used.has(i) || fields[i].slice(0, fields[i].indexOf(':')).trim().toLowerCase() !== name.toLowerCase())
        continue;
      used.add(i);
      return [headerMode === 'relaxed' ? relaxedHeader(fields[i]) : fields[i]];
    }
    return [];
  });
  const unsigned = signature.replace(/(\bb=)[^;]*/, '$1');
  const data = [...signed, headerMode === 'relaxed' ? relaxedHeader(unsigned) : unsigned].join('\r\n');
  const signatureVerifies = createVerify('RSA-SHA256').update(data).verify(publicKey, tags.b, 'base64');
  return { tags, bodyHashMatches: bodyHash === tags.bh, signatureVerifies };
}
