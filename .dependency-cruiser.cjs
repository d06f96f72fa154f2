/**
 * The layering of src, workflows, activities and connectors (docs/architecture.md, Layers):
 * `npm run layers` checks it, and scripts/test.sh fails CI on a violation. Type imports count
 * (tsPreCompilationDeps): a type that points up ties the layers together as much as a value does.
 */

/** From the bottom up; a module may import its own floor and those below it, never one above. */
const FLOORS = [
  {
    name: 'domain',
    path: '^src/(analysis|conversion|files|invoice|mail|operations|pdf|reading|render|report|validation|xml)/|^src/(temp-dirs|resident-jvm)[.]ts$',
  },
  { name: 'infrastructure', path: '^src/(storage|temporal|metrics|auth)/|^src/(config|cleanups)[.]ts$' },
  { name: 'intake', path: '^src/jobs/intake/|^src/jobs/contracts[.]ts$|^connectors/(?!engine[.]ts$)' },
  { name: 'activities', path: '^activities/' },
  { name: 'workflows', path: '^workflows/' },
  { name: 'submit', path: '^src/jobs/submit/' },
  { name: 'entry points', path: '^src/(api|cli)/|^src/(main|service[^/]*)[.]ts$|^connectors/engine[.]ts$' },
];

const npm = (...packages) => `(^|/)node_modules/(${packages.join('|')})/`;

const upward = FLOORS.slice(0, -1).map((floor, i) => ({
  name: `${floor.name}-imports-nothing-above`,
  comment: `${floor.name} is below ${FLOORS.slice(i + 1)
    .map((f) => f.name)
    .join(', ')}`,
  severity: 'error',
  from: { path: floor.path },
  to: { path: FLOORS.slice(i + 1).map((f) => `(${f.path})`) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A circle of imports has no bottom: none of its modules can be read, tested or moved alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'in-a-floor',
      comment: 'Every module of the layered folders is on a floor (FLOORS): a new folder is placed before it is used.',
      severity: 'error',
      from: { path: '^(src|workflows|activities|connectors)/', pathNot: FLOORS.map((f) => `(${f.path})`) },
      to: {},
    },
    {
      name: 'domain-is-plain',
      comment: 'The domain knows no Temporal, no HTTP, no storage, no jobs and no API: it is tested and reused on its own.',
      severity: 'error',
      from: { path: FLOORS[0].path },
      to: { path: [npm('@temporalio', 'koa', '@koa'), '^src/(storage|jobs|api)/'] },
    },
    {
      name: 'operation-definitions-are-plain',
      comment:
        "An operation definition (src/operations, the connectors' operations) is read by every layer and bundled with the workflows: no Temporal, no Koa, no storage, no jobs, no API.",
      severity: 'error',
      from: { path: '^src/operations/|^connectors/(operations|[^/]+-operation)[.]ts$' },
      to: { path: [npm('@temporalio', 'koa', '@koa'), '^src/(storage|jobs|api)/'] },
    },
    {
      name: 'intake-has-no-temporal',
      comment: 'Intake (and the connectors below their engine) runs inside activities as well as before a workflow starts.',
      severity: 'error',
      from: { path: FLOORS[2].path },
      to: { path: npm('@temporalio') },
    },
    {
      name: 'activities-start-no-workflow',
      comment:
        'An activity is a step of a workflow: it neither reaches a Temporal client nor the workflows or the submit side of the jobs.',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: ['^workflows/', npm('@temporalio/client'), '^src/jobs/submit/'] },
    },
    ...upward,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    includeOnly: { path: ['^(src|workflows|activities|connectors)/', 'node_modules/'] },
  },
};
