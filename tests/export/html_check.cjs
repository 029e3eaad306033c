// Open perfkit HTML reports in headless Chromium (playwright-core from
// web/node_modules, the Debian chromium binary) and check them as a person
// would: no console errors, no network, the hottest function is on top,
// a search highlights a frame, and hostile names stay text.
// usage: node html_check.cjs REPORT.html HOTTEST_FUNCTION [REPORT HOTTEST]...
// (PERFKIT_SCREENSHOT=file.png keeps a picture of the first)
const path = require('path');
const src = process.env.PERFKIT_SRC || path.join(__dirname, '..', '..');
const { chromium } = require(path.join(src, 'web', 'node_modules', 'playwright-core'));

async function check(browser, file, hottest, shot) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  const requests = [];
  const fail = (msg) => errors.push(msg);
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { errors.push('dialog opened: ' + d.message()); d.dismiss(); });
  page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });

  const top = await page.$$eval('table.top-table td.fn', (tds) => tds.map((t) => t.textContent));
  if (!top.length) fail('no top functions');
  else if (top[0] !== hottest) fail('hottest function is ' + JSON.stringify(top[0]) + ', want ' + hottest);
  const frames = await page.$$eval('#flamegraph svg g', (gs) => gs.length);
  if (frames < 2) fail('flame graph has ' + frames + ' frames');

  await page.fill('#flamegraph input.search', '^' + hottest + '$');
  await page.waitForTimeout(500);
  const hl = await page.$$eval('#flamegraph svg rect', (rs) =>
    rs.filter((r) => /e600e6|rgb\(230, ?0, ?230\)/i.test(r.getAttribute('fill') || r.style.fill)).length);
  if (hl < 1) fail('search for ' + hottest + ' highlighted no frame');
  const details = await page.textContent('#flamegraph .details');
  if (!/search:/.test(details)) fail('search gave no summary: ' + details);

  if (await page.evaluate(() => window.__pwned === true ||
    document.querySelectorAll('#app script, #app img, #app b, #app i').length > 0))
    fail('markup from a name was interpreted');
  if (shot) await page.screenshot({ path: shot, fullPage: true });
  if (requests.length) fail('network requests: ' + requests.join(' '));
  await page.close();
  if (errors.length) return file + ': ' + errors.join(' | ');
  console.log('ok: ' + file + ': ' + top.length + ' functions, ' + frames + ' frames, ' + hl + ' highlighted');
  return null;
}

async function main() {
  const args = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const bad = [];
  for (let i = 0; i + 1 < args.length; i += 2) {
    const r = await check(browser, args[i], args[i + 1], i === 0 ? process.env.PERFKIT_SCREENSHOT : null);
    if (r) bad.push(r);
  }
  await browser.close();
  if (bad.length) { console.error('FAIL: ' + bad.join('\n')); process.exit(1); }
}

main().catch((e) => { console.error('FAIL: ' + e); process.exit(1); });
