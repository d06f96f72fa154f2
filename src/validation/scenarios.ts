import type { FacturXProfile } from './artefacts.js';
import type { RootKind } from './detect.js';
import type { FindingSource, Severity } from './types.js';

/**
 * The validation scenarios: which document, identified by its root element and its specification
 * identifier (BT-24), is judged by which layers of rules, with which severities.
 *
 * The XRechnung and EN 16931 scenarios are those of the KoSIT validator's XRechnung configuration
 * (release 2026-01-31, the one public buyers run): same names, same exact BT-24 match, same
 * severity overrides (its `customLevel`s). test/validation/scenarios.test.ts compares this table
 * with that configuration's scenarios.xml when ../shared is present. We add scenarios KoSIT does
 * not have: Peppol BIS Billing 3.0 (schema and CEN rules, like the configuration's non-official
 * Peppol scenarios), and the Factur-X / ZUGFeRD 2.x profiles, whose own XSD and schematron run as
 * one more layer. A document that matches no scenario is not valid, as in KoSIT: an outdated
 * XRechnung (before 3.0) or an unknown identifier must not pass as "valid".
 */

/** Where the XML comes from: alone, or embedded in a ZUGFeRD / Factur-X PDF. */
export type Container = 'xml' | 'pdf';

export interface Scenario {
  id: string;
  /** KoSIT's scenario name where KoSIT has the scenario. */
  name: string;
  kind: RootKind;
  /** BT-24, compared exactly (no trimming), as KoSIT's scenario match does. */
  customization: string;
  /** The rule layers after the XML Schema, in order. */
  layers: Array<Extract<FindingSource, 'en16931' | 'xrechnung' | 'profile'>>;
  facturX?: FacturXProfile;
  /** Severity overrides of the scenario by rule id (KoSIT's customLevel). */
  customLevels: Readonly<Record<string, Severity>>;
  /** Only for XML alone, or only for XML in a PDF; absent: both. */
  container?: Container;
}

export const XRECHNUNG_3 = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
export const XRECHNUNG_3_EXTENSION = `${XRECHNUNG_3}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`;
export const XRECHNUNG_3_CVD = `${XRECHNUNG_3}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9`;
export const EN16931 = 'urn:cen.eu:en16931:2017';
export const PEPPOL_BIS_3 = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';

const KIND_LABEL: Record<RootKind, string> = { 'ubl-invoice': 'UBL Invoice', 'ubl-creditnote': 'UBL CreditNote', cii: 'CII' };
const KIND_ID: Record<RootKind, string> = { 'ubl-invoice': 'ubl-invoice', 'ubl-creditnote': 'ubl-creditnote', cii: 'cii' };

// KoSIT's overrides, per scenario: code lists that XRechnung widens are lowered (unit codes,
// ISO 6523 schemes; for the extension also the schemes its DIGA codes use and the third-party
// payment sums; for CVD the item classification scheme), cardinality rules that XRechnung
// enforces are raised (one BG-30 per line, one payment terms, no sub invoice lines).
const CII_RAISED = { 'CII-SR-452': 'error', 'CII-SR-453': 'error', 'CII-SR-454': 'error' } as const;
const XRECHNUNG_COMMON = { 'BR-CL-23': 'warning', 'BR-CL-21': 'warning' } as const;
const EXTENSION_COMMON = {
  'BR-CL-21': 'information',
  'BR-CL-23': 'warning',
  'BR-CL-24': 'information',
  'BR-CL-10': 'information',
  'BR-CL-11': 'information',
  'BR-CL-25': 'information',
  'BR-CL-26': 'information',
} as const;

function xrechnung(
  kind: RootKind,
  variant: '' | 'Extension' | 'CVD',
  customization: string,
  customLevels: Record<string, Severity>,
): Scenario {
  return {
    id: ['xrechnung', variant.toLowerCase(), KIND_ID[kind]].filter(Boolean).join('-'),
    name: `EN16931 XRechnung${variant ? ` ${variant}` : ''} (${KIND_LABEL[kind]})`,
    kind,
    customization,
    layers: ['en16931', 'xrechnung'],
    customLevels,
  };
}

const FACTURX_IDS: ReadonlyArray<[FacturXProfile, string, Container?]> = [
  ['MINIMUM', 'urn:factur-x.eu:1p0:minimum'],
  ['MINIMUM', 'urn:zugferd.de:2p0:minimum'],
  ['BASICWL', 'urn:factur-x.eu:1p0:basicwl'],
  ['BASICWL', 'urn:zugferd.de:2p0:basicwl'],
  ['BASIC', 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic'],
  ['BASIC', 'urn:cen.eu:en16931:2017#compliant#urn:zugferd.de:2p0:basic'],
  // The EN16931 profile names plain EN 16931 in BT-24: only a PDF makes it a Factur-X invoice.
  ['EN16931', EN16931, 'pdf'],
  ['EN16931', 'urn:cen.eu:en16931:2017:compliant:factur-x.eu:1p0:en16931'],
  ['EXTENDED', 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended'],
  ['EXTENDED', 'urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended'],
];

const FACTURX_LABEL: Record<FacturXProfile, string> = {
  MINIMUM: 'MINIMUM',
  BASICWL: 'BASIC WL',
  BASIC: 'BASIC',
  EN16931: 'EN 16931',
  EXTENDED: 'EXTENDED',
};

/** In KoSIT's order (the first match wins), then ours. */
export const SCENARIOS: readonly Scenario[] = [
  xrechnung('ubl-invoice', '', XRECHNUNG_3, { ...XRECHNUNG_COMMON, 'UBL-CR-646': 'error' }),
  xrechnung('ubl-invoice', 'Extension', XRECHNUNG_3_EXTENSION, {
    ...EXTENSION_COMMON,
    'BR-CO-16': 'information',
    'UBL-CR-470': 'information',
    'UBL-CR-646': 'information',
  }),
  xrechnung('ubl-invoice', 'CVD', XRECHNUNG_3_CVD, { 'BR-CL-13': 'information', ...XRECHNUNG_COMMON, 'UBL-CR-646': 'error' }),
  xrechnung('ubl-creditnote', '', XRECHNUNG_3, { ...XRECHNUNG_COMMON }),
  xrechnung('ubl-creditnote', 'CVD', XRECHNUNG_3_CVD, { 'BR-CL-13': 'information', ...XRECHNUNG_COMMON, 'UBL-CR-646': 'error' }),
  xrechnung('cii', '', XRECHNUNG_3, { ...XRECHNUNG_COMMON, ...CII_RAISED }),
  xrechnung('cii', 'Extension', XRECHNUNG_3_EXTENSION, { ...EXTENSION_COMMON, ...CII_RAISED }),
  xrechnung('cii', 'CVD', XRECHNUNG_3_CVD, { 'BR-CL-13': 'information', ...XRECHNUNG_COMMON, ...CII_RAISED }),
  ...(['ubl-invoice', 'ubl-creditnote', 'cii'] as const).map((kind): Scenario => ({
    id: `en16931-${KIND_ID[kind]}`,
    name: `EN16931 (${KIND_LABEL[kind]})`,
    kind,
    customization: EN16931,
    layers: ['en16931'],
    customLevels: {},
    ...(kind === 'cii' ? { container: 'xml' as const } : {}),
  })),
  ...(['ubl-invoice', 'ubl-creditnote', 'cii'] as const).map((kind): Scenario => ({
    id: `peppol-bis-3-${KIND_ID[kind]}`,
    name: `Peppol BIS Billing 3.0, EN 16931 rules (${KIND_LABEL[kind]})`,
    kind,
    customization: PEPPOL_BIS_3,
    layers: ['en16931'],
    customLevels: {},
  })),
  ...FACTURX_IDS.map(([profile, customization, container]): Scenario => ({
    id: `factur-x-${profile.toLowerCase()}-cii`,
    name: `Factur-X 1.0 / ZUGFeRD 2.x ${FACTURX_LABEL[profile]} (CII)`,
    kind: 'cii',
    customization,
    layers: ['en16931', 'profile'],
    facturX: profile,
    customLevels: {},
    ...(container ? { container } : {}),
  })),
];

/** The scenario that judges a document, or undefined when none matches. */
export function selectScenario(kind: RootKind, customization: string | undefined, container: Container): Scenario | undefined {
  return SCENARIOS.find(
    (s) => s.kind === kind && s.customization === customization && (s.container === undefined || s.container === container),
  );
}

/** Why no scenario matched, naming BT-24 and what is supported for this kind of document. */
export function unsupportedMessage(kind: RootKind, customization: string | undefined, container: Container): string {
  const supported = SCENARIOS.filter((s) => s.kind === kind && (s.container === undefined || s.container === container));
  const list = [
    ...new Map(
      supported.map((s) => [s.customization, `${s.name.replace(/ \((UBL Invoice|UBL CreditNote|CII)\)$/, '')}: ${s.customization}`]),
    ).values(),
  ].join('; ');
  const what = `${KIND_LABEL[kind]}${container === 'pdf' ? ' in a ZUGFeRD / Factur-X PDF' : ''}`;
  let why: string;
  if (customization === undefined) why = 'The document has no specification identifier (BT-24)';
  else if (customization !== customization.trim() && selectScenario(kind, customization.trim(), container))
    why = `The specification identifier (BT-24) "${customization}" has white space around it; it must be written exactly`;
  else {
    const version = /xrechnung_(\d+)\.(\d+)/.exec(customization);
    why =
      version && Number(version[1]) < 3
        ? `The specification identifier (BT-24) "${customization}" names XRechnung ${version[1]}.${version[2]}, which is no longer accepted: public buyers validate XRechnung 3.0`
        : `The specification identifier (BT-24) "${customization}" names no specification supported for a ${what}`;
  }
  return `${why}. Supported for a ${what}: ${list}.`;
}
