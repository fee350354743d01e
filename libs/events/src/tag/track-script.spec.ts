// docs/website-tag.md: the served script's size and how the public address is put into it.
import {
  endpointLiteral,
  loadTrackScript,
  minifyTrackScript,
  TRACK_SCRIPT_HEADERS,
  TRACK_SCRIPT_PLACEHOLDER,
} from './track-script';

const evaluate = (literal: string): unknown => new Function(`return ${literal};`)();

describe('the website tag script', () => {
  it('is under 4096 bytes minified', async () => {
    const code = await minifyTrackScript();
    expect(Buffer.byteLength(code, 'utf8')).toBeLessThan(4096);
  });

  it('is minified once: every load shares one renderer', async () => {
    const [a, b] = await Promise.all([loadTrackScript(), loadTrackScript()]);
    expect(a).toBe(b);
    expect(await loadTrackScript()).toBe(a);
  });

  it('takes the public address as a JSON string that cannot end the string or the script element', async () => {
    const render = await loadTrackScript();
    const hostile = 'https://x.test/api/in/wk_1"</script><script>alert(1)//<!--\u2028\u2029\\';
    const code = render(hostile);
    expect(code).not.toContain(TRACK_SCRIPT_PLACEHOLDER);
    expect(code.toLowerCase()).not.toContain('</script');
    expect(code).not.toContain('<!--');
    expect(code).toContain(endpointLiteral(hostile));
    expect(evaluate(endpointLiteral(hostile))).toBe(hostile);
    expect(() => new Function(code)).not.toThrow(); // still one well-formed script
  });

  it('reads no replacement patterns from the address (a $& or $` stays as written)', async () => {
    const render = await loadTrackScript();
    const odd = "http://127.0.0.1:1/api/in/wk_$&$`$'$$";
    expect(render(odd)).toContain(endpointLiteral(odd));
    expect(evaluate(endpointLiteral(odd))).toBe(odd);
  });

  it('never carries a secret key prefix in the served script', async () => {
    const code = (await loadTrackScript())('http://localhost:3000/api/in/wk_abc');
    expect(code).not.toContain('sk_live_');
  });

  it('is served as UTF-8 JavaScript that a script tag may cache for five minutes', () => {
    expect(TRACK_SCRIPT_HEADERS['Content-Type']).toBe('application/javascript; charset=utf-8');
    expect(TRACK_SCRIPT_HEADERS['Cache-Control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
  });
});
