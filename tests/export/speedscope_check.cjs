// Load a speedscope file into speedscope's own app (npm speedscope,
// dist/release/index.html) in headless Chromium through its file input,
// the way a person drops a file on it, and check that its importer took
// it: the page title becomes the profile's name, no error dialog opens.
// usage: node speedscope_check.cjs FILE.speedscope.json EXPECTED_NAME [FILE NAME]...
const path = require('path');
const src = process.env.PERFKIT_SRC || path.join(__dirname, '..', '..');
const web = path.join(src, 'web', 'node_modules');
const { chromium } = require(path.join(web, 'playwright-core'));

async function main() {
  const args = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const errors = [];
  for (let i = 0; i + 1 < args.length; i += 2) {
    const [file, name] = [args[i], args[i + 1]];
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(file + ': ' + String(e)));
    page.on('dialog', (d) => { errors.push(file + ': dialog: ' + d.message()); d.dismiss(); });
    await page.goto('file://' + path.join(web, 'speedscope', 'dist', 'release', 'index.html'));
    await page.setInputFiles('input[type=file]', path.resolve(file));
    try {
      await page.waitForFunction((n) => document.title.indexOf(n) >= 0, name, { timeout: 15000 });
      console.log('ok: speedscope imported ' + file);
    } catch (e) {
      errors.push(file + ': title is ' + JSON.stringify(await page.title()) + ', want ' + name);
    }
    await page.close();
  }
  await browser.close();
  if (errors.length) { console.error('FAIL: ' + errors.join(' | ')); process.exit(1); }
}

main().catch((e) => { console.error('FAIL: ' + e); process.exit(1); });
