// The page at /app: a thin client of the service's REST API. The token is asked once and kept in
// sessionStorage (this tab only); every answer is shown as the API gives it, errors with their
// message and reference. No framework: the service renders the page and its reports.

const data = JSON.parse(document.getElementById('page-data').textContent);
const T = data.text;
const TOKEN_KEY = 'einvoice-token';
const $ = (id) => document.getElementById(id);
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ''));

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// ---- API -------------------------------------------------------------------------------------

class ApiFailure extends Error {
  constructor(status, envelope) {
    super(envelope?.error?.userMessage ?? `HTTP ${status}`);
    this.status = status;
    this.error = envelope?.error;
  }
}

async function api(path, { body, accept = 'application/json', token = sessionStorage.getItem(TOKEN_KEY) } = {}) {
  const res = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept,
      'accept-language': data.lang,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new ApiFailure(res.status, await res.json().catch(() => undefined));
  if (accept === 'application/json') return res.json();
  return accept === 'text/html' ? res.text() : res.blob();
}

function showProblem(err) {
  const box = $('problem');
  box.replaceChildren();
  if (!err) return;
  const e = err.error;
  if (!e) {
    box.append(el('p', { text: `${T.error}: ${err.message}` }));
    return;
  }
  box.append(el('p', { text: [e.userMessage, e.detail && e.detail !== e.userMessage ? e.detail : ''].filter(Boolean).join(' ') }));
  const fields = Array.isArray(e.fields) ? e.fields : [];
  if (fields.length) box.append(el('ul', {}, ...fields.map((f) => el('li', { text: problemText(f) }))));
  box.append(el('p', { class: 'note', text: `${T.reference}: ${e.reference} (${e.code})` }));
}

/** The other values the page offered for a field: `(also found: "A", "B")`. */
const alsoFound = (candidates) => `(${T.alsoFound}: ${candidates.map((c) => `"${c}"`).join(', ')})`;

/** A field to fix, with what was read and the other readings found, for a person to decide. */
function problemText(f) {
  const read = f.value !== undefined ? ` (${T.readAs}: "${f.value}")` : '';
  const others = f.candidates?.length ? ` ${alsoFound(f.candidates)}` : '';
  return `${f.bt ? `${f.bt} ` : ''}${f.field}: ${f.message}${read}${others}`;
}

async function busy(message, work, onError) {
  $('busy').textContent = message;
  showProblem(undefined);
  try {
    return await work();
  } catch (err) {
    showProblem(err);
    onError?.(err);
    return undefined;
  } finally {
    $('busy').textContent = '';
  }
}

// ---- token -----------------------------------------------------------------------------------

async function useToken(token) {
  try {
    await api('/api/v1/jobs?limit=1', { token });
  } catch (err) {
    if (err.status === 401 || err.status === 403) {
      sessionStorage.removeItem(TOKEN_KEY);
      $('token-status').textContent = T.tokenRefused;
      $('work').hidden = $('jobs').hidden = $('reviews').hidden = $('token-forget').hidden = true;
      return;
    }
    throw err;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  $('token-status').textContent = T.tokenAccepted;
  $('token').value = '';
  $('work').hidden = $('jobs').hidden = $('reviews').hidden = $('token-forget').hidden = false;
  loadJobs();
  await loadReviews();
  if (data.view === 'review') {
    $('reviews').scrollIntoView();
    ($('reviews-list').querySelector('button') ?? $('reviews-refresh')).focus();
  }
}

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = $('token').value.trim();
  if (token) useToken(token).catch((err) => ($('token-status').textContent = err.message));
});
$('token-forget').addEventListener('click', () => {
  sessionStorage.removeItem(TOKEN_KEY);
  $('work').hidden = $('jobs').hidden = $('reviews').hidden = $('token-forget').hidden = true;
  $('token-status').textContent = '';
  $('token').focus();
});

// ---- files -----------------------------------------------------------------------------------

function kindOf(bytes) {
  const b = (i) => bytes[i];
  if (b(0) === 0x25 && b(1) === 0x50 && b(2) === 0x44 && b(3) === 0x46) return 'pdf';
  if (b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47) return 'png';
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpeg';
  if ((b(0) === 0x49 && b(1) === 0x49 && b(2) === 0x2a) || (b(0) === 0x4d && b(1) === 0x4d && b(3) === 0x2a)) return 'tiff';
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 200))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<') ? 'xml' : 'other';
}

function base64(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

async function handleFile(file) {
  $('result').replaceChildren();
  if (file.size > data.maxFileBytes) {
    showProblem({ message: '', error: undefined });
    $('problem').replaceChildren(
      el('p', { text: fill(T.tooLarge, { size: (file.size / 1e6).toLocaleString(data.lang, { maximumFractionDigits: 1 }) }) }),
    );
    return;
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = kindOf(bytes);
  if (kind === 'xml') return showEInvoice({ xinvoiceXML: new TextDecoder().decode(bytes) }, file.name);
  const b64 = base64(bytes);
  const analysis = await busy(T.analysing, () =>
    api('/createJSONFromAnalysedPdf', { body: { pdfInvoiceBase64: b64, withLineItems: true } }),
  );
  loadJobs();
  if (!analysis) return;
  // The invoice XML of a ZUGFeRD / Factur-X PDF is read exactly and has no per-field confidence.
  if (kind === 'pdf' && !analysis.fields && analysis.extractionConfidence === 1) return showEInvoice({ zugferdFile64: b64 }, file.name);
  showEditor(file, kind, b64, analysis);
}

const drop = $('drop');
$('file').addEventListener('change', () => {
  const file = $('file').files[0];
  if (file) handleFile(file);
});
drop.addEventListener('dragover', (event) => {
  event.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (event) => {
  event.preventDefault();
  drop.classList.remove('over');
  const file = event.dataTransfer?.files?.[0];
  if (file) handleFile(file);
});

// ---- e-invoices: report and readable view ----------------------------------------------------

function downloadLink(blob, name, label) {
  return el('a', { class: 'button', href: URL.createObjectURL(blob), download: name, text: label });
}

/** The report's or view's content, from the self-contained page the API answers. */
function mainOf(html) {
  const main = new DOMParser().parseFromString(html, 'text/html').querySelector('main');
  const section = el('section', { class: 'einv' });
  section.append(...main.childNodes);
  return section;
}

async function showEInvoice(source, fileName) {
  const isXml = 'xinvoiceXML' in source;
  const validatePath = isXml ? '/api/v1/zugferd/validateXinvoiceXml' : '/api/v1/zugferd/validateZugferdPdf';
  const html = await busy(T.validating, () => api(validatePath, { body: source, accept: 'text/html' }));
  loadJobs();
  if (html === undefined) return;
  const stem = fileName.replace(/\.[^.]+$/, '');
  const view = el('div', { id: 'view' });
  const action = (label, path, accept, done) =>
    el('button', {
      type: 'button',
      class: 'secondary',
      text: label,
      onclick: async () => {
        const answer = await busy(T.working, () => api(path, { body: source, accept }));
        if (answer) done(answer);
      },
    });
  const offerPdf = (name) => (pdf) => actions.append(downloadLink(pdf, name, `${T.download}: ${name}`));
  const actions = el(
    'div',
    { class: 'actions' },
    action(T.reportPdf, validatePath, 'application/pdf', offerPdf(`${stem}-report.pdf`)),
    action(T.readable, '/api/v1/zugferd/visualizeXinvoice', 'text/html', (page) => view.replaceChildren(mainOf(page))),
    action(T.readablePdf, '/api/v1/zugferd/visualizeXinvoice', 'application/pdf', offerPdf(`${stem}-view.pdf`)),
  );
  $('result').replaceChildren(el('div', { id: 'report' }, mainOf(html)), actions, view);
}

// ---- plain invoices: fields, editing, building -----------------------------------------------

/** invoice → [["seller.sellerName", "ACME"], ["invoiceLine[0].invoicedQuantity", "2"], …] */
function flatten(value, path = '', out = []) {
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object')) out.push([path, value.join(', ')]);
    else value.forEach((v, i) => flatten(v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path}.${k}` : k, out);
  } else if (value !== null && value !== undefined) out.push([path, String(value)]);
  return out;
}

const genericPath = (path) => path.replace(/\[\d+\]/g, '[]');
/** `invoiceLine[1].invoiceLineAllowances[0].…` → ["Invoice line 2", "Invoice line allowance 1"]: which item a field belongs to. */
const itemsOf = (path) =>
  [...path.matchAll(/\[(\d+)\]/g)].flatMap((m) => {
    const list = data.lists[`${genericPath(path.slice(0, m.index))}[]`];
    return list ? [`${list} ${Number(m[1]) + 1}`] : [];
  });

function setPath(target, path, value) {
  const keys = path.split('.').flatMap((part) => {
    const m = /^(\w+)((?:\[\d+\])*)$/.exec(part);
    return [m[1], ...[...m[2].matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]))];
  });
  let node = target;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) node[key] = value;
    else node = node[key] ??= typeof keys[i + 1] === 'number' ? [] : {};
  });
}

/** List fields of the model (e.g. seller identifiers) are edited as comma-separated text. */
const LIST_FIELDS = new Set(['seller.sellerIdentifier']);

function fieldRow(path, value, report, problem) {
  const id = `f-${path.replace(/[^\w]/g, '_')}`;
  const generic = genericPath(path);
  const bt = data.bt[generic];
  // The term's name is unique among the fields (test/invoice/term-names.test.ts): only a list's item needs saying.
  // A whole list the service asks for (`invoiceLine`) is named by its item's group.
  const name = data.names[generic] ?? data.lists[`${generic}[]`] ?? path;
  const label = [`${name}${bt ? ` (${bt})` : ''}`, ...itemsOf(path)].join(' · ');
  const unsure = problem !== undefined || isUnsure(report);
  // Rounded down: a value to check never reads as 90 %.
  const read = report ? `${T.confidence} ${Math.floor(report.confidence * 100)} % · ${T[report.source] ?? report.source}` : '';
  const meta = [problem ?? (unsure ? T.unsure : ''), read].filter(Boolean).join(': ');
  return el(
    'div',
    { class: `field${unsure ? ' unsure' : ''}` },
    el('label', { for: id, text: label }),
    el('input', { id, type: 'text', 'data-path': path, value, 'aria-describedby': meta ? `${id}-meta` : undefined }),
    meta ? el('span', { id: `${id}-meta`, class: `meta${problem || report?.confidence < 0.75 ? ' low' : ''}`, text: meta }) : null,
  );
}

function collectInvoice(container) {
  const invoice = {};
  for (const input of container.querySelectorAll('input[data-path]')) {
    const value = input.value.trim();
    if (!value) continue;
    const path = input.dataset.path;
    setPath(invoice, path, LIST_FIELDS.has(genericPath(path)) ? value.split(/\s*,\s*/) : value);
  }
  return invoice;
}

// ---- the page beside the fields: where each value was read ------------------------------------

/** Fields below this confidence are marked on the page as well as in the form. */
const UNSURE = 0.9;

/**
 * The file's page with a box over the words each field was read from (`fields[path].place`).
 * Focusing a field shows its page and marks its box; clicking a box focuses its field.
 * A PDF is drawn by pdf.js; where that fails the browser's own viewer shows it, without boxes.
 */
function pageView(file, kind, fields, focusField) {
  const url = URL.createObjectURL(file);
  if (kind === 'tiff') return { node: el('p', { text: file.name }), show: () => {} };
  const boxes = el('div', { class: 'boxes' });
  const sheet = el('div', { class: 'sheet' });
  const node = el('div', { class: 'page-view' }, sheet);
  const placed = Object.entries(fields ?? {}).filter(([, f]) => f.place);
  let shown = 0;
  let drawPage = async () => {};
  const mark = (active) => {
    for (const b of boxes.children) b.classList.toggle('active', b.dataset.path === active);
  };
  const showPage = async (page, active) => {
    if (page !== shown) {
      shown = page;
      await drawPage(page);
      boxes.replaceChildren(...placed.filter(([, f]) => f.place.page === page).map(([path, f]) => boxOf(path, f, focusField)));
    }
    mark(active);
  };
  if (kind === 'pdf') {
    const pdf = openPdf(file);
    drawPage = async (page) => {
      const { canvas, words } = await drawPdfPage(await pdf, page, `${T.preview}: ${file.name}`);
      sheet.replaceChildren(canvas, boxes, el('div', { class: 'words' }, ...words.map(wordMark)));
    };
    showPage(1).catch(() =>
      node.replaceChildren(
        el('object', { data: url, type: 'application/pdf', 'aria-label': T.preview }, el('a', { href: url, text: file.name })),
      ),
    );
  } else {
    sheet.append(el('img', { src: url, alt: `${T.preview}: ${file.name}` }), boxes);
    showPage(1);
  }
  return { node, show: (path) => showPage(fields?.[path]?.place?.page ?? shown, path).catch(() => {}) };
}

const isUnsure = (report) => report !== undefined && report.confidence < UNSURE;

function boxOf(path, report, focusField) {
  const box = el('button', {
    type: 'button',
    class: `box${isUnsure(report) ? ' unsure' : ''}`,
    'data-path': path,
    tabindex: '-1',
    'aria-label': path,
    onclick: () => focusField(path),
  });
  placeOn(box, report.place);
  return box;
}

let pdfjs;
async function openPdf(file) {
  pdfjs ??= await import('/app/pdf.mjs').then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = '/app/pdf.worker.mjs';
    return lib;
  });
  // The bytes, not the blob URL: the page's CSP allows no fetch of blob URLs.
  const data = new Uint8Array(await file.arrayBuffer());
  return pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true }).promise;
}

async function drawPdfPage(pdf, pageNumber, label) {
  const page = await pdf.getPage(pageNumber);
  const viewport = page.getViewport({ scale: 2 });
  const canvas = el('canvas', { width: viewport.width, height: viewport.height, role: 'img', 'aria-label': label });
  await page.render({ canvas, viewport }).promise;
  return { canvas, words: wordsOf(await page.getTextContent(), viewport) };
}

/** The PDF's own words with their boxes as fractions of the page; a run of text is split by its characters. */
function wordsOf(content, viewport) {
  return content.items.flatMap((item) => {
    if (!item.str?.trim()) return [];
    const [a, b, , , left, baseline] = pdfjs.Util.transform(viewport.transform, item.transform);
    const height = Math.hypot(a, b);
    const width = item.width * viewport.scale;
    return [...item.str.matchAll(/\S+/g)].map((m) => ({
      text: m[0],
      x: (left + (width * m.index) / item.str.length) / viewport.width,
      y: (baseline - height) / viewport.height,
      width: (width * m[0].length) / item.str.length / viewport.width,
      height: height / viewport.height,
    }));
  });
}

/**
 * A word of the page: pressed while a field has the focus, it goes into that field (the first
 * replaces what the field held, the next ones are added); pressed otherwise, it focuses the
 * field whose box it stands in.
 */
function wordMark(word) {
  const mark = el('span', { class: 'word', 'data-text': word.text });
  placeOn(mark, word);
  mark.addEventListener('mousedown', (e) => {
    const field = document.activeElement;
    e.preventDefault();
    if (field?.dataset?.path) return addWord(field, word.text);
    const box = document.elementsFromPoint(e.clientX, e.clientY).find((n) => n.classList?.contains('box'));
    box?.click();
  });
  return mark;
}

function addWord(field, text) {
  field.value = field.dataset.picked === 'yes' ? `${field.value} ${text}` : text;
  field.dataset.picked = 'yes';
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** CSSOM, not a style attribute: the page's CSP allows no inline styles. */
function placeOn(node, { x, y, width, height }) {
  Object.assign(node.style, { left: `${x * 100}%`, top: `${y * 100}%`, width: `${width * 100}%`, height: `${height * 100}%` });
}

/**
 * The values read beside the page they were read from, to correct and create the e-invoice from.
 * `review` (an entry of the review queue): the fields its refusal names come first, marked, and
 * the form sends the corrected invoice back to the entry, which delivers it to its route.
 */
function showEditor(file, kind, b64, analysis, review) {
  const fields = el('div', { class: 'fields', id: review ? 'review-fields' : 'fields' });
  const focusField = (path) => fields.querySelector(`input[data-path="${CSS.escape(path)}"]`)?.focus();
  const view = pageView(file, kind, analysis.fields, focusField);
  // What the refusal says of each field, with the other values the page offered for it.
  const problems = new Map(
    (review?.refusal.fields ?? [])
      .filter((f) => f.field?.startsWith('invoice.'))
      .map((f) => [f.field.slice('invoice.'.length), f.candidates?.length ? `${f.message} ${alsoFound(f.candidates)}` : f.message]),
  );
  // The values to check first: those a refusal names, then those read with little confidence, then the rest in the invoice's order.
  const rank = (path) => (problems.has(path) ? 0 : isUnsure(analysis.fields?.[path]) ? 1 : 2);
  const rows = flatten(analysis.invoice);
  for (const path of problems.keys()) if (!rows.some(([p]) => p === path)) rows.push([path, '']);
  for (const [path, value] of rows.sort(([a], [b]) => rank(a) - rank(b)))
    fields.append(fieldRow(path, value, analysis.fields?.[path], problems.get(path)));
  // Escape leaves the field, so that the page's words lead to their fields again instead of filling this one.
  fields.addEventListener('keydown', (e) => e.key === 'Escape' && e.target.dataset?.path && e.target.blur());
  fields.addEventListener('focusin', (e) => {
    if (!e.target.dataset?.path) return;
    delete e.target.dataset.picked;
    view.show(e.target.dataset.path);
  });
  const outcome = el('div', { id: review ? 'review-outcome' : 'outcome', role: 'status', 'aria-live': 'polite' });
  /** Adds an empty input for each path that has none, and moves the focus to the first. */
  const askFor = (paths) => {
    const added = [];
    for (const path of new Set(paths)) {
      if (fields.querySelector(`input[data-path="${CSS.escape(path)}"]`)) continue;
      const row = fieldRow(path, '', undefined);
      fields.append(row);
      added.push(row);
    }
    added[0]?.querySelector('input').focus();
  };
  const choice = review ? undefined : buildChoice(kind);
  const form = el(
    'form',
    { id: review ? 'review-form' : 'build-form' },
    el('h3', { text: T.fields }),
    el('p', { class: 'note', text: T.fieldsHint }),
    fields,
    choice ? choice.node : el('button', { type: 'submit', text: T.reviewCreate }),
    outcome,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const invoice = collectInvoice(fields);
    outcome.replaceChildren();
    if (review) sendReview(review, invoice, outcome, askFor);
    else createFrom(invoice, choice, { b64, stem: file.name.replace(/\.[^.]+$/, '') }, outcome, askFor);
  });
  const editor = el('div', { class: 'editor' }, el('div', { class: 'preview' }, el('h3', { text: T.preview }), view.node), form);
  $(review ? 'result' : 'review').replaceChildren();
  $(review ? 'review' : 'result').replaceChildren(editor);
  if (review) fields.querySelector('input')?.focus();
}

/** What to create from the values: a ZUGFeRD PDF (of a PDF) or XRechnung XML, and the profile. */
function buildChoice(kind) {
  const format = el(
    'select',
    { id: 'format' },
    kind === 'pdf' ? el('option', { value: 'zugferd', text: T.formatZugferd }) : null,
    el('option', { value: 'CII', text: T.formatXrechnungCii }),
    el('option', { value: 'UBL', text: T.formatXrechnungUbl }),
  );
  const profile = el(
    'select',
    { id: 'profile' },
    ...data.profiles.map((p) => el('option', { value: p, text: p, selected: p === 'EN16931' })),
  );
  const profileRow = el('p', {}, el('label', { for: 'profile', text: `${T.profile} ` }), profile);
  format.addEventListener('change', () => (profileRow.hidden = format.value !== 'zugferd'));
  profileRow.hidden = format.value !== 'zugferd';
  const node = el(
    'fieldset',
    {},
    el('legend', { text: T.build }),
    el('p', {}, el('label', { for: 'format', text: `${T.format} ` }), format),
    profileRow,
    el('button', { type: 'submit', text: T.createButton }),
  );
  return { node, format: () => format.value, profile: () => profile.value };
}

async function createFrom(invoice, choice, { b64, stem }, outcome, askFor) {
  const zugferd = choice.format() === 'zugferd';
  const answer = await busy(
    T.building,
    () =>
      zugferd
        ? api('/api/v1/zugferd/createZugferdFromJson', { body: { invoice, invoicePdf64: b64, profile: choice.profile() } })
        : api('/api/v1/zugferd/createXinvoiceFromJson', { body: { invoice, syntax: choice.format() } }),
    // Fields the service names as missing or wrong get an input, so they can be filled in and sent again.
    (err) => askFor(invoicePaths(err.error?.fields)),
  );
  loadJobs();
  if (!answer) return;
  const errors = zugferd ? [...answer.zugferdErrorList, ...answer.xInvoiceErrorList] : answer.xInvoiceErrors;
  // A broken rule names its business terms: those the reading left empty get an input too.
  askFor(errors.flatMap((f) => [...f.message.matchAll(/\bBT-\d+\b/g)].map((m) => data.paths[m[0]]).filter(Boolean)));
  const blob = zugferd
    ? new Blob([Uint8Array.from(atob(answer.zugferd), (c) => c.charCodeAt(0))], { type: 'application/pdf' })
    : new Blob([answer.xInvoice], { type: 'application/xml' });
  const name = zugferd ? `${stem}-zugferd.pdf` : `${stem}-xrechnung.xml`;
  outcome.append(el('p', { text: errors.length ? fill(T.createdInvalid, { n: errors.length }) : T.createdValid }));
  if (errors.length) outcome.append(el('ul', {}, ...errors.map((f) => el('li', {}, el('code', { text: f.ruleId }), ` ${f.message}`))));
  outcome.append(downloadLink(blob, name, `${T.download}: ${name}`));
}

/** The paths in `invoice` a refusal's field problems name. */
const invoicePaths = (problems) =>
  (problems ?? [])
    .map((f) => String(f.field ?? ''))
    .filter((f) => f.startsWith('invoice.'))
    .map((f) => f.slice('invoice.'.length));

// ---- review queue ----------------------------------------------------------------------------

/** `done`: an entry just created, which the queue may list for a moment longer. */
async function loadReviews(done) {
  let answer;
  try {
    answer = await api('/api/v2/reviews');
  } catch {
    return;
  }
  const list = $('reviews-list');
  const { created, medianSeconds } = answer.stats;
  const stats = medianSeconds === undefined ? T.reviewStatsCount : T.reviewStats;
  $('reviews-stats').textContent = created ? fill(stats, { n: created, s: Math.round(medianSeconds ?? 0) }) : '';
  answer.reviews = answer.reviews.filter((r) => r.id !== done);
  if (!answer.reviews.length) return list.replaceChildren(el('p', { text: T.reviewsEmpty }));
  const time = new Intl.DateTimeFormat(data.lang, { dateStyle: 'short', timeStyle: 'short' });
  const rows = answer.reviews.map((r) =>
    el(
      'tr',
      {},
      el('td', { text: r.file ?? r.id }),
      el('td', { text: r.route ?? '' }),
      el('td', { text: time.format(new Date(r.since)) }),
      el(
        'td',
        {},
        el('button', {
          type: 'button',
          text: T.reviewOpen,
          'aria-label': `${T.reviewOpen}: ${r.file ?? r.id}`,
          onclick: () => openReview(r.id),
        }),
      ),
    ),
  );
  list.replaceChildren(
    el(
      'table',
      { class: 'jobs' },
      el('thead', {}, el('tr', {}, ...[T.reviewFile, T.reviewRoute, T.reviewSince, ''].map((h) => el('th', { scope: 'col', text: h })))),
      el('tbody', {}, ...rows),
    ),
  );
}

async function openReview(id) {
  const opened = Date.now();
  const loaded = await busy(T.reviewLoading, () =>
    Promise.all([
      api(`/api/v2/reviews/${encodeURIComponent(id)}`),
      api(`/api/v2/reviews/${encodeURIComponent(id)}/file`, { accept: '*/*' }),
    ]),
  );
  if (!loaded) return;
  const [entry, blob] = loaded;
  const file = new File([blob], entry.fileName, { type: blob.type });
  const refusal = entry.lastAttempt ?? entry.refusal;
  const why = el('div', { class: 'refusal' }, el('p', { text: `${T.reviewReason}: ${refusal.code} · ${refusal.message}` }));
  showEditor(file, entry.fileType, undefined, entry, { id, origin: entry.origin, refusal, opened });
  $('review').prepend(why);
}

async function sendReview(review, invoice, outcome, askFor) {
  // The time from opening the entry to sending it: the queue's statistics show how long a review takes.
  const seconds = Math.round((Date.now() - review.opened) / 1000);
  const answer = await busy(T.building, () =>
    api(`/api/v2/reviews/${encodeURIComponent(review.id)}/invoice`, { body: { invoice, seconds } }),
  );
  if (!answer) return;
  if (!answer.created) {
    const fields = answer.refusal.fields ?? [];
    outcome.append(
      el('p', { text: `${T.reviewRefusedAgain} ${answer.refusal.message}` }),
      el('ul', {}, ...fields.map((f) => el('li', { text: problemText(f) }))),
    );
    return askFor(invoicePaths(fields));
  }
  // A connector's e-invoice went to its route; an API call's is only stored: its link is what the person passes on.
  const created = fill(review.origin === 'api' ? T.reviewCreatedStored : T.reviewCreated, { id: answer.documentId });
  $('review').replaceChildren(
    el('p', { role: 'status', text: created }),
    el('a', { href: answer.downloadURL, text: `${T.download}: ${answer.documentId}` }),
  );
  await loadReviews(review.id);
  loadJobs();
  $('reviews-list').querySelector('button')?.focus();
}
$('reviews-refresh').addEventListener('click', () => loadReviews());

// ---- recent jobs -----------------------------------------------------------------------------

async function loadJobs() {
  let answer;
  try {
    answer = await api('/api/v1/jobs?limit=15');
  } catch {
    return;
  }
  const list = $('jobs-list');
  if (!answer.jobs.length) return list.replaceChildren(el('p', { text: T.jobsEmpty }));
  const time = new Intl.DateTimeFormat(data.lang, { dateStyle: 'short', timeStyle: 'medium' });
  const rows = answer.jobs.map((j) =>
    el(
      'tr',
      {},
      el('td', { text: [j.operation, j.route && `${j.route}: ${j.file ?? ''}`].filter(Boolean).join(' · ') }),
      el('td', { text: [j.status.toLowerCase(), j.outcome].filter(Boolean).join(' · ') }),
      el('td', { text: time.format(new Date(j.startedAt)) }),
      el(
        'td',
        {},
        j.temporalUrl
          ? el('a', { href: j.temporalUrl, target: '_blank', rel: 'noopener', text: j.workflowId })
          : el('code', { text: j.workflowId }),
      ),
    ),
  );
  list.replaceChildren(
    el(
      'table',
      { class: 'jobs' },
      el(
        'thead',
        {},
        el('tr', {}, ...[T.jobOperation, T.jobStatus, T.jobStarted, T.jobWorkflow].map((h) => el('th', { scope: 'col', text: h }))),
      ),
      el('tbody', {}, ...rows),
    ),
    answer.jobs.some((j) => j.temporalUrl) ? '' : el('p', { class: 'note', text: T.jobUiUnreachable }),
  );
}
$('jobs-refresh').addEventListener('click', loadJobs);

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) useToken(saved);
