/**
 * Issue #23: DNS rebinding, in a real browser. A page on another site can point its own name
 * at 127.0.0.1 after it loaded; the browser then treats the studio's port as that site's
 * origin and sends that name as Host. The host, bound to loopback, must refuse the page and
 * the API socket for any Host that is not a loopback name with its port — even if the
 * attacker somehow had the token. Chromium's --host-resolver-rules plays the rebound DNS.
 */
import { E2E_PORT, E2E_TOKEN } from '../playwright.config';
import { expect, test } from './helpers';

test('a page reached through a rebound name gets neither the studio nor its API', async ({
  playwright,
}) => {
  const browser = await playwright.chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP rebound.test 127.0.0.1'],
  });
  try {
    const page = await browser.newPage();
    const response = await page.goto(
      `http://rebound.test:${E2E_PORT}/index.html?token=${E2E_TOKEN}`,
    );
    expect(response?.status()).toBe(403);
    expect(await page.getByTestId('app-info').count()).toBe(0);
    // Script on that origin tries the API socket, token and all.
    const outcome = await page.evaluate(
      (token) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/api?token=${token}`);
          ws.onopen = () => resolve('open');
          ws.onerror = () => resolve('refused');
        }),
      E2E_TOKEN,
    );
    expect(outcome).toBe('refused');

    // The same browser on the loopback address gets the studio.
    const studio = await page.goto(`http://127.0.0.1:${E2E_PORT}/index.html?token=${E2E_TOKEN}`);
    expect(studio?.status()).toBe(200);
    await expect(page.getByTestId('app-info')).toContainText('web');
  } finally {
    await browser.close();
  }
});
