// Decode a perfkit pprof file with the npm pprof-format package (the
// decoder of the Node.js profilers) and check its structure; prints
// "EVENT TOTAL" per sample type for the calling test to compare.
// usage: node pprof_check.cjs FILE.pb.gz
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const src = process.env.PERFKIT_SRC || path.join(__dirname, '..', '..');
const { Profile } = require(path.join(src, 'web', 'node_modules', 'pprof-format'));

function fail(msg) { console.error('FAIL: ' + msg); process.exit(1); }

const p = Profile.decode(zlib.gunzipSync(fs.readFileSync(process.argv[2])));
const str = p.stringTable.strings;
if (str[0] !== '') fail('string 0 is not empty');
const s = (i) => { const n = Number(i); if (n < 0 || n >= str.length) fail('string index ' + n); return str[n]; };
const locs = new Map(p.location.map((l) => [Number(l.id), l]));
const funcs = new Map(p.function.map((f) => [Number(f.id), f]));
const maps = new Map(p.mapping.map((m) => [Number(m.id), m]));
if (!p.sampleType.length) fail('no sample types');
const totals = p.sampleType.map(() => 0);
for (const smp of p.sample) {
  if (smp.value.length !== p.sampleType.length) fail('sample has ' + smp.value.length + ' values');
  smp.value.forEach((v, i) => { totals[i] += Number(v); });
  for (const id of smp.locationId) {
    const l = locs.get(Number(id));
    if (!l) fail('unknown location ' + id);
    if (Number(l.mappingId) && !maps.has(Number(l.mappingId))) fail('unknown mapping ' + l.mappingId);
    for (const line of l.line) if (!funcs.has(Number(line.functionId))) fail('unknown function');
  }
}
for (const f of p.function) s(f.name);
let withBuildId = 0;
for (const m of p.mapping) { s(m.filename); if (s(m.buildId)) withBuildId++; }
p.sampleType.forEach((t, i) => console.log(s(t.type) + ' ' + totals[i]));
console.log('# mappings ' + p.mapping.length + ' with build id ' + withBuildId +
  ', functions ' + p.function.length + ', locations ' + p.location.length);
