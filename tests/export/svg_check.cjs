// Open a perfkit flame graph SVG in headless Chromium: no errors, a click
// zooms (the frame then spans the width), Search (a prompt) highlights
// matching frames, tooltips carry counts, hostile names stay text.
// usage: node svg_check.cjs FILE.svg FUNCTION
const path = require('path');
const src = process.env.PERFKIT_SRC || path.join(__dirname, '..', '..');
const { chromium } = require(path.join(src, 'web', 'node_modules', 'playwright-core'));

async function main() {
  const [file, fn] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1300, height: 800 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => d.type() === 'prompt' ? d.accept('^' + fn + '$') : d.dismiss());
  await page.goto('file://' + path.resolve(file));
  await page.waitForLoadState('load');
  const fail = (m) => { errors.push(m); };

  const sel = 'g.f';
  const target = await page.evaluateHandle((fn) => Array.from(document.querySelectorAll('g.f'))
    .find((g) => g.querySelector('title').textContent.startsWith(fn + ' (')), fn);
  if (!(await target.evaluate((g) => !!g))) fail('no frame ' + fn);
  const title = await target.evaluate((g) => g.querySelector('title').textContent);
  if (!/\(\d+ samples, [0-9.]+%\)$/.test(title)) fail('tooltip without counts: ' + title);
  await target.evaluate((g) => g.dispatchEvent(new MouseEvent('click', { bubbles: true })));
  const w = await target.evaluate((g) => +g.querySelector('rect').getAttribute('width'));
  if (w < 1000) fail('click did not zoom: width ' + w);
  await page.evaluate(() => document.getElementById('search').dispatchEvent(new MouseEvent('click')));
  const hl = await page.$$eval(sel + '.match', (gs) => gs.length);
  if (hl < 1) fail('search highlighted nothing');
  const matched = await page.textContent('#matched');
  if (!/Matched: [0-9.]+%/.test(matched)) fail('no match summary: ' + matched);
  if (await page.evaluate(() => window.__pwned === true || document.querySelector('img') !== null))
    fail('markup from a name was interpreted');
  await browser.close();
  if (errors.length) { console.error('FAIL: ' + errors.join(' | ')); process.exit(1); }
  console.log('ok: svg zoom, search (' + hl + ' frames), tooltips');
}

main().catch((e) => { console.error('FAIL: ' + e); process.exit(1); });
