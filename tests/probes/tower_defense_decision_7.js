#!/usr/bin/env node
'use strict';
// The probes of rules Decision 7 (docs/bots.md, "Tower Defense answers outside the documented
// shapes"): each probe is a list of answer pairs, run on the reference controller by the ref
// harness (../shared/ref/tower-defense/script-trace.js writes the controller's trace, a state
// every turn), then the trace is checked with `arena verify tower-defense TRACE --partial`.
// Prints one line per probe: its name, and verify's verdict ("agree" when every recorded state
// is re-played, else verify's first message, or the controller's error).
//
//   cargo build -p arena-host
//   TD_CONTROLLER=/path/to/pcg-tower-defense node tests/probes/tower_defense_decision_7.js \
//     [--ref ../shared/ref/tower-defense] [--arena target/debug/arena] [--out DIR] [NAME...]
//
// Our own code: the controller is read by the harness from TD_CONTROLLER, never copied here.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');

function opt(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
}
const REF = path.resolve(opt('ref', '../shared/ref/tower-defense'));
const ARENA = path.resolve(opt('arena', 'target/debug/arena'));
const OUT = opt('out', null) || fs.mkdtempSync(path.join(os.tmpdir(), 'td-decision-7-'));
fs.mkdirSync(OUT, { recursive: true });
const only = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--')
  && !(i > 0 && all[i - 1].startsWith('--')));

const P = null;
const T = (pos) => ({ action: 'build', type: 'turret', pos });
const pass = (n) => Array.from({ length: n }, () => [P, P]);
const spawn1 = { action: 'spawn' };
// Duel build probe: seat 0 builds at turn 1; seat 1 spawns base invaders that walk past it.
function duelBuild(a0) {
  const l = [[a0, spawn1]];
  for (let i = 0; i < 45; i++) l.push([P, i % 3 === 0 ? spawn1 : P]);
  return l;
}
// Duel upgrade/destroy probe: tower at 30 (turn 1), the action at turn 2, invaders walking by.
function duelOnTower(a0) {
  const l = [[T(30), spawn1], [a0, P]];
  for (let i = 0; i < 45; i++) l.push([P, i % 3 === 0 ? spawn1 : P]);
  return l;
}
// Duel spawn probe: passes to turn 99, the spawn at turn 100 (boostMax 5, gold 600).
function duelSpawn(a0) {
  const l = pass(99);
  l.push([a0, P]);
  for (let i = 0; i < 10; i++) l.push([P, P]);
  return l;
}
function siegeInvader(a0, at = 10) {
  const l = pass(at - 1);
  l.push([a0, P]);
  for (let i = 0; i < 10; i++) l.push([P, P]);
  return l;
}
function siegeDefender(a1, first = null) {
  const l = [];
  if (first) l.push([P, first]);
  l.push([P, a1]);
  for (let i = 0; i < 40; i++) l.push([i % 10 === 8 ? {} : P, P]);
  return l;
}

const probes = [
  // build positions (Duel)
  ['build-pos-30', 'duel', duelBuild(T(30))],
  ['build-pos-string-30', 'duel', duelBuild(T('30'))],
  ['build-pos-string-space-30', 'duel', duelBuild(T(' 30 '))],
  ['build-pos-string-030', 'duel', duelBuild(T('030'))],
  ['build-pos-string-30.0', 'duel', duelBuild(T('30.0'))],
  ['build-pos-string-3e1', 'duel', duelBuild(T('3e1'))],
  ['build-pos-string-0x1e', 'duel', duelBuild(T('0x1e'))],
  ['build-pos-true', 'duel', duelBuild(T(true))],
  ['build-pos-false', 'duel', duelBuild(T(false))],
  ['build-pos-array-30', 'duel', duelBuild(T([30]))],
  ['build-pos-array-string-30', 'duel', duelBuild(T(['30']))],
  ['build-pos-null', 'duel', duelBuild(T(null))],
  ['build-pos-missing', 'duel', duelBuild({ action: 'build', type: 'turret' })],
  ['build-pos-empty-string', 'duel', duelBuild(T(''))],
  ['build-pos-string-abc', 'duel', duelBuild(T('abc'))],
  ['build-pos-object', 'duel', duelBuild(T({}))],
  ['build-pos-empty-array', 'duel', duelBuild(T([]))],
  ['build-pos-two-element-array', 'duel', duelBuild(T([30, 31]))],
  ['build-pos-30.5', 'duel', duelBuild(T(30.5))],
  ['build-pos-string-30.5', 'duel', duelBuild(T('30.5'))],
  ['build-pos-30.0-number', 'duel', duelBuild(T(30.0))],
  ['build-pos-minus-0', 'duel', duelBuild(T(-0))],
  ['build-pos-string-minus-0x1e', 'duel', duelBuild(T('-0x1e'))],
  ['build-pos-100', 'duel', duelBuild(T(100))],
  ['build-pos-string-100', 'duel', duelBuild(T('100'))],
  // names
  ['build-type-array-turret', 'duel', duelBuild({ action: 'build', type: ['turret'], pos: 30 })],
  ['build-type-nested-array-bomb', 'duel', duelBuild({ action: 'build', type: [['bomb']], pos: 30 })],
  ['build-type-Turret', 'duel', duelBuild({ action: 'build', type: 'Turret', pos: 30 })],
  ['build-type-two-element-array', 'duel', duelBuild({ action: 'build', type: ['turret', 'bomb'], pos: 30 })],
  ['action-array-build', 'duel', duelBuild({ action: ['build'], type: 'turret', pos: 30 })],
  ['action-array-spawn', 'duel', duelSpawn({ action: ['spawn'] })],
  ['upgrade-stat-array-power', 'duel', duelOnTower({ action: 'upgrade', pos: 30, stat: ['power'] })],
  // upgrade / destroy lookups
  ['upgrade-pos-30', 'duel', duelOnTower({ action: 'upgrade', pos: 30, stat: 'power' })],
  ['upgrade-pos-string-30', 'duel', duelOnTower({ action: 'upgrade', pos: '30', stat: 'power' })],
  ['upgrade-pos-array-30', 'duel', duelOnTower({ action: 'upgrade', pos: [30], stat: 'range' })],
  ['upgrade-pos-30.0-number', 'duel', duelOnTower({ action: 'upgrade', pos: 30.0, stat: 'power' })],
  ['upgrade-pos-string-space-30', 'duel', duelOnTower({ action: 'upgrade', pos: ' 30 ', stat: 'power' })],
  ['upgrade-pos-string-030', 'duel', duelOnTower({ action: 'upgrade', pos: '030', stat: 'power' })],
  ['upgrade-pos-string-30.0', 'duel', duelOnTower({ action: 'upgrade', pos: '30.0', stat: 'power' })],
  ['upgrade-pos-string-3e1', 'duel', duelOnTower({ action: 'upgrade', pos: '3e1', stat: 'power' })],
  ['upgrade-pos-true', 'duel', duelOnTower({ action: 'upgrade', pos: true, stat: 'power' })],
  ['upgrade-pos-30.5', 'duel', duelOnTower({ action: 'upgrade', pos: 30.5, stat: 'power' })],
  ['destroy-pos-30', 'duel', duelOnTower({ action: 'destroy', pos: 30 })],
  ['destroy-pos-string-30', 'duel', duelOnTower({ action: 'destroy', pos: '30' })],
  ['destroy-pos-array-30', 'duel', duelOnTower({ action: 'destroy', pos: [30] })],
  ['destroy-pos-nested-array-30', 'duel', duelOnTower({ action: 'destroy', pos: [['30']] })],
  ['destroy-pos-string-space-30', 'duel', duelOnTower({ action: 'destroy', pos: ' 30 ' })],
  ['destroy-pos-string-030', 'duel', duelOnTower({ action: 'destroy', pos: '030' })],
  ['destroy-pos-string-30.0', 'duel', duelOnTower({ action: 'destroy', pos: '30.0' })],
  ['destroy-pos-true', 'duel', duelOnTower({ action: 'destroy', pos: true })],
  // spawn boosts (turn 100: boostMax 5)
  ['spawn-hp-2', 'duel', duelSpawn({ action: 'spawn', hp: 2 })],
  ['spawn-hp-true', 'duel', duelSpawn({ action: 'spawn', hp: true })],
  ['spawn-hp-false', 'duel', duelSpawn({ action: 'spawn', hp: false })],
  ['spawn-hp-null', 'duel', duelSpawn({ action: 'spawn', hp: null })],
  ['spawn-hp-empty-string', 'duel', duelSpawn({ action: 'spawn', hp: '' })],
  ['spawn-hp-array-3', 'duel', duelSpawn({ action: 'spawn', hp: [3] })],
  ['spawn-hp-nested-array-2', 'duel', duelSpawn({ action: 'spawn', hp: [['2']] })],
  ['spawn-hp-empty-array', 'duel', duelSpawn({ action: 'spawn', hp: [] })],
  ['spawn-hp-array-true', 'duel', duelSpawn({ action: 'spawn', hp: [true] })],
  ['spawn-hp-string-minus-Infinity', 'duel', duelSpawn({ action: 'spawn', hp: '-Infinity' })],
  ['spawn-hp-string-Infinity', 'duel', duelSpawn({ action: 'spawn', hp: 'Infinity' })],
  ['spawn-hp-string-space-2', 'duel', duelSpawn({ action: 'spawn', hp: ' 2 ' })],
  ['spawn-hp-string-tab-nbsp-2', 'duel', duelSpawn({ action: 'spawn', hp: '\t\u00a02\n\u2028' })],
  ['spawn-hp-string-02', 'duel', duelSpawn({ action: 'spawn', hp: '02' })],
  ['spawn-hp-string-0x2', 'duel', duelSpawn({ action: 'spawn', hp: '0x2' })],
  ['spawn-hp-string-0o3', 'duel', duelSpawn({ action: 'spawn', hp: '0o3' })],
  ['spawn-hp-string-0b11', 'duel', duelSpawn({ action: 'spawn', hp: '0b11' })],
  ['spawn-hp-string-2e0', 'duel', duelSpawn({ action: 'spawn', hp: '2e0' })],
  ['spawn-hp-string-plus-2', 'duel', duelSpawn({ action: 'spawn', hp: '+2' })],
  ['spawn-hp-string-2.', 'duel', duelSpawn({ action: 'spawn', hp: '2.' })],
  ['spawn-hp-string-minus-0x2', 'duel', duelSpawn({ action: 'spawn', hp: '-0x2' })],
  ['spawn-hp-string-abc', 'duel', duelSpawn({ action: 'spawn', hp: 'abc' })],
  ['spawn-hp-object', 'duel', duelSpawn({ action: 'spawn', hp: {} })],
  ['spawn-hp-2.5', 'duel', duelSpawn({ action: 'spawn', hp: 2.5 })],
  ['spawn-hp-string-2.5', 'duel', duelSpawn({ action: 'spawn', hp: '2.5' })],
  ['spawn-hp-minus-2.5', 'duel', duelSpawn({ action: 'spawn', hp: -2.5 })],
  ['spawn-hp-string-minus-3', 'duel', duelSpawn({ action: 'spawn', hp: '-3' })],
  ['spawn-defense-string-1', 'duel', duelSpawn({ action: 'spawn', defense: '1' })],
  ['spawn-stunRes-true', 'duel', duelSpawn({ action: 'spawn', stunRes: true })],
  ['spawn-defense-array-1', 'duel', duelSpawn({ action: 'spawn', defense: [1] })],
  ['spawn-defense-0.5', 'duel', duelSpawn({ action: 'spawn', defense: 0.5 })],
  ['duel-answer-number-7', 'duel', duelSpawn(7)],
  ['duel-answer-string-spawn', 'duel', duelSpawn('spawn')],
  ['spawn-hp-string-nel-2', 'duel', duelSpawn({ action: 'spawn', hp: '\u00852' })],
  ['spawn-hp-string-bom-2', 'duel', duelSpawn({ action: 'spawn', hp: '\ufeff2' })],
  ['spawn-hp-string-minus-0', 'duel', duelSpawn({ action: 'spawn', hp: '-0' })],
  ['spawn-hp-string-1e400', 'duel', duelSpawn({ action: 'spawn', hp: '1e400' })],
  ['spawn-hp-array-null', 'duel', duelSpawn({ action: 'spawn', hp: [null] })],
  ['spawn-hp-two-element-array', 'duel', duelSpawn({ action: 'spawn', hp: [1, 2] })],
  ['spawn-hp-string-2.5-over-the-limit', 'duel', [[{ action: 'spawn', hp: '2.5' }, P], ...pass(5)]],
  ['build-pos-string-30-without-gold', 'duel', [[T(10), P], [T(11), P], [T(12), P], [T(13), P], [T(14), P], [T(15), P], [T('30'), P], ...pass(5)]],
  ['build-pos-string-30-on-a-tower', 'duel', [[T(30), P], [T('30'), P], ...pass(5)]],
  ['build-type-constructor', 'duel', duelBuild({ action: 'build', type: 'constructor', pos: 30 })],
  ['build-type-toString', 'duel', duelBuild({ action: 'build', type: 'toString', pos: 30 })],
  // Siege
  ['siege-invader-empty-object', 'siege', siegeInvader({})],
  ['siege-invader-number-7', 'siege', siegeInvader(7)],
  ['siege-invader-string-x', 'siege', siegeInvader('x')],
  ['siege-invader-true', 'siege', siegeInvader(true)],
  ['siege-invader-array', 'siege', siegeInvader([1, 2])],
  ['siege-invader-build', 'siege', siegeInvader({ action: 'build', type: 'turret', pos: 3 })],
  ['siege-invader-0.5', 'siege', siegeInvader(0.5)],
  ['siege-invader-zero', 'siege', siegeInvader(0)],
  ['siege-invader-empty-string', 'siege', siegeInvader('')],
  ['siege-invader-false', 'siege', siegeInvader(false)],
  ['siege-invader-hp-true', 'siege', siegeInvader({ hp: true }, 100)],
  ['siege-invader-hp-array-2', 'siege', siegeInvader({ action: 'spawn', hp: [2] }, 100)],
  ['siege-invader-hp-string-minus-Infinity', 'siege', siegeInvader({ hp: '-Infinity' }, 100)],
  ['siege-invader-hp-1.5', 'siege', siegeInvader({ hp: 1.5 }, 100)],
  ['siege-build-pos-30', 'siege', siegeDefender(T(30))],
  ['siege-build-pos-string-30', 'siege', siegeDefender(T('30'))],
  ['siege-build-pos-string-space-30', 'siege', siegeDefender(T(' 30 '))],
  ['siege-build-pos-array-30', 'siege', siegeDefender(T([30]))],
  ['siege-build-type-array-turret', 'siege', siegeDefender({ action: 'build', type: ['turret'], pos: 30 })],
  ['siege-upgrade-pos-string-30', 'siege', siegeDefender({ action: 'upgrade', pos: '30', stat: 'power' }, T(30))],
  ['siege-upgrade-pos-string-030', 'siege', siegeDefender({ action: 'upgrade', pos: '030', stat: 'power' }, T(30))],
  ['siege-destroy-pos-array-30', 'siege', siegeDefender({ action: 'destroy', pos: [30] }, T(30))],
  ['siege-destroy-pos-string-space-30', 'siege', siegeDefender({ action: 'destroy', pos: ' 30 ' }, T(30))],
];


const counts = {};
for (const [name, variant, actions] of probes) {
  if (only.length && !only.includes(name)) continue;
  const list = path.join(OUT, `${name}.actions.json`);
  const trace = path.join(OUT, `${name}.jsonl`);
  fs.writeFileSync(list, JSON.stringify(actions));
  let verdict;
  try {
    execFileSync('node', [path.join(REF, 'script-trace.js'), '--variant', variant, '--actions', list,
      '--out', trace], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const v = spawnSync(ARENA, ['verify', 'tower-defense', trace, '--partial'], { encoding: 'utf8' });
    const said = `${v.stdout}${v.stderr}`.trim().split('\n')[0].replace(`${trace}: `, '');
    verdict = v.status === 0 ? 'agree' : `verify: ${said}`;
  } catch (e) {
    const why = String(e.stderr || e).split('\n').find((l) => /Error/.test(l)) || String(e);
    verdict = `controller error: ${why.trim()}`;
  }
  const kind = verdict.split(':')[0];
  counts[kind] = (counts[kind] || 0) + 1;
  console.log(`${name}\t${verdict}`);
}
console.log(`# ${Object.entries(counts).map(([k, n]) => `${k}: ${n}`).join(', ')} (traces in ${OUT})`);
