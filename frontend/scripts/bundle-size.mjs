#!/usr/bin/env node
// Gzip size of the JavaScript each route loads, read from the Vite manifest.
//
//   npm run build -w frontend && node frontend/scripts/bundle-size.mjs [--write] [--check]
//
// A route loads the entry chunk (index.html) with its static imports, plus the lazy page
// modules it renders and their static imports. --write puts the table into
// docs/benchmarks.md under "## Frontend bundle" (other sections are kept); --check exits 1
// when a public page is over its budget or loads admin-only code.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const frontend = resolve(here, '..');
const dist = join(frontend, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
const benchmarks = resolve(frontend, '..', 'docs', 'benchmarks.md');
/** The budget of every public page (issue 10 item 13): JavaScript loaded on first visit, gzip. */
const BUDGET_KB = 120;
const PUBLIC_ROUTES = ['/', '/auth', '/dashboard', '/unauthorized', '404'];
/**
 * Public pages must never ship the admin stack (these strings only occur in react-admin / React
 * Flow), nor MUI or emotion (they are plain React and CSS; MUI's class-name prefixes and emotion's
 * style-tag attribute only occur in those libraries).
 */
const MUST_NOT_LOAD = {
  routes: PUBLIC_ROUTES,
  markers: ['ra.action.', 'RaLayout', 'react-flow__', 'MuiButtonBase', 'MuiPaper', 'MuiTypography', 'data-emotion'],
};

/** The lazy modules each route renders (see src/App.tsx). */
const ROUTES = {
  '/': [],
  '/auth': ['src/pages/AuthPage.tsx'],
  '/dashboard': ['src/pages/Dashboard.tsx'],
  '/unauthorized': ['src/pages/Unauthorized.tsx'],
  404: ['src/pages/NotFound.tsx'],
  '/pcp': ['src/pcp/PcpLayout.tsx', 'src/pcp/PcpDashboard.tsx'],
  '/clinical-form': ['src/assessment/ClinicalAssessmentPage.tsx'],
  '/chatbot': ['src/chat/ChatbotPage.tsx'],
  '/admin': ['src/admin/AdminApp.tsx'],
};

if (!existsSync(manifestPath)) {
  console.error(`No manifest at ${manifestPath}. Run "npm run build -w frontend" first.`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) {
  console.error('The manifest has no entry chunk.');
  process.exit(2);
}

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`"${key}" is not in the manifest; update ROUTES in ${fileURLToPath(import.meta.url)}`);
    seen.add(key);
    closure(chunk.imports ?? [], seen);
  }
  return seen;
}

const gzipCache = new Map();
function gzipBytes(file) {
  if (!gzipCache.has(file)) {
    const buf = readFileSync(join(dist, file));
    gzipCache.set(file, { raw: buf.length, gz: gzipSync(buf, { level: 9 }).length });
  }
  return gzipCache.get(file);
}

const kb = (n) => (n / 1024).toFixed(1);
const rows = [];
for (const [route, modules] of Object.entries(ROUTES)) {
  const keys = closure([entryKey, ...modules]);
  const files = [...new Set([...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')))];
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    const s = gzipBytes(f);
    raw += s.raw;
    gz += s.gz;
  }
  const leaks = MUST_NOT_LOAD.routes.includes(route)
    ? MUST_NOT_LOAD.markers.filter((m) => files.some((f) => readFileSync(join(dist, f), 'utf8').includes(m)))
    : [];
  rows.push({ route, chunks: files.length, raw, gz, leaks, budget: PUBLIC_ROUTES.includes(route) ? BUDGET_KB : null });
}

const table = [
  '| Route | JS chunks | JS (raw) | JS (gzip) | Budget (gzip) |',
  '|---|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.route} | ${r.chunks} | ${kb(r.raw)} kB | ${kb(r.gz)} kB | ${r.budget ? `${r.budget} kB` : '—'} |`),
].join('\n');
console.log(table);

const over = rows.filter((r) => (r.budget && r.gz / 1024 > r.budget) || r.leaks.length);
for (const r of over) {
  if (r.leaks.length)
    console.error(`${r.route} loads console-only code: react-admin, React Flow, MUI or emotion (found ${r.leaks.join(', ')})`);
  else console.error(`Over budget: ${r.route} is ${kb(r.gz)} kB gzip, budget ${r.budget} kB`);
}

if (process.argv.includes('--write')) {
  const section = [
    '## Frontend bundle',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run build -w frontend && node frontend/scripts/bundle-size.mjs --write\`.`,
    "JavaScript a route downloads on first load: the entry chunk and its static imports plus the route's lazy",
    `page chunks (gzip level 9). Budget for every public page: ${BUDGET_KB} kB gzip, enforced by \`--check\` (in \`npm test\`).`,
    'The public pages are plain React and CSS (frontend/src/styles/public.css): MUI and emotion load only with the',
    'consoles (/pcp, /clinical-form, /chatbot, /admin) and the profile dialog; react-admin and React Flow only under `/admin`.',
    '',
    table,
    '',
  ].join('\n');
  let doc = existsSync(benchmarks) ? readFileSync(benchmarks, 'utf8') : '# Benchmarks\n';
  const re = /## Frontend bundle\n[\s\S]*?(?=\n## |$)/;
  doc = re.test(doc) ? doc.replace(re, section.trimEnd() + '\n') : `${doc.trimEnd()}\n\n${section}`;
  writeFileSync(benchmarks, doc.endsWith('\n') ? doc : `${doc}\n`);
  console.log(`Wrote ${benchmarks}`);
}

if (process.argv.includes('--check') && over.length) process.exit(1);
