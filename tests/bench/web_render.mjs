// How long the match page takes to draw an update: headless Chromium (playwright-core from
// tests/web) on the operator's match page of live matches of a game, reading the page's own
// timings (window.__boneyardRenderTimes: from an event's arrival to the update committed to
// the page). Prints one JSON object. Run through tests/bench/web_render.sh.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(new URL('../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const WEB = process.env.BONEYARD_WEB_URL;
const GAME = process.argv[2] ?? 'mexican_train';
const SECONDS = Number(process.argv[3] ?? 20);

const browser = await chromium.launch({
  executablePath: process.env.BONEYARD_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${WEB}/`);
await page.getByTestId('operator-token').fill(process.env.BONEYARD_OPERATOR_TOKEN);
await page.getByTestId('operator-sign-in').click();
await page.waitForURL(/\/ops$/);
const matches = await page.evaluate(async (game) =>
  (await (await fetch(`/api/matches?state=ACTIVE&game=${game}&page_size=10`)).json()).matches,
GAME);
if (!matches.length) throw new Error(`no live ${GAME} match`);
const times = [];
const mounts = [];
const started = performance.now();
let i = 0;
// One match page after another (a match may end), until the time is up.
while (performance.now() - started < SECONDS * 1000) {
  const name = matches[i++ % matches.length].name;
  await page.goto(`${WEB}/ops/matches/${name.split('/')[1]}`);
  await page.getByTestId('board').waitFor();
  await page.waitForTimeout(Math.min(5000, SECONDS * 1000 - (performance.now() - started)));
  const page_times = await page.evaluate(() => window.__boneyardRenderTimes || []);
  // The first is the page's mount (the whole page drawn for the first time), not an update.
  if (page_times.length) mounts.push(page_times.shift());
  times.push(...page_times);
}
await browser.close();
times.sort((a, b) => a - b);
const at = (p) => (times.length ? Math.round(times[Math.min(times.length - 1,
  Math.floor(p * times.length))] * 100) / 100 : null);
console.log(JSON.stringify({
  game: GAME,
  updates: times.length,
  render_ms: { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) },
  first_view_ms: mounts.map((m) => Math.round(m * 100) / 100),
}, null, 2));
