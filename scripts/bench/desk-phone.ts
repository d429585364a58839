/**
 * The kit desk on a cheap phone (docs/decisions/0063, issue's figure): the back office's check-in page
 * opened in Chromium with Lighthouse's mobile profile, the CPU slowed four times and the network at "slow
 * 4G" (150 ms round trip, 1.6 Mbps down, 750 kbps up), timed from the address typed until the page says
 * its local copy holds every runner: the app's JavaScript, the snapshot's download and its indexing into
 * IndexedDB, as a volunteer's phone does them.
 */
import { chromium } from 'playwright-core';
import { chromiumFlags } from '../../apps/web/e2e/chromium-flags.ts';
import { chromePath } from './lighthouse-runs.ts';

const CPU_SLOWDOWN = 4;
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

export async function deskOnPhone(
  baseURL: string,
  eventId: number,
  token: string,
  runners: number,
): Promise<{ ms: number }> {
  const browser = await chromium.launch({ executablePath: chromePath, args: chromiumFlags });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    // Signed in as the desk would be: the back office keeps its token in localStorage.
    await context.addInitScript((t) => localStorage.setItem('painelToken', t), token);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    const started = performance.now();
    await page.goto(`${baseURL}/painel/checkin/${eventId}`);
    await page
      .getByRole('region', { name: 'Check-in sem rede' })
      .getByText(`Cópia local: ${runners} inscrições`)
      .waitFor({ timeout: 600_000 });
    return { ms: performance.now() - started };
  } finally {
    await browser.close();
  }
}
