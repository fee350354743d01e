import { minifiedTag, withEndpoint } from './track-script.service';

describe('the website tag', () => {
  it('is under 4 KB minified', async () => {
    const code = await minifiedTag();
    expect(Buffer.byteLength(code)).toBeLessThan(4096);
  });

  it('takes the public address as a JSON string that cannot end the script element', async () => {
    const code = withEndpoint(await minifiedTag(), 'https://x.test/api/in/wk_1"</script><script>alert(1)//');
    expect(code).not.toContain('</script>');
    expect(code).toContain('"https://x.test/api/in/wk_1\\"\\u003c/script>\\u003cscript>alert(1)//"');
    expect(code).not.toContain('__LIFELINE_ENDPOINT__');
  });
});
