import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { catalog, catalogLists } from '../../invoice/catalog.js';
import { termName } from '../../invoice/term-names.js';
import { MAX_FILE_BYTES } from '../../jobs/intake/file.js';
import { ZUGFERD_PROFILES } from '../../pdf/profiles.js';
import { DOCUMENT_CSS, esc } from '../../report/html.js';
import { pickLanguage, type Language } from '../../report/language.js';
import { TEXT } from '../../report/text.js';
import { findRepoRoot } from '../../validation/artefacts.js';
import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';

/**
 * The page for people at /app: rendered here in the reader's language, with a small hand-written
 * ES module (web/app.js) that calls the same REST API with the token the reader gives once.
 * Everything is served by the service itself, so the page works offline.
 */

const webDir = path.join(findRepoRoot(), 'web');
/** pdf.js draws a PDF's page on the page, so that the boxes of the fields read can be drawn over it. */
const pdfjsDir = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'build');
const SCRIPT = 'text/javascript; charset=utf-8';
const ASSETS: Record<string, { type: string; read: () => Promise<Buffer | string> }> = {
  'app.js': { type: SCRIPT, read: () => readFile(path.join(webDir, 'app.js')) },
  'app.css': { type: 'text/css; charset=utf-8', read: () => readFile(path.join(webDir, 'app.css')) },
  'report.css': { type: 'text/css; charset=utf-8', read: async () => DOCUMENT_CSS },
  'pdf.mjs': { type: SCRIPT, read: () => readFile(path.join(pdfjsDir, 'pdf.min.mjs')) },
  'pdf.worker.mjs': { type: SCRIPT, read: () => readFile(path.join(pdfjsDir, 'pdf.worker.min.mjs')) },
};

/** What the script needs besides the words: each field path's business term and its name, and the profiles. */
const pageData = (lang: Language) => ({
  bt: Object.fromEntries(catalog.map((f) => [f.path, f.bt])),
  /** Field path → the name of its business term in the page's language: the field's label. */
  names: Object.fromEntries(catalog.filter((f) => f.bt).map((f) => [f.path, termName(f.bt, lang)])),
  /** List path (`invoiceLine[]`) → the name of one item's group, to number the items ("Rechnungsposition 2"). */
  lists: Object.fromEntries(catalogLists.filter((l) => !l.single).map((l) => [l.path, termName(l.bt, lang)])),
  /** Business term → its one path outside any list, so a finding that names a term can ask for it. */
  paths: Object.fromEntries(catalog.filter((f) => f.bt && !f.path.includes('[]') && !f.list).map((f) => [f.bt, f.path])),
  profiles: ZUGFERD_PROFILES,
  maxFileBytes: MAX_FILE_BYTES,
});
const PAGE_DATA = { de: pageData('de'), en: pageData('en') } satisfies Record<Language, unknown>;

/** JSON inside a script element: `<` escaped so no text can end the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

type AppText = (typeof TEXT)[Language]['app'];

/** The file to read or validate, and what became of it. */
const workSection = (t: AppText) => `<section id="work" aria-labelledby="file-title" class="panel" hidden>
  <h2 id="file-title">${esc(t.fileLegend)}</h2>
  <div id="drop" class="drop">
    <label for="file">${esc(t.fileLabel)}</label>
    <input id="file" type="file" accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.xml,application/pdf,image/png,image/jpeg,image/tiff,text/xml,application/xml">
    <p aria-hidden="true" class="note">${esc(t.dropHere)}</p>
  </div>
  <p id="busy" role="status" aria-live="polite"></p>
  <div id="problem" role="alert"></div>
  <div id="result"></div>
</section>`;

/** The review queue, and the entry being reviewed. */
const reviewSection = (t: AppText) => `<section id="reviews" aria-labelledby="reviews-title" class="panel" hidden>
  <h2 id="reviews-title">${esc(t.reviews)}</h2>
  <p class="note">${esc(t.reviewsHint)}</p>
  <button type="button" id="reviews-refresh">${esc(t.reviewsRefresh)}</button>
  <p id="reviews-stats" role="status" aria-live="polite"></p>
  <div id="reviews-list"></div>
  <div id="review"></div>
</section>`;

/** `review`: the page opened at /app/review, which starts at the review queue. */
function page(lang: Language, view: 'work' | 'review' = 'work'): string {
  const t = TEXT[lang].app;
  const other: Language = lang === 'de' ? 'en' : 'de';
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(t.title)}</title>
<link rel="stylesheet" href="/app/report.css"><link rel="stylesheet" href="/app/app.css"></head>
<body>
<header class="top"><h1>${esc(t.title)}</h1>
<nav aria-label="${esc(t.language)}"><a href="/app?lang=${other}" hreflang="${other}" lang="${other}">${other === 'de' ? 'Deutsch' : 'English'}</a></nav></header>
<main id="main">
<p class="intro">${esc(t.intro)}</p>
<section aria-labelledby="token-title" class="panel">
  <h2 id="token-title">${esc(t.tokenLegend)}</h2>
  <form id="token-form">
    <label for="token">${esc(t.tokenLabel)}</label>
    <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required aria-describedby="token-hint">
    <button type="submit">${esc(t.tokenSave)}</button>
    <button type="button" id="token-forget" hidden>${esc(t.tokenForget)}</button>
    <p id="token-hint" class="note">${esc(t.tokenHint)}</p>
  </form>
  <p id="token-status" role="status" aria-live="polite"></p>
</section>
${view === 'review' ? `${reviewSection(t)}\n${workSection(t)}` : `${workSection(t)}\n${reviewSection(t)}`}
<section id="jobs" aria-labelledby="jobs-title" class="panel" hidden>
  <h2 id="jobs-title">${esc(t.jobs)}</h2>
  <button type="button" id="jobs-refresh">${esc(t.jobsRefresh)}</button>
  <div id="jobs-list"></div>
</section>
</main>
<script type="application/json" id="page-data">${scriptJson({ lang, view, text: t, ...PAGE_DATA[lang] })}</script>
<script type="module" src="/app/app.js"></script>
</body></html>`;
}

export function appRoutes() {
  return [
    pageRoute(
      '/app',
      'work',
      'app',
      'The page for people: drop an invoice, correct it, create the e-invoice; validation reports; recent jobs',
    ),
    pageRoute('/app/review', 'review', 'appReview', 'The same page, opened at the review queue'),
    defineRoute({
      method: 'GET',
      path: '/app/:asset',
      operationId: 'appAsset',
      summary: 'Script and styles of the page',
      tags: ['Service'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'Static asset' } },
      handle: async ({ request }) => {
        const asset = ASSETS[request.params.asset ?? ''];
        if (!asset) throw new ApiError('NOT_FOUND');
        return {
          body: await asset.read(),
          contentType: asset.type,
          headers: { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' },
        };
      },
    }),
  ];
}

function pageRoute(path: string, view: 'work' | 'review', operationId: string, summary: string) {
  return defineRoute({
    method: 'GET',
    path,
    operationId,
    summary,
    tags: ['Service'],
    auth: 'none',
    hidden: true,
    query: z.object({ lang: z.string().optional() }),
    responses: { 200: { description: 'HTML page' } },
    handle: async ({ query, request }) => ({
      body: page(pickLanguage(query.lang, request.headers['accept-language']), view),
      contentType: 'text/html; charset=utf-8',
      headers: {
        Vary: 'Accept-Language',
        'Content-Security-Policy':
          "default-src 'self'; img-src 'self' blob: data:; object-src 'self' blob:; frame-src 'self' blob:; style-src 'self'",
        'X-Content-Type-Options': 'nosniff',
      },
    }),
  });
}
