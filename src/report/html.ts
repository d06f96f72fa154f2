import type { Language } from './language.js';
import type { ReportView } from './validation-report.js';

/** HTML for people: every value escaped, self-contained (inline styles), readable without script. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * The styles of reports and invoice views, also linked by the page. Colours meet WCAG AA contrast
 * on white (text 4.5:1 at least); the verdict says its result in words, not by colour alone.
 */
export const DOCUMENT_CSS = `
.einv { font: 15px/1.45 system-ui, "DejaVu Sans", sans-serif; color: #1a1a1a; max-width: 68rem; }
.einv h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
.einv h2 { font-size: 1.15rem; margin: 1.4rem 0 .4rem; color: #1f4e79; }
.einv table { border-collapse: collapse; width: 100%; margin: .3rem 0 1rem; }
.einv caption { text-align: left; font-weight: 600; padding: .2rem 0; }
.einv th, .einv td { border: 1px solid #c8ccd2; padding: .3rem .45rem; text-align: left; vertical-align: top; }
.einv th { background: #e6edf5; color: #1a1a1a; }
.einv td.num, .einv th.num { text-align: right; font-variant-numeric: tabular-nums; }
.einv .verdict { font-weight: 700; padding: .5rem .75rem; border-left: 6px solid; margin: .5rem 0 1rem; }
.einv .verdict.valid { background: #e7f4ea; border-color: #1e6b34; color: #14532d; }
.einv .verdict.invalid { background: #fbeaea; border-color: #a4262c; color: #7f1d1d; }
.einv .sev-error, .einv .sev-fatal { color: #a4262c; font-weight: 700; }
.einv .sev-warning { color: #7a4b00; font-weight: 700; }
.einv .sev-information { color: #3d4752; }
.einv code, .einv .loc { font-family: "DejaVu Sans Mono", monospace; font-size: .85em; }
.einv .loc { word-break: break-all; }
.einv .rule-id { white-space: nowrap; }
.einv dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
.einv dl.facts dt { font-weight: 600; }
.einv dl.facts dd { margin: 0; }
.einv .note { color: #4a5058; font-size: .9em; }
.einv .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.einv .parties { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 0 2rem; }
`;

export function htmlDocument(lang: Language, title: string, main: string): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${DOCUMENT_CSS}</style></head>
<body><main class="einv">${main}</main></body></html>`;
}

export function factsList(facts: ReadonlyArray<readonly [string, string]>): string {
  return `<dl class="facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}

/** The report's content (inside `<main>`): what the page shows in place and the document wraps. */
export function reportFragment(view: ReportView): string {
  const w = view.words;
  const groups = view.groups.length
    ? view.groups
        .map(
          (
            g,
          ) => `<section class="group" data-group="${g.id}"><h2>${esc(g.title)} <span class="note">(${esc(w.groupErrors(g.errors))})</span></h2>${g.ruleSets.length ? `<p class="note">${esc(g.ruleSets.join(', '))}</p>` : ''}
<table><thead><tr><th scope="col">${esc(w.severity)}</th><th scope="col">${esc(w.rule)}</th><th scope="col">${esc(w.message)}</th><th scope="col">${esc(w.field)}</th><th scope="col">${esc(w.location)}</th></tr></thead><tbody>
${g.findings
  .map(
    (f) =>
      `<tr class="finding"><td class="sev-${f.severity}">${esc(w.severities[f.severity])}${f.originalSeverity ? `<br><span class="note">${esc(w.changedFrom(w.severities[f.originalSeverity]))}</span>` : ''}</td><td><code class="rule-id">${esc(f.ruleId)}</code></td><td>${esc(f.message)}</td><td>${esc(f.terms.join(', '))}</td><td>${f.line ? `${esc(w.line(f.line))}<br>` : ''}<span class="loc">${esc(f.location ?? '')}</span></td></tr>`,
  )
  .join('\n')}
</tbody></table></section>`,
        )
        .join('\n')
    : `<p>${esc(w.noFindings)}</p>`;
  return `<h1>${esc(view.title)}</h1>
<p class="verdict ${view.valid ? 'valid' : 'invalid'}" role="status">${esc(view.verdict)}</p>
${factsList(view.facts)}
${groups}
<h2>${esc(w.validators)}</h2>
<table><thead><tr><th scope="col">${esc(w.validator)}</th><th scope="col">${esc(w.version)}</th></tr></thead><tbody>
${view.artefacts.map((a) => `<tr><td>${esc(a.name)}</td><td>${esc(a.version)}</td></tr>`).join('\n')}
</tbody></table>
<p class="note">${esc(w.messagesNote)}</p>`;
}

export const reportHtml = (view: ReportView): string => htmlDocument(view.lang, view.title, reportFragment(view));
