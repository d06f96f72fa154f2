import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { freePort, repoRoot } from './spawn-service.js';

/**
 * The KoSIT validator with the XRechnung configuration as a judge: the tool that German public
 * buyers run. It is neither on a package registry nor part of this repository; it is looked for
 * in KOSIT_DIR or in ../shared/tools/kosit beside the checkout (validator-*-standalone.jar and
 * config/). It runs as one long-lived daemon (its HTTP mode), so hundreds of documents cost one
 * JVM start and one compilation of the rules.
 */

export const kositDir = process.env.KOSIT_DIR ?? path.resolve(repoRoot, '../shared/tools/kosit');

/**
 * `official`: the configuration's scenarios.xml, the verdict public buyers get. `plus`: the same
 * scenarios plus non-official ones that judge Peppol BIS 3 documents by schema and CEN rules only.
 */
export type KositScenarios = 'official' | 'plus';

const SCENARIO_FILES: Record<KositScenarios, string> = { official: 'scenarios.xml', plus: 'scenarios-plus-en16931.xml' };

export function kositJar(): string | undefined {
  if (!existsSync(kositDir)) return undefined;
  const jar = readdirSync(kositDir).find((name) => /^validator-[\d.]+-standalone\.jar$/.test(name));
  return jar ? path.join(kositDir, jar) : undefined;
}

/** Why the judge cannot run here, or undefined when it can. */
export function kositUnavailable(scenarios: KositScenarios = 'official'): string | undefined {
  if (!kositJar()) return `the KoSIT validator is not present at ${kositDir} (set KOSIT_DIR, or place ../shared beside the checkout)`;
  if (!existsSync(path.join(kositDir, 'config', SCENARIO_FILES[scenarios])))
    return `${path.join(kositDir, 'config', SCENARIO_FILES[scenarios])} is missing`;
  if (spawnSync('java', ['-version']).status !== 0) return 'java is not on the PATH';
  return undefined;
}

export interface KositMessage {
  /** val-xml (well-formedness), val-xsd (XML Schema) or val-sch.N (the Nth schematron of the scenario). */
  step: string;
  /** After the scenario's customLevel for this rule, as KoSIT's assessment counts it. */
  level: 'error' | 'warning' | 'information';
  /** The level the rule set gave, where the scenario's customLevel changed it. */
  originalLevel?: 'error' | 'warning' | 'information';
  /** The rule id for schematron messages; the schema error code for XSD messages. */
  code?: string;
  text: string;
}

export interface KositVerdict {
  accepted: boolean;
  /** Name of the matched scenario; undefined when no scenario matched (always a rejection). */
  scenario?: string;
  messages: KositMessage[];
}

const REP = 'http://www.xoev.de/de/validator/varl/1';
const SCN = 'http://www.xoev.de/de/validator/framework/1/scenarios';

function children(el: Element, ns: string, name: string): Element[] {
  return Array.from(el.childNodes).filter(
    (n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name,
  );
}

function levelOf(level: string | null): KositMessage['level'] {
  return level === 'warning' || level === 'information' ? level : 'error';
}

/** Reads a KoSIT report (VARL): the assessment, the matched scenario and every message. */
export function parseKositReport(report: string): KositVerdict {
  const root = new DOMParser().parseFromString(report, 'text/xml').documentElement;
  if (!root || root.localName !== 'report' || root.namespaceURI !== REP) throw new Error(`not a KoSIT report: ${report.slice(0, 300)}`);
  const assessment = children(root, REP, 'assessment')[0];
  if (!assessment) throw new Error('KoSIT report without assessment');
  const accepted = children(assessment, REP, 'accept').length > 0;
  const matched = children(root, REP, 'scenarioMatched')[0];
  const scenarioEl = matched ? children(matched, SCN, 'scenario')[0] : undefined;
  const scenario = scenarioEl ? children(scenarioEl, SCN, 'name')[0]?.textContent?.trim() : undefined;
  // The messages carry the rule set's own level; the scenario's customLevel decides the assessment.
  const customLevels = new Map<string, KositMessage['level']>();
  for (const create of scenarioEl ? children(scenarioEl, SCN, 'createReport') : []) {
    for (const c of children(create, SCN, 'customLevel')) customLevels.set((c.textContent ?? '').trim(), levelOf(c.getAttribute('level')));
  }
  const noScenario = children(root, REP, 'noScenarioMatched')[0];
  const steps = [matched, noScenario].flatMap((parent) => (parent ? children(parent, REP, 'validationStepResult') : []));
  const messages: KositMessage[] = [];
  for (const step of steps) {
    for (const m of children(step, REP, 'message')) {
      const original = levelOf(m.getAttribute('level'));
      const code = m.getAttribute('code') ?? undefined;
      const level = (code !== undefined && customLevels.get(code)) || original;
      messages.push({
        step: step.getAttribute('id') ?? '',
        level,
        ...(level !== original ? { originalLevel: original } : {}),
        ...(code !== undefined ? { code } : {}),
        text: (m.textContent ?? '').trim(),
      });
    }
  }
  return { accepted, ...(scenario ? { scenario } : {}), messages };
}

export interface KositJudge {
  judge(xml: string): Promise<KositVerdict>;
  stop(): Promise<void>;
}

/** Starts the daemon on a free loopback port and waits until it takes documents. */
export async function startKosit(
  opts: { scenarios?: KositScenarios; threads?: number; startTimeoutMs?: number } = {},
): Promise<KositJudge> {
  const scenarios = opts.scenarios ?? 'official';
  const why = kositUnavailable(scenarios);
  if (why) throw new Error(why);
  const port = await freePort();
  const config = path.join(kositDir, 'config');
  const java: ChildProcess = spawn(
    'java',
    [
      '-Xmx1g',
      '-jar',
      kositJar()!,
      '-s',
      path.join(config, SCENARIO_FILES[scenarios]),
      '-r',
      config,
      '-D',
      '-G',
      '-H',
      '127.0.0.1',
      '-P',
      String(port),
      '-T',
      String(opts.threads ?? 2),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`KoSIT daemon did not start within ${opts.startTimeoutMs ?? 180_000} ms:\n${output.slice(-2000)}`)),
      opts.startTimeoutMs ?? 180_000,
    );
    const onExit = (code: number | null) => fail(new Error(`KoSIT daemon exited with ${code}:\n${output.slice(-2000)}`));
    const settle = () => {
      clearTimeout(timer);
      java.stdout!.off('data', onData);
      java.stderr!.off('data', onData);
      java.off('error', fail);
      java.off('exit', onExit);
    };
    const fail = (err: Error) => {
      settle();
      java.kill();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Daemon started')) {
        settle();
        resolve();
      }
    };
    java.stdout!.on('data', onData);
    java.stderr!.on('data', onData);
    java.on('error', fail);
    java.on('exit', onExit);
  });
  java.stdout!.resume();
  java.stderr!.resume();
  const exited = new Promise<void>((resolve) => java.once('exit', () => resolve()));
  return {
    async judge(xml) {
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: Buffer.from(xml, 'utf8'),
      });
      const body = await res.text();
      if (!body.includes('<rep:report') && !body.includes(':report'))
        throw new Error(`KoSIT answered HTTP ${res.status} without a report: ${body.slice(0, 500)}`);
      return parseKositReport(body);
    },
    async stop() {
      if (java.exitCode === null && java.signalCode === null) {
        java.kill();
        await exited;
      }
    },
  };
}
